import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Follow-ups in report threads: the margin of a verdict, an event named by its series ("the ai
// one", "the box office one"), two buckets compared, "why?" of the outcome an answer was about.

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
const CPI = 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec';
const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/shutdown/kxshutdown-26dec31';
const NYC = 'https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20';
const BOX = 'https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22';
const AI = 'https://kalshi.com/markets/kxaimodel/frontier-ai-model-release/kxaimodel-26dec19';
const NFL = 'https://kalshi.com/markets/kxnflgame/nfl/kxnflgame-26nov23bufkc';

describe('"by how much?" after a verdict on whether it happens', () => {
  it('is the margin over 50% on the market and on the model, not the whole report', async () => {
    const ask = await demo.thread(SHUTDOWN);
    expect(await ask('will it happen')).toMatch(/^\*\*Yes\*\*: \*\*Shutdown\*\* is at 58\.0%/);
    const margin = await ask('by how much');
    expect(margin).toMatch(/^\*\*Shutdown\*\* is \*\*8\.0 pts above\*\* even \(50%\) on the market, at 58\.0%; the model, at 56\.1%, puts it \*\*6\.1 pts above\*\* even \(50%\) \[1\]\. The model is 1\.9 pts below the market\.\n\n_From the stored report on \*\*Government shutdown/);
    expect(margin).not.toContain('## Key takeaway');
    // (A verdict the other way: its distance below even.)
    const ai = await demo.thread(AI);
    await ai('is a release likely?');
    expect(await ai('how much less likely?')).toMatch(/^\*\*Release\*\* is \*\*13\.0 pts below\*\* even \(50%\) on the market, at 37\.0%; the model, at 36\.1%, puts it \*\*13\.9 pts below\*\*/);
  });
});

describe('a reported event named by its series ticker\'s words', () => {
  it('"ok and the ai one?" and "the box office one" carry the question before over to that event', async () => {
    const ask = await demo.thread(BOX, AI);
    await ask('whats the favourite');
    expect(await ask('ok and the box office one?')).toMatch(/^The market's favourite is \*\*Below \$20M\*\*[\s\S]*\(KXBOXOFFICE-26NOV22\)/);
    const ai = await ask('ok and the ai one?');
    expect(ai).toMatch(/^This event has one yes\/no contract, \*\*Release\*\*[\s\S]*\(KXAIMODEL-26DEC19\)/);
    expect(ai).not.toContain('Open Kalshi events matching');
  });
});

describe('two buckets compared', () => {
  it('"compare 52-55 and 56 or above" sets both side by side; "48 to 51 vs 56 or above" too', async () => {
    const ask = await demo.thread(NYC);
    const both = await ask('compare 52-55 and 56 or above');
    expect(both).toMatch(/^\*\*52°F to 55°F\*\* is behind \*\*56°F or above\*\* on both the market and the model\.\n\n- \*\*52°F to 55°F\*\*: market 22\.0%[^\n]*\n- \*\*56°F or above\*\*: market 43\.0%/);
    expect(await ask('compare 48 to 51 vs 56 or above')).toMatch(/^\*\*48°F to 51°F\*\* is [^\n]*\*\*56°F or above\*\*[^\n]*\n\n- \*\*48°F to 51°F\*\*: [^\n]*\n- \*\*56°F or above\*\*/);
  });
});

describe('"why?" of the outcome the answer before was about', () => {
  it('after the favourite, "why?" and "why is the model lower" explain that outcome\'s model against its market', async () => {
    const ask = await demo.thread(FED);
    await ask('whats the favourite');
    expect(await ask('why?')).toMatch(/^Why the model gives \*\*Hike 25bps\*\* 50\.8% against a market 51\.5% \(mid; 46\.6% normalised\) \[1\]:\n\n- \*\*The price, stretched:\*\*/);
    expect(await ask('why is the model lower')).toMatch(/^Why the model gives \*\*Hike 25bps\*\* 50\.8%/);
  });

  it('a ladder\'s likeliest range, a game\'s side and a bucket', async () => {
    const cpi = await demo.thread(CPI);
    await cpi('whats the favourite');
    expect(await cpi('why is the model lower')).toMatch(/^Why the model gives \*\*Above 3\.2\*\* 52\.9% against a market 61\.0% \(mid\) \[1\]:/);
    const nfl = await demo.thread(NFL);
    await nfl('who wins?');
    expect(await nfl('why?')).toMatch(/^Why the model gives \*\*Home team \(Chiefs\)\*\* 64\.0% against a market 63\.0%/);
    const nyc = await demo.thread(NYC);
    await nyc('most likely bucket?');
    const why = await nyc('how come the model is higher');
    expect(why).toMatch(/^Why the model gives \*\*56°F or above\*\* 37\.0%/);
    expect(why).not.toContain('**Model probability.**');
  });
});

const PAYROLLS = 'https://kalshi.com/markets/kxpayrolls/payrolls/kxpayrolls-26dec';

describe('"back" as a bet, not as a return', () => {
  it('"back to dollars, spread on hold?" is the book alone, no expected value; "a week back" neither', async () => {
    const ask = await demo.thread(FED);
    await ask('spread on hold in cents');
    const back = await ask('back to dollars, spread on hold?');
    expect(back).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\): bid \$0\.14, ask \$0\.18, spread \$0\.04, last \$0\.16; volume 111,535 \(6,998 in the last 24 hours\), open interest 73,654 \[1\]\.\n\n_From the stored report/);
    expect(back).not.toContain('expected value');
    // (Backing a side is still a bet valued.)
    expect(await ask('should i back hike at the ask?')).toContain('expected value');
  });
});

