import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restatedAsInstructed } from '../../../src/agents/router/instructed.js';
import { restated } from '../../../src/agents/router/restate.js';
import type { Answer } from '../../../src/agents/types.js';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// "Answer in one sentence." over a report follow-up said as a list item is that item as prose (not a
// bullet left as it was, nor the caveat under it); a summary asked first over a table of periods is
// one short sentence, not every figure's range.

const sentence = { form: 'sentence', one: false } as const;
const NOTE = '_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC), as of 2026-11-19 15:00 UTC; ask for the event\'s address again for the whole report._';
const cite = (n: number) => Array.from({ length: n }, (_, i) => ({ order: i + 1, name: `Kalshi ${i + 1}`, url: `https://kalshi.com/${i + 1}` }));

describe('one sentence of an answer said as a list', () => {
  it('a one-line bullet is said as prose, its note kept under it', () => {
    const answer: Answer = { text: `- **Hold** (KXFEDDECISION-26DEC-C): bid $0.14, ask $0.18, spread $0.04, last $0.16; volume 111,535, open interest 73,654 [1].\n\n${NOTE}\n`, citations: cite(1) };
    const said = restatedAsInstructed(answer, sentence, "what's the spread on hold?")!;
    expect(said.text).toMatch(/^Hold \(KXFEDDECISION-26DEC-C\): bid \$0\.14, ask \$0\.18, spread \$0\.04, last \$0\.16; volume 111,535, open interest 73,654 \[1\]\.\n/);
    expect(said.text).toContain('_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC), as of 2026-11-19 15:00 UTC._');
    expect(said.citations).toEqual(cite(1));
    // The same as a numbered item, or a "*" bullet.
    for (const marker of ['1.', '*']) {
      const text = `${marker} **Trading closes** 2026-12-15 15:00 UTC (in 26 days) [1].\n`;
      expect(restatedAsInstructed({ text, citations: cite(1) }, sentence, 'when does it close?')!.text).toBe('Trading closes 2026-12-15 15:00 UTC (in 26 days) [1].\n');
    }
  });

  it('an item after the line leading into it, not the uncited caveat under it', () => {
    const text = `Yes, on the report's quotes:\n\n- NO on every outcome at 1 minus its YES bid: $2.95 for at least $3, 5¢ locked in before fees [1][2]. The best prices are good for 341 sets.\n\nOn the report's quotes, which move; Kalshi's fees take part of any edge.\n\n${NOTE}\n`;
    const said = restatedAsInstructed({ text, citations: cite(2) }, sentence, 'is there an arbitrage?')!;
    expect(said.text.split('\n')[0]).toBe("Yes, on the report's quotes, NO on every outcome at 1 minus its YES bid: $2.95 for at least $3, 5¢ locked in before fees [1][2]; the best prices are good for 341 sets.");
    const ev = `- **Hold** (KXFEDDECISION-26DEC-C): bid $0.14, ask $0.18 [1]. Buying YES at $0.18 against the model's 12.4%: expected value −$0.056 per $1 contract before fees.\n\nThis is the model's arithmetic on the report's prices, not investment advice.\n`;
    expect(restatedAsInstructed({ text: ev, citations: cite(1) }, sentence, 'ev of buying hold?')!.text.split('\n')[0]).toBe("Hold (KXFEDDECISION-26DEC-C): bid $0.14, ask $0.18 [1]; buying YES at $0.18 against the model's 12.4%: expected value −$0.056 per $1 contract before fees.");
  });

  it('a list of several such items is said as one (instructed-lists6.test.ts), never its caveat alone', () => {
    const text = `What could move it:\n\n- **Trading closes** 2026-12-15 [1].\n- **Price move, Hold:** −7.5 pts over 7 days [2].\n\nIt reads prices, not news.\n`;
    expect(restatedAsInstructed({ text, citations: cite(2) }, sentence, 'key catalysts?')!.text.split('\n')[0]).toBe('What could move it: Trading closes 2026-12-15 [1]; Price move, Hold: −7.5 pts over 7 days [2].');
    // Prose before the list is its answer, though it cites nothing.
    const none = `No arbitrage on the report's quotes: YES on every outcome costs $1.02 at the asks.\n\n- **Celtics**: bid $0.38, ask $0.39 [1].\n- **Lakers**: bid $0.62, ask $0.63 [2].\n\nOn the report's quotes, which move.\n`;
    expect(restatedAsInstructed({ text: none, citations: cite(2) }, sentence, 'is there an arbitrage?')!.text.split('\n')[0]).toBe("No arbitrage on the report's quotes: YES on every outcome costs $1.02 at the asks.");
  });
});

