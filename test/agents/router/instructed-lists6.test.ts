import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formInstructed } from '../../../src/agents/instructions.js';
import { restatedAsInstructed } from '../../../src/agents/router/instructed.js';
import type { Answer } from '../../../src/agents/types.js';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// "Answer in one sentence." over a table of periods is its short summary sentence (not the table),
// on svc-agent and the filings agents; over a list of several items it is one sentence too: the
// items joined when short enough, else the first and how many more, by their labels.

const sentence = { form: 'sentence', one: false } as const;
const cite = (n: number) => Array.from({ length: n }, (_, i) => ({ order: i + 1, name: `Source ${i + 1}`, url: `https://example.com/${i + 1}` }));
const NOTE = '_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC), as of 2026-11-19 15:00 UTC; ask for the event\'s address again for the whole report._';

/** Every [n] in the text has its source, and every source is cited, numbered 1, 2, … */
function consistent(text: string, citations: readonly { order: number }[]) {
  const used = [...new Set((text.match(/\[(\d+)\]/g) ?? []).map((m) => Number(m.slice(1, -1))))].sort((a, b) => a - b);
  expect(used).toEqual(citations.map((c) => c.order).sort((a, b) => a - b));
  expect(used).toEqual(used.map((_, i) => i + 1));
}

describe('a list of several items in one sentence', () => {
  it('short items joined by semicolons, tickers left out, each with its citation', () => {
    const text = `- **Cut** (KXFED-26DEC-A): bid $0.32, ask $0.34, spread $0.02; volume 55,741 [1].\n- **Hold** (KXFED-26DEC-C): bid $0.14, ask $0.18, spread $0.04; volume 111,535 [2].\n\n${NOTE}\n`;
    const said = restatedAsInstructed({ text, citations: cite(2) }, sentence, "what's the spread on each outcome?")!;
    expect(said.text.split('\n')[0]).toBe('Cut: bid $0.32, ask $0.34, spread $0.02 [1]; Hold: bid $0.14, ask $0.18, spread $0.04 [2].');
    expect(said.text).toContain('as of 2026-11-19 15:00 UTC._');
    consistent(said.text, said.citations);
  });

  it('too long to join: the first item and how many more, by label, citing only what it says', () => {
    const long = (label: string, n: number) => `- **${label}:** ${'a long detail about this item, '.repeat(3)}ending here [${n}].`;
    const text = `What could move it (it reads prices, not news):\n\n${long('Trading closes', 1)}\n${long('Price move, Hold', 2)}\n${long('Volume surge, Cut', 3)}\n\n${NOTE}\n`;
    const said = restatedAsInstructed({ text, citations: cite(3) }, sentence, 'what are the key catalysts?')!;
    const first = said.text.split('\n')[0]!;
    expect(first).toMatch(/^What could move it: Trading closes: a long detail about this item, .*ending here \[1\], and 2 more: Price move, Hold; Volume surge, Cut\.$/);
    expect(said.citations.map((c) => c.url)).toEqual(['https://example.com/1']);
    consistent(said.text, said.citations);
  });
});

describe('a number of bullets asked', () => {
  for (const [text, count] of [['Answer in 3 bullets.', 3], ['Use three bullet points.', 3], ['Give me 5 key bullets', 5], ['Use bullet points.', undefined]] as const) {
    it(`${text} → ${count}`, () => expect(formInstructed(text)).toEqual({ form: 'bullets', one: false, ...(count ? { count } : {}) }));
  }

  it('a list longer than asked: its first items, then those left out named, citing only what it keeps', () => {
    const text = `What could move it:\n\n- **Trading closes** 2026-12-15 [1].\n- **Price move, Hold:** −7.5 pts [2].\n- **Volume surge, Cut:** 11,131 contracts [3].\n\n${NOTE}\n`;
    const said = restatedAsInstructed({ text, citations: cite(3) }, { form: 'bullets', one: false, count: 2 }, 'key catalysts?')!;
    expect(said.text).toBe(`What could move it:\n\n- **Trading closes** 2026-12-15 [1].\n- **Price move, Hold:** −7.5 pts [2].\n\n_1 more not shown: Volume surge, Cut._\n\n${NOTE}\n`);
    consistent(said.text, said.citations);
    // As many as it has, or no number asked: the list as it is.
    expect(restatedAsInstructed({ text, citations: cite(3) }, { form: 'bullets', one: false, count: 3 }, 'key catalysts?')).toBeNull();
    expect(restatedAsInstructed({ text, citations: cite(3) }, { form: 'bullets', one: false }, 'key catalysts?')).toBeNull();
  });
});

