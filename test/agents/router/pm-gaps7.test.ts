import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Follow-ups in report threads: "that one", another reported event named alone, an outcome said in
// its own words, who wins a game, which of the thread's reports closes first, a unit kept.

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
const CPI = 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec';
const PAYROLLS = 'https://kalshi.com/markets/kxpayrolls/payrolls/kxpayrolls-26dec';
const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/shutdown/kxshutdown-26dec31';
const NFL = 'https://kalshi.com/markets/kxnflgame/nfl/kxnflgame-26nov23bufkc';
const NBA = 'https://kalshi.com/markets/kxnbagame/nba-game/kxnbagame-26nov21lalbos';
const SPACEX = 'https://kalshi.com/markets/kxspacex/spacex/kxspacex-26nov24';

const PAYROLLS_EDGE = /^Model and market agree within 2 points on every outcome; the largest gap is \*\*0 to 75k\*\*[^\n]*\n\n_From the stored report on \*\*Jobs added in December 2026\?\*\*/;
const SHUTDOWN_EDGE = /^Model and market agree within 2 points: the model gives \*\*Shutdown\*\* 56\.1%[^\n]*\n\n_From the stored report on \*\*Government shutdown by December 2026\?\*\*/;

describe('another reported event named alone carries the question before over to it', () => {
  it('"whats the shutdown edge?" then "and payrolls?" is the payrolls edge, not its whole report', async () => {
    const ask = await demo.thread(SHUTDOWN, PAYROLLS);
    expect(await ask('whats the shutdown edge?')).toMatch(SHUTDOWN_EDGE);
    const payrolls = await ask('and payrolls?');
    expect(payrolls).toMatch(PAYROLLS_EDGE);
    expect(payrolls).not.toContain('## Key takeaway');
    expect(await ask('what about the shutdown one')).toMatch(SHUTDOWN_EDGE);
  });

  it('"is payrolls any better?", "same for shutdown" after an edge; "and nfp" after the closing time', async () => {
    const ask = await demo.thread(PAYROLLS, SHUTDOWN);
    expect(await ask('whats the edge?')).toMatch(SHUTDOWN_EDGE);
    expect(await ask('is payrolls any better?')).toMatch(PAYROLLS_EDGE);
    expect(await ask('same for shutdown')).toMatch(SHUTDOWN_EDGE);
    expect(await ask('when does it close')).toMatch(/^- \*\*Trading closes\*\* 2026-12-31 15:00 UTC/);
    expect(await ask('and nfp')).toMatch(/^- \*\*Trading closes\*\* 2026-12-05 15:00 UTC[\s\S]*\(KXPAYROLLS-26DEC\)/);
  });
});

describe('"and that one?" is the thing the answer before was about', () => {
  it('after an answer naming two outcomes, those two, market against model; not the whole report', async () => {
    const ask = await demo.thread(FED, CPI);
    await ask('whats the edge on the fed?');
    const that = await ask('and that one?');
    expect(that).toMatch(/^The answer before named 2 outcomes; each, market against model:\n\n- \*\*Cut more than 25bps\*\*: market 33\.0%[^\n]*\n- \*\*Hike 25bps\*\*: market 51\.5%[^\n]*model 50\.8%/);
    expect(that).not.toContain('## Key takeaway');
  });

  it('after a second event is asked about, that event\'s outcome named; after a whole report, the question before asked of it', async () => {
    const ask = await demo.thread(SHUTDOWN, PAYROLLS);
    await ask('whats the shutdown edge?');
    await ask('and payrolls?');
    expect(await ask('and that one?')).toMatch(/^- \*\*0 to 75k\*\*: market 41\.0% \(last trade; 32\.9% normalised\), model 34\.5%, gap \+1\.6 pts \[1\]\n\n_From the stored report on \*\*Jobs added/);
    // (A whole report given, "that one" is its event: the question before, of it.)
    const again = await demo.thread(SHUTDOWN, PAYROLLS);
    await again('whats the shutdown edge?');
    await again(PAYROLLS);
    expect(await again('what about that one')).toMatch(PAYROLLS_EDGE);
  });

  it('after an answer about no outcome in particular, says it is not clear and lists the outcomes, not the report again', async () => {
    const ask = await demo.thread(NFL);
    await ask('when does it close?');
    const that = await ask('and that one?');
    expect(that).toMatch(/^“That one” is not clear from the answer before, which was about \*\*Bills at Chiefs on November 23, 2026: winner\?\*\* as a whole\. Name the outcome you mean[^\n]*\n\n- \*\*Home team \(Chiefs\)\*\*: market 63\.0%[^\n]*\n- \*\*Away team \(Bills\)\*\*: market 38\.5%/);
    expect(that).not.toContain('## Key takeaway');
  });
});

describe('an outcome asked in its own words', () => {
  it('"odds of 5 or more?" is only its line; "more than 4?" still says which outcome that is', async () => {
    const ask = await demo.thread(SPACEX);
    expect(await ask('odds of 5 or more?')).toMatch(/^- \*\*5 or more\*\*: market 25\.0% \(mid; 21\.3% normalised\), model 22\.6%, gap \+1\.3 pts \[1\]\n\n_From the stored report/);
    expect(await ask('chance of 2 or fewer')).toMatch(/^- \*\*2 or fewer\*\*: market 42\.0%/);
    expect(await ask('more than 4?')).toMatch(/^“more than 4” is \*\*5 or more\*\*: market 21\.3% normalised/);
  });
});

