import { reshapedAgent, shapeText } from './text-shaper.js';
import type { Agent, AgentEvent, AgentRequest } from './types.js';
import { countPromptTokens, countTextTokens } from './usage.js';

/**
 * An agent whose answer ends before the first of `stops` (Chat's `stop`), as OpenAI's models end
 * theirs: the sequence itself is not sent, and the run ends as a whole answer does
 * (`finish_reason: "stop"`). Streamed text is held back by the length of the longest sequence
 * less one, so a sequence split across deltas is still found. Past the stop the rest of the text
 * is dropped; only the sources whose `[n]` marker was sent are kept, and the usage counts the text
 * sent. A whole answer without any of them passes through unchanged (a stored report keeps its
 * reference); other citations are held until the end, since whether their marker is sent is known
 * only then.
 */
export function withStopSequences(agent: Agent, stops: readonly string[]): Agent {
  return reshapedAgent(agent, (events, request) => stopped(events, request, stops));
}

/** Where the first of `stops` begins in `text`, or -1. */
function firstStop(text: string, stops: readonly string[]): number {
  let at = -1;
  for (const stop of stops) {
    const i = text.indexOf(stop);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

async function* stopped(events: AsyncIterable<AgentEvent>, request: AgentRequest, stops: readonly string[]): AsyncGenerator<AgentEvent> {
  const keep = Math.max(...stops.map((s) => s.length)) - 1;
  let held = '';
  let sent = '';
  let hit = false;
  const send = (text: string): AgentEvent[] => {
    sent += text;
    return text ? [{ type: 'text', delta: text }] : [];
  };
  yield* shapeText(events, {
    *text(text, event, citations) {
      if (event.type === 'answer') {
        // A whole answer that holds no stop goes on as it is, its sources with it: all its markers are sent.
        if (!hit && !held && firstStop(text, stops) < 0) {
          sent += text;
          yield event;
          return;
        }
        citations.push(...event.answer.citations);
      }
      // Past the stop the rest of the text is dropped; the run goes on only for its sources.
      if (hit) return;
      held += text;
      const at = firstStop(held, stops);
      if (at >= 0) {
        hit = true;
        yield* send(held.slice(0, at));
        held = '';
        return;
      }
      // (Not inside a surrogate pair: each delta is whole characters.)
      let safe = held.length - keep;
      if (safe > 0 && (held.charCodeAt(safe - 1) & 0xfc00) === 0xd800) safe--;
      if (safe > 0) {
        yield* send(held.slice(0, safe));
        held = held.slice(safe);
      }
    },
    *done(event, citations, usage) {
      if (!hit) yield* send(held);
      for (const citation of citations) if (!hit || sent.includes(`[${citation.order}]`)) yield { type: 'citation', citation };
      if (hit) yield { type: 'usage', usage: { inputTokens: usage?.inputTokens ?? countPromptTokens(request.messages, request.instructions), outputTokens: countTextTokens(sent) } };
      else if (usage) yield { type: 'usage', usage };
      yield event;
    },
    *failed(event) {
      if (!hit) yield* send(held);
      yield event;
    },
  });
}
