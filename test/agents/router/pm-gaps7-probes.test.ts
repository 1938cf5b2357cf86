import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Follow-ups a trader types in report threads, found by probing: "should" misspelt, the outlook,
// a stake sized with a bare bankroll, two outcomes compared with "compare … and …", a game's two
// sides set against each other.

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
const CPI = 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec';
const NYC = 'https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20';
const ETH = 'https://kalshi.com/markets/kxethd/eth/kxethd-26nov20';
const BTC = 'https://kalshi.com/markets/kxbtcd/btc/kxbtcd-26nov20';
const NBA = 'https://kalshi.com/markets/kxnbagame/nba-game/kxnbagame-26nov21lalbos';
const NFL = 'https://kalshi.com/markets/kxnflgame/nfl/kxnflgame-26nov23bufkc';

const NOT_READ = /^I cannot answer that from what I read/;

describe('chat spellings and the outlook', () => {
  it('"shuld i buy above 3.0 no" is the trade on NO, as "should" is; "shoud i buy it" too', async () => {
    const ask = await demo.thread(CPI);
    expect(await ask('shuld i buy above 3.0 no')).toMatch(/^- \*\*Above 3\.0\*\* \(KXCPIYOY-26DEC-T3\.0\)[^\n]*Buying NO at \$0\.14 against the model's 26\.6%: expected value \+\$0\.126 per \$1 contract/);
    expect(await ask('shoud i buy it')).toMatch(/Buying NO at \$0\.14 against the model's 26\.6%/);
  });

  it('"hows it looking for tmrw", "whats the outlook" are the report\'s summary, not a refusal', async () => {
    const ask = await demo.thread(NYC);
    const looking = await ask('hows it looking for tmrw');
    expect(looking).not.toMatch(NOT_READ);
    expect(looking).toMatch(/^\*\*Highest temperature in NYC on November 20, 2026\?\*\*: the market's favourite is \*\*56°F or above\*\* at 43\.0%/);
    expect(await ask('whats the outlook')).toMatch(/^\*\*Highest temperature in NYC on November 20, 2026\?\*\*: the market's favourite is/);
  });
});

describe('a stake sized on a bankroll said bare', () => {
  it('"size it for 500" after the best value sizes that trade on $500; "how much on it with 1k" on $1,000', async () => {
    const ask = await demo.thread(NYC);
    await ask('which is the best value');
    const sized = await ask('size it for 500');
    expect(sized).not.toMatch(NOT_READ);
    expect(sized).toMatch(/^On the model, the trade to size is \*\*NO on 48°F to 51°F\*\* at \$0\.69[^\n]*On \$500: \$83\.87 \(121 contracts at \$0\.69\) at full Kelly/);
    const crypto = await demo.thread(ETH, BTC);
    await crypto('which is more mispriced');
    await crypto('and whats its best trade');
    expect(await crypto('how much on it with 1k')).toMatch(/^On the model, the trade to size is \*\*YES on Above \$3,400\*\* at \$0\.67[^\n]*On \$1,000: \$233\.33 \(348 contracts at \$0\.67\)/);
  });
});

describe('two outcomes compared', () => {
  it('"compare hold with cut 25" weighs both, as "hold vs cut 25?" does', async () => {
    const ask = await demo.thread(FED);
    const compared = await ask('compare hold with cut 25');
    expect(compared).toMatch(/^\*\*Hold\*\* is ahead of \*\*Cut 25bps\*\* on both the market and the model\.\n\n- \*\*Hold\*\*: market 16\.0%[^\n]*\n- \*\*Cut 25bps\*\*: market 10\.0%/);
    expect(await ask('compare hike and hold')).toMatch(/^\*\*Hike 25bps\*\* is ahead of \*\*Hold\*\*/);
  });
});

describe("a game's two sides set against each other", () => {
  it('"lakers or celtics?" is the model\'s pick, not the whole report', async () => {
    const nba = await demo.thread(NBA);
    const pick = await nba('lakers or celtics?');
    expect(pick).toMatch(/^The model favours \*\*Away team \(Lakers\)\*\* at 66\.8%; the market prices it at 62\.5%/);
    expect(pick).not.toContain('## Key takeaway');
    const nfl = await demo.thread(NFL);
    expect(await nfl('bills or chiefs')).toMatch(/^The model favours \*\*Home team \(Chiefs\)\*\* at 64\.0%/);
    // (Two of several outcomes with "or" are still those two.)
    expect(await (await demo.thread(FED))('hike or hold?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%[^\n]*\n- \*\*Hike 25bps\*\*/);
  });
});

const SEA_ICE = 'https://kalshi.com/markets/kxseaice/sea-ice/kxseaice-26dec';
const SPACEX = 'https://kalshi.com/markets/kxspacex/spacex/kxspacex-26nov24';

describe('"why is that?" after an answer about one outcome', () => {
  it('is why that outcome is priced where it is, not the whole report', async () => {
    const ask = await demo.thread(SEA_ICE, SPACEX);
    await ask('whats the ice favourite');
    await ask('and spacex?');
    const why = await ask('why is that');
    expect(why).toMatch(/^\*\*2 or fewer\*\* is priced at 42\.0% \(mid; 35\.8% normalised\); the model, which weighs the series' record against the price, gives 32\.0%/);
    expect(why).not.toContain('## Key takeaway');
    const fed = await demo.thread(FED);
    await fed('odds of hold');
    expect(await fed('whys that')).toMatch(/^\*\*Hold\*\* is priced at 16\.0%/);
  });
});

const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/shutdown/kxshutdown-26dec31';

describe('a price judged too high or too low', () => {
  it('"is hike too high", "is hold priced too low", "is 58 too high" (one contract) are the model\'s verdict, not a line or a refusal', async () => {
    const ask = await demo.thread(FED);
    expect(await ask('is hike too high')).toMatch(/^\*\*Yes\*\*: on the model, \*\*Hike 25bps\*\* is dear: the model gives 50\.8% against a market price of 51\.5%/);
    expect(await ask('is hold priced too low')).toMatch(/^\*\*No\*\*: on the model, \*\*Hold\*\* is dear: the model gives 12\.4% against a market price of 16\.0%/);
    const shut = await demo.thread(SHUTDOWN);
    const judged = await shut('is 58 too high');
    expect(judged).not.toMatch(NOT_READ);
    expect(judged).toMatch(/^\*\*Yes\*\*: on the model, \*\*Shutdown\*\* is dear: the model gives 56\.1% against a market price of 58\.0%/);
  });
});

describe('another outcome said alone, in a one-report thread', () => {
  it('"and the bills?" after a payout or EV on the chiefs asks that again of the Bills; "and hold?" after a spread on cut 25 is its spread', async () => {
    const ask = await demo.thread(NFL);
    await ask('whats the payout if i put 100 on the chiefs');
    const bills = await ask('and the bills?');
    expect(bills).toMatch(/^- \*\*Away team \(Bills\)\*\* \(KXNFLGAME-26NOV23BUFKC-B\)[^\n]*\$100 buys 256 YES contracts at \$0\.39/);
    await ask('ev of 100 yes on the chiefs');
    expect(await ask('and the bills?')).toMatch(/^- \*\*Away team \(Bills\)\*\* \(KXNFLGAME-26NOV23BUFKC-B\)[^\n]*100 YES contracts at \$0\.39 cost \$39/);
    const fed = await demo.thread(FED);
    await fed('spread on cut 25');
    expect(await fed('and hold?')).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\): bid \$0\.14, ask \$0\.18, spread \$0\.04/);
    await fed('odds of cut 25bps?');
    expect(await fed('and hold?')).toMatch(/^- \*\*Hold\*\*: market 16\.0% \(mid; 14\.5% normalised\), model 12\.4%/);
  });
});

describe('the most the book is good for', () => {
  it('"whats the max i can buy at the ask on hike" is the size offered at the ask, not only the quote', async () => {
    const ask = await demo.thread(FED);
    expect(await ask('whats the max i can buy at the ask on hike')).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\)[^\n]*493\.5 YES contracts are offered at the ask, \$0\.52 \(\$256\.62 in all\)/);
    expect(await ask('most i can sell at the bid on hold?')).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\)[^\n]*the other side of the 1,558 YES bid at \$0\.14/);
  });
});
