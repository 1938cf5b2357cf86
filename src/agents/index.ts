import type { Core } from '../app.js';
import type { Agent } from './types.js';

/** The agents every server runs, in the order GET /v1/models lists them. */
export function builtinAgents(_core: Core): Agent[] {
  return [];
}