describe('one short sentence of a table of periods', () => {
  const TABLE: Answer = {
    text: `### Apple Inc. (AAPL), by fiscal quarter

| | Q3 FY2024 [1] | Q4 FY2024 [2][1] | Q1 FY2025 [3] | Q2 FY2025 [4] |
|---|---:|---:|---:|---:|
| **Revenue** ($ million) | 85,777 | 94,930† | 124,300 | 95,359 |
| ↳ year over year | +4.9% | +6.1% | +4.0% | +5.1% |
| **Net income** ($ million) | 21,448 | 14,736† | 36,330 | 24,780 |
| **Operating income** ($ million) | 25,352 | 29,591† | 42,832 | 29,589 |

Data: demo snapshot.
`,
    citations: cite(4),
  };

  it('its first two figures from the first period to the latest', () => {
    expect(restated(TABLE, 'sentence')!.text.split('\n')[0]).toBe("Apple Inc.'s revenue went from $85.8 billion in Q3 FY2024 to $95.4 billion in Q2 FY2025, and its net income from $21.4 billion to $24.8 billion [1][2].");
    // (Its sources renumbered to those it cites: the first period's and the latest's.)
    expect(restated(TABLE, 'sentence')!.citations.map((c) => c.url)).toEqual(['https://kalshi.com/1', 'https://kalshi.com/4']);
  });

  it('a margin under its figure, a figure a share, an acronym kept', () => {
    const margin: Answer = { text: `### Apple Inc. (AAPL)\n\n| | Q3 FY2024 [1] | Q2 FY2025 [2] |\n|---|---:|---:|\n| **Gross profit** ($ million) | 39,678 | 44,867 |\n| ↳ gross margin (% of revenue) | 46.3% | 47.1% |\n`, citations: cite(2) };
    expect(restated(margin, 'sentence')!.text.split('\n')[0]).toBe("Apple Inc.'s gross profit went from $39.7 billion in Q3 FY2024 to $44.9 billion in Q2 FY2025 (gross margin 46.3% to 47.1%) [1][2].");
    const eps: Answer = { text: `### Microsoft Corp. (MSFT)\n\n| | Q2 FY2024 [1] | Q3 FY2025 [2] |\n|---|---:|---:|\n| **Diluted EPS** ($ per share) | 2.93 | 3.46 |\n`, citations: cite(2) };
    expect(restated(eps, 'sentence')!.text.split('\n')[0]).toBe("Microsoft Corp.'s diluted EPS went from $2.93 a share in Q2 FY2024 to $3.46 a share in Q3 FY2025 [1][2].");
  });
});

describe('on the demo service', () => {
  let demo: DemoThreads;
  const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
  beforeAll(async () => {
    demo = await startDemoThreads();
  });
  afterAll(() => demo.svc.close());

  it('"Answer in one sentence." on report follow-ups: plain prose, no bullet, no caveat alone', async () => {
    const report = await demo.reportOf(FED);
    const ask = async (question: string, instructions: string) =>
      (await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'system', content: instructions }, { role: 'user', content: FED }, { role: 'assistant', content: report }, { role: 'user', content: question }] })).choices[0]!.message.content!;
    for (const [question, instructions] of [["what's the spread on hold?", 'Answer in one sentence.'], ['when does it close?', 'Reply in a single sentence.'], ['volume on hike?', 'Keep every answer to one line.']] as const) {
      const first = (await ask(question, instructions)).split('\n')[0]!;
      expect(first).not.toMatch(/^[-*•]\s/);
      expect(first).toMatch(/\[1\]\.$/);
    }
    const arb = (await ask('is there an arbitrage?', 'Answer in one sentence.')).split('\n')[0]!;
    expect(arb).toMatch(/^Yes, on the report's quotes, NO on every outcome at 1 minus its YES bid: \$[\d.]+ for at least \$\d/);
  });

  it('"Start with a one-sentence summary." over a table of 8 quarters: one short sentence, then the table', async () => {
    const input = 'Microsoft revenue and net income for the last 8 quarters';
    const plain = (await demo.client.responses.create({ model: 'svc-agent', input })).output_text;
    for (const instructions of ['Start with a one-sentence summary.', 'Begin with a brief summary.']) {
      const led = (await demo.client.responses.create({ model: 'svc-agent', input, instructions })).output_text;
      const [first] = led.split('\n\n');
      expect(first).toBe("In short: Microsoft Corp.'s revenue went from $56.2 billion (derived) in Q4 FY2023 to $70.1 billion in Q3 FY2025, and its net income from $20.1 billion (derived) to $25.8 billion [1][2][9].");
      expect(first!.length).toBeLessThan(200);
      expect(led.endsWith(plain)).toBe(true);
    }
  });
});
