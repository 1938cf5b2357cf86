import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { TextMemo, type TextParts } from '../text-memo.js';
import type { Turn, Usage } from './types.js';

// Texts recur (stored reports, repeated answers, common questions): remember their counts, bounded in bytes.
const memo = new TextMemo<number>({ maxBytes: 32 * 1024 * 1024 });

/** Tokens of a text (whole or in pieces) with the o200k_base encoding (the GPT-4o/4.1/5 family's). */
export function countTextTokens(text: TextParts): number {
  if (!text.length) return 0;
  return memo.get(text, countBounded);
}

/** Runs of one kind of character long enough to make the tokenizer slow. */
const LONG_RUN = /\s{256,}|\S{256,}/g;
const HAS_LONG_RUN = /\s{256,}|\S{256,}/;
const PIECE = 128;

/**
 * `countTokens`, exact for ordinary text. The tokenizer's merging is quadratic in the length of a
 * run without a word boundary (160,000 letters took 14 s of the event loop; 42,000 characters of
 * unspaced CJK, 10 s), so such runs are counted in pieces of 128 characters: a few tokens off
 * for such a run, at most one per piece, and linear time.
 */
export function countBounded(text: string): number {
  if (!HAS_LONG_RUN.test(text)) return countTokens(text);
  let total = 0;
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    if (run.index > from) total += countTokens(text.slice(from, run.index));
    const end = run.index + run[0].length;
    for (let at = run.index; at < end; ) {
      let cut = Math.min(at + PIECE, end);
      // Never between the halves of a surrogate pair.
      if (cut < end && (text.charCodeAt(cut) & 0xfc00) === 0xdc00) cut++;
      total += countTokens(text.slice(at, cut));
      at = cut;
    }
    from = end;
  }
  if (from < text.length) total += countTokens(text.slice(from));
  return total;
}

/**
 * Prompt tokens of a conversation, counted the way OpenAI counts chat prompts:
 * each message costs its content plus 3 framing tokens, and 3 more prime the reply.
 */
export function countPromptTokens(messages: readonly Turn[], instructions: string | null): number {
  let total = 3;
  if (instructions) total += 3 + countTextTokens(instructions);
  for (const m of messages) total += 3 + countTextTokens(m.content);
  return total;
}

/** Usage of a run; `output` may be the answer's deltas, counted without joining them when the text is known. */
export function measureUsage(messages: readonly Turn[], instructions: string | null, output: TextParts): Usage {
  return { inputTokens: countPromptTokens(messages, instructions), outputTokens: countTextTokens(output) };
}
