import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const BOX_OFFICE = 'https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22';
const NBA = 'https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos';
const BTC = 'https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20';
const NYC = 'https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20';
const APPROVAL = 'https://kalshi.com/markets/kxapproval/presidential-approval-rating/kxapproval-26nov27';
const SEA_ICE = 'https://kalshi.com/markets/kxseaice/arctic-sea-ice-extent/kxseaice-26dec';
const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
const PAYROLLS = 'https://kalshi.com/markets/kxpayrolls/nonfarm-payrolls/kxpayrolls-26dec';
const AI = 'https://kalshi.com/markets/kxaimodel/frontier-ai-model-release/kxaimodel-26dec19';

describe('report threads on sports, box office and crypto events (a lead probe)', () => {
  it("'is there any value here?' with every YES above the model names the NO side's value and the lock across outcomes", async () => {
    const box = await demo.thread(BOX_OFFICE);
    const text = await box('is there any value here?');
    expect(text).toMatch(/^On the model, no outcome is underpriced at its price/);
    // NO on Above $80M at 1 − $0.20 = $0.80 against 1 − 15.9% = 84.1%: +$0.041.
    expect(text).toContain('The value the model finds is on the other side: **NO on Above $80M** at $0.80 against the model\'s 84.1%: expected value +$0.041 per $1 contract');
    // NO on all five at 1 minus each bid: 0.41 + 0.84 + 0.90 + 0.93 + 0.80 = $3.88 for $4.
    expect(text).toMatch(/And the quotes lock in a profit across outcomes:\n\n- NO on every outcome at 1 minus its YES bid: \$3\.88 for at least \$4/);
  });

  it("'what would X need to be priced at to be worth it?' gives the model's fair price and where each side has value", async () => {
    const game = await demo.thread(NBA);
    const text = await game('what would the celtics need to be priced at for a bet to be worth it?');
    expect(text).toMatch(/^- \*\*Home team \(Celtics\)\*\* \(KXNBAGAME-26NOV21LALBOS-A\)/);
    expect(text).toContain('Fair price on the model: **$0.332** (its 33.2%); YES has value below that (it is $0.39 at the ask now), and NO below $0.668 (NO costs $0.62 now, below that), before fees.');
    const box = await demo.thread(BOX_OFFICE);
    expect(await box('fair price for above 80m?')).toContain('Fair price on the model: **$0.159** (its 15.9%); YES has value below that (it is $0.22 at the ask now)');
  });

  it("'which movie is this?' / 'what teams are playing?' give the event's title and its rules, not the whole report", async () => {
    const box = await demo.thread(BOX_OFFICE);
    const movie = await box('which movie is this?');
    expect(movie).toMatch(/^The event is \*\*Top film's domestic opening weekend, November 22, 2026\?\*\*; as its rules put it:\n\n- \*\*How it resolves\*\*[^\n]*weekend's top new release/);
    expect(movie).not.toContain('## Outcomes');
    const game = await demo.thread(NBA);
    expect(await game('what teams are playing?')).toMatch(/^The event is \*\*Lakers at Celtics on November 21, 2026: winner\?\*\*/);
  });

  it("'has the market been right lately?' leads with the favourite's record, then the last five events", async () => {
    const box = await demo.thread(BOX_OFFICE);
    const text = await box('has the market been right lately?');
    expect(text).toMatch(/^\*\*Market accuracy:\*\* the favourite 24 h before close won 6 of 12 events/);
    expect(text).toContain('The last five:');
    expect(text).toContain('| KXBOXOFFICE-26OCT15 | 2026-10-15 | $20M to $40M | 22.0% |');
    expect(text).not.toContain('KXBOXOFFICE-26OCT08');
  });

  it("'the most likely bucket' and 'the longshot' are the market's two ends, not every outcome", async () => {
    const box = await demo.thread(BOX_OFFICE);
    const likely = await box('how much would I make if I buy the most likely bucket and it hits?');
    expect(likely).toMatch(/^The market's favourite is \*\*Below \$20M\*\* at 60\.0%/);
    expect(likely).toContain('$0.39 profit per contract before fees');
    expect(likely).not.toContain('$20M to $40M');
    const fresh = await demo.thread(BOX_OFFICE);
    expect(await fresh('how much would I make if I buy the longshot and it hits?')).toMatch(/^The market's least likely outcome is \*\*\$60M to \$80M\*\* at 8\.0%[^]*\$0\.91 profit per contract/);
  });

  it("an expected price asked of a ladder says none follows from open-ended ranges, and gives the median and bands", async () => {
    const btc = await demo.thread(BTC);
    const text = await btc('expected btc price according to the model?');
    expect(text).toMatch(/^No expected value can be taken from this ladder: its lowest and highest ranges have no outer bound/);
    expect(text).toContain('The most likely range is **up to $92,000**');
    expect(await btc("what's the market's median btc price?")).toMatch(/^The most likely range is \*\*up to \$92,000\*\*/);
  });

  it("'summarize in 2 sentences' is two sentences, the close kept last; 'which labs are in this?' is the event's rules", async () => {
    const ai = await demo.thread(AI);
    const two = await ai('summarize in 2 sentences');
    expect(two.split('\n')[0]).toBe('**New frontier model from a top-3 lab by December 2026?**: the market gives **Release** 37.0% (mid), the model 36.1% [1]. Trading closes 2026-12-19 15:00 UTC (in 30 days) [2].');
    const three = await ai('summarize in three sentences');
    // (The takeaway of one contract repeats the lead's figures: only that they agree is said.)
    expect(three.split('\n')[0]).toMatch(/the model 36\.1% \[1\]\. Model and market agree within 2 points\. Trading closes 2026-12-19/);
    expect(await ai('which labs are in this?')).toMatch(/^The event is \*\*New frontier model from a top-3 lab by December 2026\?\*\*; as its rules put it:\n\n[^\n]*OpenAI, Anthropic or Google DeepMind/);
  });

  it("'what's the forecast?' and 'what temperature does the model expect?' are the expected level and median, not the report or the favourite", async () => {
    const nyc = await demo.thread(NYC);
    for (const q of ["what's the forecast?", 'what temperature does the model expect?']) {
      const text = await nyc(q);
      expect(text, q).toMatch(/^On the market's prices, normalised to add up to 100%, the expected value is about \*\*51\.4°F\*\* and the median outcome \*\*52°F to 55°F\*\*; on the model, about \*\*51\.6°F\*\*/);
      expect(text, q).not.toContain('## Outcomes');
    }
  });

  it("'which poll average?' is the rules' source, not an outside poll refused; 'where is approval now?' says the figure is not read and gives what the market expects", async () => {
    const approval = await demo.thread(APPROVAL);
    const poll = await approval('which poll average?');
    expect(poll).toMatch(/^- \*\*How it resolves\*\*[^\n]*approval average published at 10:00 AM ET/);
    expect(poll).toContain('- **Resolution source:** RealClearPolitics average [');
    expect(poll).not.toContain('I cannot answer that');
    expect(await approval('whose approval rating?')).toMatch(/^The event is \*\*Presidential approval on November 27, 2026\?\*\*/);
    const now = await approval('where is approval now?');
    expect(now).toMatch(/^The figure itself, now, is not among what the report reads \([^\n]*the resolution source is RealClearPolitics average\)\. What the market and the model expect for the event:\n\nOn the market's prices, normalised to add up to 100%, the expected value is about \*\*42\.7%\*\* and the median outcome \*\*42% to 43%\*\*/);
  });

  it("'when is the data released?' is the close and expected resolution; a month of last year, or with its year, is that year's event", async () => {
    const ice = await demo.thread(SEA_ICE);
    expect(await ice('when is the data released?')).toMatch(/^- \*\*Trading closes\*\* 2026-12-01 15:00 UTC \(in 12 days\); expected resolution 2026-12-01 17:00 UTC/);
    // The history has March 2026, not March 2025.
    expect(await ice("how did last year's march resolve?")).toMatch(/^The report's history has no event of the series that closed in March 2025; the latest ones:/);
    expect(await ice('what about march 2026?')).toMatch(/^The March 2026 event of the series, \*\*KXSEAICE-26MAR\*\* \(closed 2026-03-24\)[^\n]*so the result was above 11\.0/);
  });

  it("'what does this mean' after an answer restates it in plain words (was refused as outside what is read)", async () => {
    const fed = await demo.thread(FED);
    expect(await fed('odds of hold?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    const meant = await fed('what does this mean');
    expect(meant).toMatch(/^Put simply: traders put about 16% on “Hold”; the svc model, which also weighs how past events resolved, says about 12% \[1\]\./);
    expect(meant).not.toContain('I cannot answer that');
  });

  it("'why no two sided quote on 0 to 75k?' says which side of the book is empty and what the price shown is instead", async () => {
    const jobs = await demo.thread(PAYROLLS);
    const one = await jobs('why no two sided quote on 0 to 75k?');
    expect(one).toMatch(/^- \*\*0 to 75k\*\*: the order book the report read had no bid and no ask resting at the snapshot; the 41\.0% shown is its last trade, \$0\.41, [^\n]*\[\d\]\. Nothing can be bought or sold at once/);
    expect(one).toContain('Why no one quotes it is not in what the report reads');
    expect(one).not.toContain('Below 0');
    // None named: the outcomes with a side empty, Below 0 and 0 to 75k, not the three quoted.
    const some = await jobs('why are some outcomes missing quotes?');
    expect(some).toMatch(/^- \*\*Below 0\*\*: [^\n]*last trade, \$0\.25[^\n]*\n- \*\*0 to 75k\*\*: /);
    expect(some).not.toContain('75k to 150k');
  });
});