describe('a hedge asked again', () => {
  it('"how would i hedge this" after a hedge of 200 NO on a one-contract event hedges those 200 NO', async () => {
    const ask = await demo.thread(SHUTDOWN);
    expect(await ask('how do i hedge 200 no')).toMatch(/^To hedge 200 NO contracts on \*\*Shutdown\*\*/);
    expect(await ask('how would i hedge this')).toMatch(/^To hedge 200 NO contracts on \*\*Shutdown\*\* on the report's quotes:\n\n- \*\*Sell them\*\* at the NO bid, 1 minus the YES ask, \$0\.40: \$80 back now/);
    const fed = await demo.thread(FED);
    await fed('hedge 30 no on hold');
    await fed('whats the spread on it');
    expect(await fed('and how would i hedge it')).toMatch(/^To hedge 30 NO contracts on \*\*Hold\*\*/);
  });
});

describe('"which one has more volume?" in a thread on two events', () => {
  it('ranks the two events, not the outcomes of the one discussed last', async () => {
    const ask = await demo.thread(SHUTDOWN, PAYROLLS);
    await ask('whats the shutdown edge?');
    await ask('and payrolls?');
    const volume = await ask('which one has more volume');
    expect(volume).toMatch(/^The busiest open events, by contracts traded in the last 24 hours[^\n]*\n\n1\. \*\*Jobs added in December 2026\?\*\* \(KXPAYROLLS-26DEC\)[^\n]*\n2\. \*\*Government shutdown by December 2026\?\*\* \(KXSHUTDOWN-26DEC31\)/);
    // (The most among one event's contracts is still of them.)
    expect(await ask('which contract has the most volume?')).toMatch(/^\*\*Below 0\*\* has the most volume/);
  });
});

describe('events compared across the reports the user pasted', () => {
  it('"which is the better bet", "which is more mispriced" speak of the reports in this conversation; "that one" is still the one led with', async () => {
    const ask = await demo.thread(FED, CPI);
    expect(await ask('which is the better bet')).toMatch(/^Of the 2 reports in this conversation, the best trade on the model is in \*\*CPI year-over-year in December 2026\?\*\*: \*\*NO on Above 3\.0\*\* at \$0\.14/);
    const gap = await ask('which is more mispriced');
    expect(gap).toMatch(/^Of the 2 reports in this conversation, the largest gap between model and market is in \*\*CPI year-over-year in December 2026\?\*\*: \*\*Above 3\.0\*\*: model 73\.4%, market 86\.5% \(mid\), gap −13\.1 pts \[1\]\./);
    expect(gap).not.toContain('events listed');
    expect(await ask('which closes first?')).toMatch(/^Of the 2 reports in this conversation, \*\*CPI year-over-year in December 2026\?\*\* closes first/);
    expect(await ask('ok for that one, whats the best trade')).toMatch(/^On the model, the best buy at current prices is \*\*NO on Above 3\.0\*\*/);
  });
});

describe('a TL;DR is one sentence', () => {
  it('"<address> tl;dr" and "tldr" in a thread give the one-sentence summary; "bottom line?" keeps the longer one', async () => {
    const r = await demo.payer.responses.create({ model: 'svc-agent', input: 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec tl;dr' });
    expect(r.output_text).toMatch(/^\*\*Fed decision in December 2026\?\*\*: the market's favourite is \*\*Hike 25bps\*\* at 51\.5% \(mid; 46\.6% normalised\), model 50\.8% \[1\]; trading closes 2026-12-15 15:00 UTC \(in 26 days\) \[\d\]\.\n\n_From the stored report/);
    const ask = await demo.thread(SHUTDOWN);
    const tldr = await ask('tldr');
    expect(tldr).toMatch(/^\*\*Government shutdown by December 2026\?\*\*: the market gives \*\*Shutdown\*\* 58\.0% \(mid\), the model 56\.1% \[1\]; trading closes 2026-12-31 15:00 UTC[^\n]*\.\n\n_From/);
    expect(await ask('bottom line?')).toContain('The largest price move of the week');
  });
});

describe('svc-markets-search-agent in a few words', () => {
  it('"fed rate" in 10 words or fewer leads with the odds; a one-contract event too', async () => {
    const fed = await demo.client.responses.create({ model: 'svc-markets-search-agent', input: 'fed rate', instructions: 'In 10 words or fewer.' });
    expect(fed.output_text).toMatch(/^Hike 25bps leads at about 52% \[1\]\.\n/);
    const shutdown = await demo.client.responses.create({ model: 'svc-markets-search-agent', input: 'shutdown odds', instructions: 'In 10 words or fewer.' });
    expect(shutdown.output_text).toMatch(/^Shutdown is at about 58% \[1\]\.\n/);
    // (With room for it, the whole sentence.)
    const long = await demo.client.responses.create({ model: 'svc-markets-search-agent', input: 'fed rate', instructions: 'In 30 words or fewer.' });
    expect(long.output_text).toMatch(/^On Kalshi's “Fed decision in December 2026\?” market, traders see “Hike 25bps” as the likeliest result/);
  });
});
