import type { Agent, AgentEvent, AgentRequest, Citation } from '../../src/agents/types.js';

export type Script = (request: AgentRequest) => AsyncIterable<AgentEvent> | AgentEvent[];

/** An agent whose events are scripted by the test: stands in until the real agents exist, and stays for wire tests. */
export function scriptedAgent(id: string, script: Script, variants?: Agent['variants']): Agent {
  return {
    id,
    description: `Scripted test agent ${id}`,
    variants,
    async *run(request) {
      yield* script(request);
    },
  };
}

/** Text in deltas of `size` characters, then citations, then done. */
export function answer(text: string, citations: Citation[] = [], size = 7): AgentEvent[] {
  const events: AgentEvent[] = [];
  for (let i = 0; i < text.length; i += size) events.push({ type: 'text', delta: text.slice(i, i + size) });
  for (const citation of citations) events.push({ type: 'citation', citation });
  events.push({ type: 'done' });
  return events;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
