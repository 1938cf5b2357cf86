import { describe, expect, it } from 'vitest';
import { restatedAsInstructed } from '../../../src/agents/router/instructed.js';
import type { Answer } from '../../../src/agents/types.js';

const sentence = { form: 'sentence', one: false } as const;
const bullets = { form: 'bullets', one: false } as const;
const simple = { form: 'simple', one: false } as const;
const number = { form: 'number', one: false } as const;

const LISTING: Answer = {
  text: `Open Kalshi events matching “fed”, with current prices (as of 2026-11-19 15:00 UTC):

1. **Fed decision in December 2026?** (KXFEDDECISION-26DEC, Economics) [1]: **Cut 25bps 10.0%**; Hike 25bps 51.5%; Hold 16.0%. Closes 2026-12-15 15:00 UTC.
2. **Fed decision in January 2027?** (KXFEDDECISION-27JAN, Economics) [2]: Hike 25bps 40.0%; Hold 60.0%. Closes 2027-01-27 15:00 UTC.

Prices are the mid of the best bid and ask (or the last trade), read as probabilities.
`,
  citations: [
    { order: 1, name: 'Kalshi: Fed decision in December 2026?', url: 'https://kalshi.com/a' },
    { order: 2, name: 'Kalshi: Fed decision in January 2027?', url: 'https://kalshi.com/b' },
  ],
};

const markers = (a: Answer) => [...new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();

describe('restatedAsInstructed: the router\'s answers in a form the instructions ask', () => {
  it('says a listing in one sentence, its citations renumbered to those it keeps', () => {
    const said = restatedAsInstructed(LISTING, sentence, 'fed odds')!;
    // (One sentence, the time of its prices under it.)
    expect(said.text.trim().split('\n\n')).toEqual([expect.any(String), '_Kalshi prices as of 2026-11-19 15:00 UTC._']);
    expect(said.text).toMatch(/^On Kalshi's “Fed decision in December 2026\?” market, traders put about 10% on “Cut 25bps” \[1\]/);
    expect(markers(said)).toEqual(said.citations.map((c) => c.order));
  });

  it('says it as bullet points, a claim a line', () => {
    const said = restatedAsInstructed(LISTING, bullets, 'fed odds')!;
    const lines = said.text.trim().split('\n\n')[0]!.split('\n');
    expect(lines.length).toBe(2);
    expect(said.text).toMatch(/\n\n_Kalshi prices as of 2026-11-19 15:00 UTC\._\n$/);
    for (const l of lines) expect(l).toMatch(/^- On Kalshi's “Fed decision in (?:December 2026|January 2027)\?” market, .*\[\d\]\.$/);
    expect(said.citations.map((c) => c.url)).toEqual(['https://kalshi.com/a', 'https://kalshi.com/b']);
  });

  it('says it in plain words', () => {
    expect(restatedAsInstructed(LISTING, simple, 'fed odds')!.text).toMatch(/^Put simply: /);
  });

  it('leaves the answer as it is when it cannot, or need not, restate it', () => {
    // No form of its own for "just the number" or a table.
    expect(restatedAsInstructed(LISTING, number, 'fed odds')).toBeNull();
    // The question asks a form of its own.
    expect(restatedAsInstructed(LISTING, sentence, 'fed odds, explain like I\'m 12')).toBeNull();
    expect(restatedAsInstructed(LISTING, bullets, 'fed odds as a table')).toBeNull();
    // Already one sentence (a filings answer its agent said so), its data note under it.
    const one: Answer = { text: 'In fiscal Q3 2024 (quarter ended 2024-06-29), Apple Inc.\'s revenue was $85.8 billion [1].\n\n_Data: demo snapshot recorded 2025-05-15; figures are illustrative._\n', citations: [{ order: 1, name: 'Apple 10-Q', url: 'https://x' }] };
    expect(restatedAsInstructed(one, sentence, 'apple revenue q3 2024')).toBeNull();
    // A table of figures or a company's figures: the filings agents' own.
    expect(restatedAsInstructed({ text: '| Company | Figure | Period | Value |\n|---|---|---|---|\n| Apple | Revenue | Q3 | $1 [1] |\n', citations: one.citations }, sentence, 'apple revenue by quarter')).toBeNull();
    expect(restatedAsInstructed({ text: '**Apple Inc. (AAPL)**: revenue was **$85,777 million** [1].\n\n- Source: page 3 [1].\n', citations: one.citations }, sentence, 'apple revenue')).toBeNull();
    // Help or a refusal, with no sources, is said whole.
    expect(restatedAsInstructed({ text: 'I answer financial research questions, with numbered sources. For example:\n\n- a\n- b\n', citations: [] }, sentence, 'hi')).toBeNull();
  });
});
