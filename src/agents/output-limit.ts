import { reshapedAgent, shapeText } from './text-shaper.js';
import type { Agent, AgentEvent, AgentRequest, Citation, Usage } from './types.js';
import { countBounded, countPromptTokens, countTextTokens } from './usage.js';

/**
 * An agent whose answer stops at `maxTokens` output tokens (`max_output_tokens`, `max_tokens`,
 * `max_completion_tokens`), as OpenAI's models do, and the run ends `done` with
 * `incomplete: 'max_output_tokens'`. Unlike a model's, the cut falls on a line's or a word's end
 * when one is near (see cleanStart): the answer is written whole, then cut. Only the sources whose
 * `[n]` marker survived the cut are kept, and the usage counts the text that was sent. The agent
 * runs to its end all the same, since its sources may come after its text (every agent here
 * composes its answer before it sends it, so the rest costs little).
 *
 * A whole answer that fits passes through unchanged (a stored report keeps its reference); other
 * citations are held until the end, since whether their marker survives is known only then.
 */
export function withOutputLimit(agent: Agent, maxTokens: number): Agent {
  return reshapedAgent(agent, (events, request) => limited(events, request, maxTokens));
}

async function* limited(events: AsyncIterable<AgentEvent>, request: AgentRequest, maxTokens: number): AsyncGenerator<AgentEvent> {
  const tally = new TokenTally();
  let cut = false;
  yield* shapeText(events, {
    *text(text, event, citations) {
      // Past the limit the rest of the text is dropped; the run goes on only for its sources.
      if (cut) {
        if (event.type === 'answer') citations.push(...event.answer.citations);
        return;
      }
      if (tally.fits(text, maxTokens)) {
        tally.add(text);
        // A whole answer that fits goes on as it is, its sources with it: all its markers are sent.
        yield event;
        return;
      }
      if (event.type === 'answer') citations.push(...event.answer.citations);
      const start = tally.cleanStart(text, maxTokens);
      if (start) {
        tally.add(start);
        yield { type: 'text', delta: start };
      }
      cut = true;
    },
    done: (event, citations, usage) => (cut ? endCut(tally.text, citations, usage, request, maxTokens) : endWhole(citations, usage, event)),
    *failed(event) {
      yield event;
    },
  });
}

function* endWhole(citations: Citation[], usage: Usage | null, done: AgentEvent): Generator<AgentEvent> {
  for (const citation of citations) yield { type: 'citation', citation };
  if (usage) yield { type: 'usage', usage };
  yield done;
}

/** The end of a cut answer: the sources of the markers sent, the usage of the text sent. */
function* endCut(sent: string, citations: Citation[], usage: Usage | null, request: AgentRequest, maxTokens: number): Generator<AgentEvent> {
  for (const citation of citations) if (sent.includes(`[${citation.order}]`)) yield { type: 'citation', citation };
  const inputTokens = usage?.inputTokens ?? countPromptTokens(request.messages, request.instructions);
  yield { type: 'usage', usage: { inputTokens, outputTokens: Math.min(maxTokens, countTextTokens(sent)) } };
  yield { type: 'done', incomplete: 'max_output_tokens' };
}

/**
 * Past this many characters with no word boundary the open tail is settled anyway, so a long run
 * is not counted again with every delta: a few tokens off for such a run, as countBounded is.
 */
const LONGEST_TAIL = 256;

/**
 * The token count of a text that grows by deltas, exact without recounting it all each time.
 * Deltas split words (a streamed "reven" + "ue" is more tokens than "revenue"), so they cannot
 * be counted apart. The tokenizer never merges across a space that follows a non-space (the
 * start of a new word), so everything before the last such boundary is counted once and settled;
 * only the open tail after it is counted again with each delta.
 */
export class TokenTally {
  readonly #parts: string[] = [];
  #settled = 0;
  #tail = '';

  get text(): string {
    return this.#parts.join('');
  }

  get tokens(): number {
    return this.#settled + countBounded(this.#tail);
  }

  fits(text: string, maxTokens: number): boolean {
    return this.#settled + countBounded(this.#tail + text) <= maxTokens;
  }

  /**
   * Where to cut `text` so it fits after what was added: at the end of its last whole line when
   * that keeps at least half of what would fit (a table ends on a whole row), else before its
   * last word that does not fit whole, else (one long word) the longest start that fits.
   */
  cleanStart(text: string, maxTokens: number): string {
    const fits = this.longestStart(text, maxTokens);
    if (fits.length === text.length) return fits;
    const line = fits.lastIndexOf('\n') + 1;
    if (line > 0 && line >= fits.length / 2) return withoutOrphans(fits.slice(0, line));
    const space = Math.max(fits.lastIndexOf(' '), fits.lastIndexOf('\t'));
    if (space >= 0) return fits.slice(0, space);
    // No space in it: nothing of it if the sent text ended a word, else (one long word) inside it.
    const sent = this.#parts.at(-1);
    return sent !== undefined && /\s$/.test(sent) ? '' : fits;
  }

  /** The longest start of `text` that still fits after what was added. */
  longestStart(text: string, maxTokens: number): string {
    const budget = maxTokens - this.#settled;
    const tail = this.#tail;
    let low = 0;
    let high = text.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (countBounded(tail + text.slice(0, mid)) <= budget) low = mid;
      else high = mid - 1;
    }
    return wholeCharacters(text, low);
  }

  add(text: string): void {
    if (!text) return;
    this.#parts.push(text);
    const open = this.#tail + text;
    let at = open.length - 1;
    while (at > 0 && !(open.charCodeAt(at) === 32 && !/\s/.test(open[at - 1]!))) at--;
    if (at <= 0 && open.length > LONGEST_TAIL) at = open.length - (open.length % LONGEST_TAIL || LONGEST_TAIL);
    if (at > 0) {
      this.#settled += countBounded(open.slice(0, at));
      this.#tail = open.slice(at);
    } else {
      this.#tail = open;
    }
  }
}

/**
 * A start of an answer cut after a whole line, less what would end it orphaned: a table's header
 * with none of its rows, or a heading with nothing under it.
 */
function withoutOrphans(start: string): string {
  let out = start;
  for (;;) {
    const trimmed = out.replace(/(?:^|\n)\|[^\n]*\|\n\|[-:| ]+\|\n$/, '\n').replace(/(?:^|\n)#{1,6} [^\n]*\n\s*$/, '\n');
    if (trimmed === out) return out;
    out = trimmed === '\n' ? '' : trimmed;
  }
}

/** `text` up to `end`, moved back so it does not end inside a surrogate pair. */
const wholeCharacters = (text: string, end: number): string =>
  text.slice(0, end > 0 && end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800 ? end - 1 : end);
