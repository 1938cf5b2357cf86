import type { AgentEvent, Turn } from '../types.js';
import { answerOf } from '../citations.js';
import { restated as plainly } from '../router/restate.js';
import type { FormAsked } from './restate.js';

/**
 * "Summarize in one sentence", "explain it simply" after an answer that is no plan of figures (how
 * old the data is, when the next 10-Q is due): that answer, given again, in one or a few plain
 * sentences with its sources. Null for other forms, for an answer that is a table of periods (its
 * own summary lines answer those), and when nothing in it can be said plainly.
 */
export async function formOfAnswerBefore(messages: readonly Turn[], form: FormAsked, again: (messages: Turn[]) => AsyncIterable<AgentEvent>): Promise<AgentEvent[] | null> {
  if (form.rest || (form.form !== 'sentence' && form.form !== 'simple')) return null;
  const earlier = messages.slice(0, -1);
  const at = earlier.map((m, i) => [m, i] as const).filter(([m]) => m.role === 'user').at(-1)?.[1];
  if (at === undefined) return null;
  const before = await answerOf(again(earlier.slice(0, at + 1)));
  if (/^\s*\|/m.test(before.text)) return null;
  const said = plainly(before, form.form === 'sentence' ? 'sentence' : 'simple');
  return said ? [{ type: 'text', delta: said.text }, ...said.citations.map((citation) => ({ type: 'citation' as const, citation })), { type: 'done' }] : null;
}
