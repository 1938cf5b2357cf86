import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restatedAsInstructed } from '../../../src/agents/router/instructed.js';
import type { Answer } from '../../../src/agents/types.js';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// A form asked in instructions ("Reply with just the number.", "Answer as a table.") applied to
// odds: a report follow-up's outcome, a search's listing; a whole report keeps its own form.

const number = { form: 'number', one: false } as const;
const table = { form: 'table', one: false } as const;

const FOLLOW_UP: Answer = {
  text: `- **Hike 25bps**: market 51.5% (mid; 46.6% normalised), model 50.8%, gap +4.2 pts [3]

_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC), as of 2026-11-19 15:00 UTC; ask for the event's address again for the whole report._
`,
  citations: [
    { order: 1, name: 'Kalshi: event', url: 'https://kalshi.com/e' },
    { order: 2, name: 'Kalshi: history', url: 'https://kalshi.com/h' },
    { order: 3, name: 'Kalshi: KXFEDDECISION-26DEC-D', url: 'https://kalshi.com/d' },
  ],
};

const LISTING: Answer = {
  text: `Open Kalshi events matching “odds of a Fed cut”, with current prices (as of 2026-11-19 15:00 UTC):

1. **Fed decision in December 2026?** (KXFEDDECISION-26DEC, Economics) [1]: **Cut more than 25bps 33.0%**; **Cut 25bps 10.0%**; Hike 25bps 51.5%; Hold 16.0%. Closes 2026-12-15 15:00 UTC. Together, “Cut more than 25bps” and “Cut 25bps”: about 43.0% (38.9% normalised).

Prices are the mid of the best bid and ask (or the last trade), read as probabilities. For a research report with the model probability of each outcome, send an event address to \`svc-prediction-markets-agent\` (3 credits).
`,
  citations: [{ order: 1, name: 'Kalshi: Fed decision in December 2026?', url: 'https://kalshi.com/a' }],
};

describe('odds in the form instructions ask', () => {
  it('"just the number": the one outcome\'s price with its citation, the note on its data kept without the advice', () => {
    const said = restatedAsInstructed(FOLLOW_UP, number, 'what are the odds of a hike?')!;
    expect(said.text).toBe('**51.5%** (the Kalshi market price of “Hike 25bps”) [1]\n\n_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC), as of 2026-11-19 15:00 UTC._\n');
    expect(said.citations).toEqual([{ order: 1, name: 'Kalshi: KXFEDDECISION-26DEC-D', url: 'https://kalshi.com/d' }]);
  });

  it('"a table": a row an outcome, the columns the answer gives', () => {
    const said = restatedAsInstructed(FOLLOW_UP, table, 'what are the odds of a hike?')!;
    expect(said.text.split('\n').slice(0, 3)).toEqual(['| Outcome | Market | Model | Gap |', '|---|---|---|---|', '| Hike 25bps [1] | 51.5% (mid; 46.6% normalised) | 50.8% | +4.2 pts |']);
    expect(said.text).toContain('as of 2026-11-19 15:00 UTC._');
  });

  it('a listing: the total of the outcomes the question named as the number; every outcome as a table, with when it closes', () => {
    const n = restatedAsInstructed(LISTING, number, 'what are the odds of a Fed cut in December?')!;
    expect(n.text).toBe('**43.0%** (the Kalshi prices of “Cut more than 25bps” and “Cut 25bps” together, Fed decision in December 2026?) [1]\n\n_Kalshi prices as of 2026-11-19 15:00 UTC._\n');
    const t = restatedAsInstructed(LISTING, table, 'what are the odds of a Fed cut in December?')!;
    expect(t.text).toContain('| Outcome | Price |\n|---|---|\n| Cut more than 25bps [1] | 33.0% |\n| Cut 25bps [1] | 10.0% |\n| Hike 25bps [1] | 51.5% |\n| Hold [1] | 16.0% |');
    expect(t.text).toContain('_Closes 2026-12-15 15:00 UTC._');
    expect(t.text).not.toMatch(/send an event address|Together/);
  });

  it('an answer with no number or table of odds is left as it is', () => {
    const moves: Answer = { text: '- **Price move, Hike 25bps:** −0.5 pts over 24 hours, −7.5 pts over 7 days [1].\n\n_From the stored report on **X** (X-1), as of 2026-11-19 15:00 UTC._\n', citations: FOLLOW_UP.citations };
    expect(restatedAsInstructed(moves, number, 'how did the market move?')).toBeNull();
    const four: Answer = { text: `${['A 10.0%', 'B 20.0%'].map((o, i) => `- **${o.split(' ')[0]}**: market ${o.split(' ')[1]}, model 1${i}.0% [${i + 1}]`).join('\n')}\n`, citations: FOLLOW_UP.citations.slice(0, 2) };
    // Two outcomes and neither named: no one number (a table of both, though).
    expect(restatedAsInstructed(four, number, 'odds?')).toBeNull();
    expect(restatedAsInstructed(four, table, 'odds?')!.text).toContain('| B [2] | 20.0% | 11.0% |');
  });
});

describe('a report thread on the demo service, with the form in a system message', () => {
  let demo: DemoThreads;
  const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
  beforeAll(async () => {
    demo = await startDemoThreads();
  });
  afterAll(() => demo.svc.close());

  const ask = async (system: string, question: string) => {
    const report = await demo.reportOf(FED);
    const c = await demo.client.chat.completions.create({
      model: 'svc-agent',
      messages: [{ role: 'system', content: system }, { role: 'user', content: FED }, { role: 'assistant', content: report }, { role: 'user', content: question }],
    });
    return { text: c.choices[0]!.message.content!, citations: (c.choices[0] as unknown as { citations: { name: string }[] }).citations };
  };

  it('"just the number" then "what are the odds of a hike?": the percentage with its citation', async () => {
    const { text, citations } = await ask('Answer with just the number.', 'what are the odds of a hike?');
    expect(text.split('\n')[0]).toBe('**51.5%** (the Kalshi market price of “Hike 25bps”) [1]');
    expect(citations.map((c) => c.name)).toHaveLength(1);
    expect(citations[0]!.name).toMatch(/KXFEDDECISION-26DEC-D|Hike 25bps/);
  });

  it('"as a table": a table of the outcome', async () => {
    const { text } = await ask('Answer as a table.', 'what are the odds of a hike?');
    expect(text).toMatch(/^\| Outcome \| Market \| Model \| Gap \|\n\|---\|---\|---\|---\|\n\| Hike 25bps \[1\] \| 51\.5% \(mid; 46\.6% normalised\) \| 50\.8% \| \+4\.2 pts \|/);
  });

  it('the whole report asked again under "just the number" is the report, unchanged', async () => {
    const report = await demo.reportOf(FED);
    const r = await demo.client.responses.create({ model: 'svc-prediction-markets-agent:cache', instructions: 'Answer with just the number.', input: FED });
    expect(r.output_text).toBe(report);
  });
});