describe('who wins a game', () => {
  it('"who wins the chiefs game?" is the model\'s pick, model against market, whichever team names the game', async () => {
    const ask = await demo.thread(NFL);
    const pick = /^The model favours \*\*Home team \(Chiefs\)\*\* at 64\.0%; the market prices it at 63\.0% \(mid; 62\.1% normalised\), a gap of \+1\.9 pts \[1\]\./;
    expect(await ask('who wins the chiefs game?')).toMatch(pick);
    expect(await ask('who wins the bills game')).toMatch(pick);
    expect(await ask('which team wins?')).toMatch(pick);
    // (The market's favourite asked so is still the market's.)
    expect(await ask('whos the fav in the chiefs game')).toMatch(/^The market's favourite is \*\*Home team \(Chiefs\)\*\* at 63\.0%/);
    const nba = await demo.thread(NBA);
    expect(await nba('who wins the lakers game')).toMatch(/^The model favours \*\*Away team \(Lakers\)\*\* at 66\.8%; the market prices it at 62\.5%/);
  });
});

describe('which of the thread\'s reports closes first', () => {
  it('speaks of the reports in the conversation, not of events listed', async () => {
    const ask = await demo.thread(SHUTDOWN, PAYROLLS);
    expect(await ask('which closes first?')).toMatch(/^Of the 2 reports in this conversation, \*\*Jobs added in December 2026\?\*\* closes first, 2026-12-05 15:00 UTC \[1\]\./);
    expect(await ask('which one closes last')).toMatch(/^Of the 2 reports in this conversation, \*\*Government shutdown by December 2026\?\*\* closes last/);
  });
});

describe('a unit asked for stays', () => {
  it('after "in cents please", later quotes are in cents until dollars are asked for', async () => {
    const ask = await demo.thread(FED);
    expect(await ask('in cents please')).toMatch(/^- \*\*Cut more than 25bps\*\*: 33¢ \(bid 32¢, ask 34¢\)/);
    const spread = await ask('and the spread?');
    expect(spread).toMatch(/^- \*\*Cut more than 25bps\*\* \(KXFEDDECISION-26DEC-A\): bid 32¢, ask 34¢, spread 2¢, last 33¢/);
    expect(spread).not.toContain('$0.');
    expect(await ask('bid on hold?')).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\): bid 14¢, ask 18¢, spread 4¢/);
    expect(await ask('spread on hold in dollars')).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\): bid \$0\.14, ask \$0\.18, spread \$0\.04/);
    expect(await ask('and the spread on hike?')).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\): bid \$0\.51/);
  });
});

describe('how to hedge a position', () => {
  it('"i have 100 yes on hike, how do i hedge?": selling at the bid, NO at 1 minus the bid, YES on the rest, each costed', async () => {
    const ask = await demo.thread(FED);
    const hedge = await ask('i have 100 yes on hike, how do i hedge?');
    expect(hedge).toMatch(/^To hedge 100 YES contracts on \*\*Hike 25bps\*\* on the report's quotes:\n\n- \*\*Sell them\*\* at the YES bid, \$0\.51: \$51 back now/);
    expect(hedge).toContain('- **Buy 100 NO** at 1 minus the YES bid, $0.49: $49; each YES and NO pair then pays $1 whatever happens, so $100 comes back at resolution.');
    expect(hedge).toContain('- **YES on every other outcome** at their asks, $0.64 a set ($64)');
    expect(hedge).toContain('dearer than NO at $0.49');
    // (A hedge said as a trade is still that trade's arithmetic.)
    const pairs = await demo.thread(FED);
    await pairs('if i buy 100 hike yes at the ask whats my EV');
    expect(await pairs('and if i hedge by also buying 100 NO on hike, what do i lock in?')).toMatch(/^No profit is locked in/);
  });

  it('the position said a turn before, or the trade the answer before led with; none named: which', async () => {
    const ask = await demo.thread(SHUTDOWN);
    await ask('i hold 50 no on shutdown');
    expect(await ask('how do i hedge')).toMatch(/^To hedge 50 NO contracts on \*\*Shutdown\*\* on the report's quotes:\n\n- \*\*Sell them\*\* at the NO bid, 1 minus the YES ask, \$0\.40: \$20 back now[^\n]*\n- \*\*Buy 50 YES\*\* at the ask, \$0\.60: \$30/);
    const fed = await demo.thread(FED);
    await fed('whats the best trade');
    expect(await fed('hedge?')).toMatch(/^To hedge one NO contract on \*\*Cut more than 25bps\*\* on the report's quotes:\n\n- \*\*Sell it\*\* at the NO bid, 1 minus the YES ask, \$0\.66/);
    const none = await demo.thread(FED);
    expect(await none('how would i hedge?')).toMatch(/^A hedge offsets a position, and none is named here: say which/);
  });
});