describe('"N words or fewer" asks one sentence of at most N words', () => {
  for (const [text, words] of [['Answer in 10 words or fewer.', 10], ['Reply in 15 words or less', 15], ['Use 20 words or fewer, please.', 20], ['Keep it under 25 words.', 25]] as const) {
    it(text, () => expect(formInstructed(text)).toEqual({ form: 'sentence', one: false, words }));
  }

  it('a list too long for the words: the first item and how many more, the lead-in left out if need be', () => {
    const text = `What could move it:\n\n- **Trading closes** 2026-12-15 15:00 UTC (in 26 days) [1].\n- **Price move, Hold:** −7.5 pts over 7 days [2].\n- **Volume surge, Cut:** 11,131 contracts in 24 hours [3].\n\n${NOTE}\n`;
    const say = (words?: number) => restatedAsInstructed({ text, citations: cite(3) }, { form: 'sentence', one: false, ...(words ? { words } : {}) }, 'key catalysts?')!;
    expect(say().text.split('\n')[0]).toBe('What could move it: Trading closes 2026-12-15 15:00 UTC (in 26 days) [1]; Price move, Hold: −7.5 pts over 7 days [2]; Volume surge, Cut: 11,131 contracts in 24 hours [3].');
    expect(say(22).text.split('\n')[0]).toBe('What could move it: Trading closes 2026-12-15 15:00 UTC (in 26 days) [1], and 2 more: Price move, Hold; Volume surge, Cut.');
    expect(say(15).text.split('\n')[0]).toBe('What could move it: Trading closes 2026-12-15 15:00 UTC (in 26 days) [1], and 2 more.');
    expect(say(10).text.split('\n')[0]).toBe('Trading closes 2026-12-15 15:00 UTC (in 26 days) [1], and 2 more.');
    consistent(say(10).text, say(10).citations);
  });
});

describe('on the demo service', () => {
  let demo: DemoThreads;
  const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
  const QUARTERS = 'Microsoft revenue and net income for the last 8 quarters';
  const SUMMARY = "Microsoft Corp.'s revenue went from $56.2 billion (derived) in Q4 FY2023 to $70.1 billion in Q3 FY2025, and its net income from $20.1 billion (derived) to $25.8 billion [1][2][3].";
  beforeAll(async () => {
    demo = await startDemoThreads();
  });
  afterAll(() => demo.svc.close());

  it('"Answer in one sentence." over 8 quarters: the summary sentence, its citations those it keeps, on every agent that gives the table', async () => {
    for (const model of ['svc-agent', 'svc-sec-agent']) {
      for (const instructions of ['Answer in one sentence.', 'One line.', 'Keep it under 25 words.']) {
        const r = await demo.client.responses.create({ model, input: QUARTERS, instructions });
        const text = r.output_text;
        // (The sentence is 28 words: under 25, it is cut at its last clause that fits, its markers kept; see instructed-forms7.test.ts.)
        expect(text.split('\n')[0]).toBe(/words/.test(instructions) ? "Microsoft Corp.'s revenue went from $56.2 billion (derived) in Q4 FY2023 to $70.1 billion in Q3 FY2025… [1][2][3]" : SUMMARY);
        expect(text).not.toContain('|');
        expect(text).toContain('_Data: demo snapshot');
        const sources = r.output.flatMap((o) => (o.type === 'message' ? o.content.flatMap((c) => (c.type === 'output_text' ? c.annotations : [])) : []));
        expect(sources.length).toBe(3);
      }
    }
    // Two companies' tables: each in turn, in the one sentence.
    const two = await demo.client.responses.create({ model: 'svc-agent', input: 'Apple vs Microsoft net income last 4 quarters', instructions: 'Answer in one sentence.' });
    expect(two.output_text.split('\n')[0]).toMatch(/^Apple Inc\.'s net income went from \$[\d.]+ billion in Q3 FY2024 to \$[\d.]+ billion in Q2 FY2025 \[1\]\[2\]; Microsoft Corp\.'s net income went from .+ in Q3 FY2025 (?:\[\d\])+\.$/);
    expect(two.output_text).not.toContain('|');
    // A form the question asks itself wins: its table stays a table.
    const table = (await demo.client.responses.create({ model: 'svc-sec-agent', input: `${QUARTERS}, as a table`, instructions: 'Answer in one sentence.' })).output_text;
    expect(table).toContain('| **Revenue**');
  });

  it('"Answer in one sentence." over a report thread\'s lists', async () => {
    const report = await demo.reportOf(FED);
    const ask = async (question: string, instructions: string) => {
      const r = await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'system', content: instructions }, { role: 'user', content: FED }, { role: 'assistant', content: report }, { role: 'user', content: question }] });
      return r.choices[0]!.message.content!;
    };
    const catalysts = await ask('what are the key catalysts?', 'Answer in one sentence.');
    expect(catalysts.split('\n')[0]).toMatch(/^What could move it before the end, from the report: Trading closes 2026-12-15 15:00 UTC \(in 26 days\) \[1\], and 4 more: Price move, Hike 25bps; .+\.$/);
    expect(catalysts).not.toMatch(/^- /m);
    const spreads = (await ask("what's the spread on each outcome?", 'Reply in a single sentence.')).split('\n')[0]!;
    expect(spreads).toMatch(/^Cut more than 25bps: bid \$0\.32, ask \$0\.34, spread \$0\.02, last \$0\.33 \[1\]; Cut 25bps: .+ \[2\]; Hold: .+ \[3\]; Hike 25bps: .+ \[4\]\.$/);
    expect(spreads).not.toContain('KXFEDDECISION-26DEC-');
    // A lead of two sentences: its last leads into the list.
    expect((await ask('what are the risks?', 'Answer in one sentence.')).split('\n')[0]).toMatch(/^The one the model values most at the quotes is NO on Cut more than 25bps; its risk: Price and chance of losing: .+ \[1\], and 4 more: Worst case; Spread; Trading closes; What could flip it \(the rules\)\.$/);
    const three = await ask('what are the key catalysts?', 'Answer in 3 bullets.');
    expect(three.match(/^- /gm)).toHaveLength(3);
    expect(three).toContain('_2 more not shown: Volume surge, Cut 25bps; Could flip the outcome._');
  });
});
