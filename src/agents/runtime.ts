import { SvcError, isSvcError } from '../errors.js';
import type { Agent, AgentEvent, AgentRequest, Usage } from './types.js';
import { measureUsage } from './usage.js';

/**
 * Runs an agent and normalises its stream for the wire encoders:
 * - exactly one terminal event (`done` or `failed`), nothing after it;
 * - a thrown error becomes `failed` (unexpected errors as `internal`, message kept out of the wire);
 * - a `usage` event before `done`, counted with the tokenizer when the agent reported none.
 */
export async function* runAgent(agent: Agent, request: AgentRequest, onInternalError?: (err: unknown) => void): AsyncGenerator<AgentEvent> {
  let usage: Usage | null = null;
  const text: string[] = [];
  try {
    for await (const event of agent.run(request)) {
      switch (event.type) {
        case 'text':
          if (!event.delta) continue;
          text.push(event.delta);
          yield event;
          break;
        case 'usage':
          usage = event.usage;
          break;
        case 'done':
          yield { type: 'usage', usage: usage ?? measureUsage(request.messages, request.instructions, text.join('')) };
          yield event;
          return;
        case 'failed':
          yield event;
          return;
        default:
          yield event;
      }
    }
    yield { type: 'failed', error: new SvcError('internal', { code: 'server_error', message: `The agent ${agent.id} ended without an answer.` }) };
  } catch (err) {
    if (isSvcError(err)) {
      yield { type: 'failed', error: err };
    } else {
      onInternalError?.(err);
      yield { type: 'failed', error: new SvcError('internal', { code: 'server_error', message: 'The agent failed unexpectedly. The error was logged with this request id.' }) };
    }
  }
}
