import type { AgentEvent, Answer, Citation } from './types.js';

/**
 * Numbers sources in the order they are first cited while a text is written, so every [n]
 * has its source and every source listed is cited. The same key cites the same source.
 */
export class SourceList {
  readonly list: Citation[] = [];
  readonly #byKey = new Map<string, number>();

  cite(key: string, name: string, url: string): string {
    let n = this.#byKey.get(key);
    if (n === undefined) {
      n = this.list.length + 1;
      this.#byKey.set(key, n);
      this.list.push({ order: n, name, url });
    }
    return `[${n}]`;
  }
}

/**
 * A caller's words quoted back in an answer. A `[n]` they typed is written `[n\]` (the same in
 * Markdown) so it cannot be mistaken for, or take the place of, a citation marker; a Markdown link
 * they typed, `[label](url)`, is written `[label] (url)`, so no renderer (the playground, Slack,
 * Discord) shows it as a link under a label of the caller's choosing, in the service's answer;
 * `*`, `_`, `` ` `` and `~` are escaped, so "**bold**" they typed is quoted as typed.
 */
export const quoteCaller = (text: string) =>
  text
    .replace(/\[(\d+)\]/g, '[$1\\]')
    .replace(/\]\(/g, '] (')
    // Their emphasis and code marks are shown as typed, not applied to the service's answer.
    .replace(/[*`~]|(?<!\w)_|_(?!\w)/g, '\\$&');

/** "2026-11-19 15:00 UTC". */
export const utcMinute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** "a", "a and b", "a, b and c". */
export const listed = (items: readonly string[]): string => (items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The text and sources an agent's events add up to (its other events dropped). */
export async function answerOf(events: AsyncIterable<AgentEvent>): Promise<Answer> {
  let text = '';
  const citations: Citation[] = [];
  for await (const e of events) {
    if (e.type === 'text') text += e.delta;
    else if (e.type === 'citation') citations.push(e.citation);
    else if (e.type === 'answer') (text += e.answer.text), citations.push(...e.answer.citations);
  }
  return { text, citations };
}

/** `text` with its [n] renumbered 1, 2, … in order of use, and those citations. */
export function cited(text: string, all: readonly Citation[]): Answer {
  const order = new Map<number, number>();
  const body = text.replace(/\[(\d+)\]/g, (m, n: string) => {
    if (!all.some((c) => c.order === Number(n))) return m;
    if (!order.has(Number(n))) order.set(Number(n), order.size + 1);
    return `[${order.get(Number(n))}]`;
  });
  const citations = [...order].map(([from, to]) => ({ ...all.find((c) => c.order === from)!, order: to }));
  return { text: body, citations };
}
