import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { TextMemo, type TextParts } from '../text-memo.js';
import type { Turn, Usage } from './types.js';

// Texts recur (stored reports, repeated answers, common questions): remember their counts, bounded in bytes.
const memo = new TextMemo<number>({ maxBytes: 32 * 1024 * 1024 });

/** Tokens of a text (whole or in pieces) with the o200k_base encoding (the GPT-4o/4.1/5 family's). */
export function countTextTokens(text: TextParts): number {
  if (!text.length) return 0;
  return memo.get(text, countTokens);
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
