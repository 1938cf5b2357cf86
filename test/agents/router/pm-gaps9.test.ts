import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Follow-ups in report threads: "by how much?" after an outcome's line, a position said alone
// ("i hold 100 yes on hike", "i hold 50 no") and hedged, a team named beside a position, and an
// elliptical follow-up opening a conversation.

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/shutdown/kxshutdown-26dec31';
const NYC = 'https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20';
const NFL = 'https://kalshi.com/markets/kxnflgame/nfl/kxnflgame-26nov23bufkc';

describe('"will it be 56 or above?" then "by how much"', () => {
  it('is a verdict on the bucket, then its margin from even and the gap, not the whole report', async () => {
    const ask = await demo.thread(NYC);
    expect(await ask('will it be 56 or above?')).toMatch(/^\*\*No\*\*: \*\*56°F or above\*\* is at 43\.0%[^\n]*less likely than not on the market's price/);
    const margin = await ask('by how much');
    expect(margin).toMatch(/^\*\*56°F or above\*\* is \*\*15\.5 pts below\*\* even \(50%\) on the market, at 34\.5% \(normalised[^)]*\); the model, at 37\.0%, puts it \*\*13\.0 pts below\*\* even \(50%\) \[1\]\. The model is 2\.5 pts above the market\./);
    expect(margin).not.toContain('## Key takeaway');
  });

  it('after an outcome\'s line ("56 or above?"), "by how much" is that outcome\'s margin', async () => {
    const ask = await demo.thread(NYC);
    expect(await ask('56 or above?')).toMatch(/^- \*\*56°F or above\*\*: market 43\.0%/);
    const margin = await ask('by how much?');
    expect(margin).toMatch(/^\*\*56°F or above\*\* is \*\*15\.5 pts below\*\* even \(50%\) on the market/);
    expect(margin).not.toContain('## Key takeaway');
  });
});

describe('a position said alone', () => {
  it('"i hold 100 yes on hike" is 100 YES on Hike 25bps (not the outcome Hold): where it stands and its hedges; "how do i hedge?" keeps it', async () => {
    const ask = await demo.thread(FED);
    const held = await ask('i hold 100 yes on hike');
    expect(held).toMatch(/^Your 100 YES contracts on \*\*Hike 25bps\*\*: at the YES bid, \$0\.51, they sell for \$51 now; they pay \$100 if it resolves YES, a 50\.8% chance on the model \(51\.5% on the market\), so about \$50\.80 held to the end on the model \[1\]\.\n\nTo hedge 100 YES contracts on \*\*Hike 25bps\*\*/);
    expect(held).not.toContain('**Hold**');
    expect(await ask('how do i hedge?')).toMatch(/^To hedge 100 YES contracts on \*\*Hike 25bps\*\* on the report's quotes:/);
  });

  it('"i hold 50 no" of the shutdown is its one contract, not a search that finds the Fed\'s Hold', async () => {
    const ask = await demo.thread(SHUTDOWN);
    const held = await ask('i hold 50 no');
    expect(held).toMatch(/^Your 50 NO contracts on \*\*Shutdown\*\*: at the NO bid, \$0\.40, they sell for \$20 now; they pay \$50 if it resolves NO, a 43\.9% chance on the model \(42\.0% on the market\)[^\n]*\n\nTo hedge 50 NO contracts on \*\*Shutdown\*\*/);
    expect(held).not.toMatch(/Open Kalshi events|Fed decision/);
  });

  it('"i have 50 no on the chiefs, how do i hedge?" is that position hedged, not the Chiefs\' record', async () => {
    const ask = await demo.thread(NFL);
    const hedged = await ask('i have 50 no on the chiefs, how do i hedge?');
    expect(hedged).toMatch(/^To hedge 50 NO contracts on \*\*Home team \(Chiefs\)\*\* on the report's quotes:\n\n- \*\*Sell them\*\* at the NO bid/);
    expect(hedged).not.toMatch(/settled games/);
    // (A record asked still is one.)
    expect(await ask('how have the chiefs done lately?')).toMatch(/^The Chiefs won \*\*\d+ of \d+\*\* settled games/);
  });
});

describe('an elliptical follow-up opening a conversation', () => {
  it('"ok and the ai one?" says nothing came before, names the AI-model event and what to ask of it', async () => {
    const text = (await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: 'ok and the ai one?' }] })).choices[0]!.message.content!;
    expect(text).toMatch(/^Nothing was asked before this in the conversation, so there is no question to carry over; the event it names:\n\n/);
    expect(text).toContain('KXAIMODEL-26DEC19');
    expect(text).toMatch(/Ask what you want to know of it: [^\n]+\n$/);
  });
});

describe('"compare with the market"', () => {
  it('is each outcome\'s market against its model; after a trade on one outcome, that outcome\'s; "how does hold compare to the model" is Hold\'s', async () => {
    const ask = await demo.thread(FED);
    const all = await ask('compare with the market');
    expect(all).toMatch(/^Model against market, outcome by outcome:\n\n- \*\*Cut more than 25bps\*\*: market 33\.0% \(mid; 29\.9% normalised\), model 29\.8%, gap −0\.1 pts \[1\]\n- \*\*Cut 25bps\*\*[^\n]*\n- \*\*Hold\*\*[^\n]*\n- \*\*Hike 25bps\*\*: market 51\.5%/);
    expect(all).not.toContain('## Key takeaway');
    await ask('what would I make if i buy 200 yes on hike and it hits?');
    expect(await ask('compare with the market')).toMatch(/^- \*\*Hike 25bps\*\*: market 51\.5% \(mid; 46\.6% normalised\), model 50\.8%, gap \+4\.2 pts \[1\]\n\n_From the stored report/);
    expect(await ask('how does hold compare with the market?')).toMatch(/^- \*\*Hold\*\*: market 16\.0% \(mid; 14\.5% normalised\), model 12\.4%, gap −2\.1 pts \[1\]\n\n_From the stored report/);
  });
});

describe('a held position settled at a level supposed', () => {
  const BTC = 'https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20';
  it('"what would i make if it settles at 95k?" after "i hold 100 yes on above 92k" is what that position pays there, and "and if it drops to 90k?" too', async () => {
    const ask = await demo.thread(BTC);
    expect(await ask('i hold 100 yes on above 92k')).toMatch(/^Your 100 YES contracts on \*\*Above \$92,000\*\*/);
    expect(await ask('what would i make if it settles at 95k?')).toMatch(/^At \$95,000, \*\*Above \$92,000\*\* resolves \*\*YES\*\*, so your 100 YES contracts pay \$100 \(\$1 each\) \[1\]\. What you make is that less what you paid, which you have not said\. Bought now at \$0\.44 \(\$44\), that would be a profit of \$56; against selling them now at \$0\.42 \(\$42\), holding brings \$58 more\./);
    expect(await ask('and if it drops to 90k?')).toMatch(/^At \$90,000, \*\*Above \$92,000\*\* resolves \*\*NO\*\*, so your 100 YES contracts pay nothing \[1\]\./);
  });

  it('a price paid said with the position is counted: "i bought 100 yes on above 92k at 40c", then "what if it settles at 95k?"', async () => {
    const ask = await demo.thread(BTC);
    expect(await ask('i bought 100 yes on above 92k at 40c')).toMatch(/\*\*Your 100 YES at \$0\.40\*\* cost \$40/);
    expect(await ask('what if it settles at 95k?')).toMatch(/^At \$95,000, \*\*Above \$92,000\*\* resolves \*\*YES\*\*, so your 100 YES contracts pay \$100 \(\$1 each\) \[1\]\. Bought at \$0\.40 \(\$40\), that is a profit of \$60\./);
  });
});

describe('a held position, a side supposed to win or lose', () => {
  it('"what if they lose?" after "i have 200 yes on the lakers" is that position paying nothing, not the rules; "and if the celtics win?" the same; "what if the lakers win" pays', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos');
    expect(await ask('i have 200 yes on the lakers')).toMatch(/^Your 200 YES contracts on \*\*Away team \(Lakers\)\*\*/);
    const lose = await ask('what if they lose?');
    expect(lose).toMatch(/^If \*\*Away team \(Lakers\)\*\* loses, \*\*Away team \(Lakers\)\*\* resolves \*\*NO\*\*, so your 200 YES contracts pay nothing \[1\]\. You lose what you paid for them, which you have not said\./);
    expect(lose).not.toContain('The rules the report quotes');
    expect(await ask('and if the celtics win?')).toMatch(/^If \*\*Home team \(Celtics\)\*\* wins, \*\*Away team \(Lakers\)\*\* resolves \*\*NO\*\*/);
    expect(await ask('what if the lakers win')).toMatch(/^If \*\*Away team \(Lakers\)\*\* wins, \*\*Away team \(Lakers\)\*\* resolves \*\*YES\*\*, so your 200 YES contracts pay \$200 \(\$1 each\) \[1\]\./);
  });
});

describe('the position said before, asked about', () => {
  it('"whats it worth now?" and "should i sell?" after "i hold 100 yes on hike" mark that position at the book, not a refusal nor every outcome', async () => {
    const ask = await demo.thread(FED);
    await ask('i hold 100 yes on hike');
    const worth = await ask('whats it worth now?');
    expect(worth).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\): [^\n]*\*\*Your 100 YES\*\*; sold now at the bid, \$0\.51, fetch \$51/);
    expect(worth).not.toContain('I cannot answer that');
    const sell = await ask('should i sell?');
    expect(sell).toMatch(/^- \*\*Hike 25bps\*\* [^\n]*\*\*Your 100 YES\*\*; sold now at the bid/);
    expect(sell).not.toContain('**Cut 25bps**');
  });

  it('a level in the labels\' scale: "10.4 million" of sea ice rungs labelled "Above 10.0"', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxseaice/arctic-sea-ice-extent/kxseaice-26dec');
    await ask('i hold 100 no on above 10');
    expect(await ask('what if it comes in at 10.4 million?')).toMatch(/^At 10\.4, \*\*Above 10\.0\*\* resolves \*\*YES\*\*, so your 100 NO contracts pay nothing \[1\]\./);
  });
});

describe('a settlement supposed, then another level alone', () => {
  it('"what if it prints 180k?" of payrolls stays 180,000 (no dollars), and "and 240k?", "and 200k?" suppose those levels again', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxpayrolls/nonfarm-payrolls/kxpayrolls-26dec');
    await ask('i hold 300 yes on 150k to 225k');
    expect(await ask('what if it prints 180k?')).toMatch(/^At 180,000, \*\*150k to 225k\*\* resolves \*\*YES\*\*, so your 300 YES contracts pay \$300/);
    expect(await ask('and 240k?')).toMatch(/^At 240,000, \*\*150k to 225k\*\* resolves \*\*NO\*\*, so your 300 YES contracts pay nothing/);
    expect(await ask('and 200k?')).toMatch(/^At 200,000, \*\*150k to 225k\*\* resolves \*\*YES\*\*/);
  });
});

describe('a position on the one contract of another report in the thread', () => {
  it('"i hold 100 yes on release" after the SpaceX and AI reports is on the AI release, and "what would i make if it happens?" is what it pays', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxspacex/spacex-launches-per-week/kxspacex-26nov24', 'https://kalshi.com/markets/kxaimodel/frontier-ai-model-release/kxaimodel-26dec19');
    await ask('which one has the better edge?');
    const held = await ask('i hold 100 yes on release');
    expect(held).toMatch(/^Your 100 YES contracts on \*\*Release\*\*: at the YES bid, \$0\.36, they sell for \$36 now/);
    expect(held).toContain('(KXAIMODEL-26DEC19)');
    expect(await ask('what would i make if it happens?')).toMatch(/^If \*\*Release\*\* happens, \*\*Release\*\* resolves \*\*YES\*\*, so your 100 YES contracts pay \$100 \(\$1 each\) \[1\]\./);
    expect(await ask("and if it doesn't happen?")).toMatch(/^If \*\*Release\*\* does not happen, \*\*Release\*\* resolves \*\*NO\*\*, so your 100 YES contracts pay nothing/);
  });
});

describe('a position on a rung with a decimal level', () => {
  it('"i hold 200 no on above 3.2" is that position (not 200 NO bought), and "what if it comes in at 3.3%?" what it pays', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec');
    expect(await ask('i hold 200 no on above 3.2')).toMatch(/^Your 200 NO contracts on \*\*Above 3\.2\*\*: at the NO bid, \$0\.38, they sell for \$76 now/);
    expect(await ask('what if it comes in at 3.3%?')).toMatch(/^At 3\.3%, \*\*Above 3\.2\*\* resolves \*\*YES\*\*, so your 200 NO contracts pay nothing \[1\]\./);
  });
});

describe('long and short, and a side supposed to lose after a stake', () => {
  it('"i\'m long 300 chiefs" is 300 YES held; "im short 200 hike" is 200 NO held', async () => {
    const game = await demo.thread(NFL);
    expect(await game("i'm long 300 chiefs")).toMatch(/^Your 300 YES contracts on \*\*Home team \(Chiefs\)\*\*: at the YES bid, \$0\.62, they sell for \$186 now/);
    const fed = await demo.thread(FED);
    expect(await fed('im short 200 hike')).toMatch(/^Your 200 NO contracts on \*\*Hike 25bps\*\*: at the NO bid, \$0\.48, they sell for \$96 now[^\n]*\n\nTo hedge 200 NO contracts on \*\*Hike 25bps\*\*/);
  });

  it('"and if they lose?" after "$100 on the bills" is what that stake loses, not the contract\'s quote again', async () => {
    const ask = await demo.thread(NFL);
    await ask('if i put $100 on the bills what do i make if they win?');
    expect(await ask('and if they lose?')).toMatch(/^If \*\*Away team \(Bills\)\*\* resolves NO, the YES contracts on it are worth nothing at settlement\. 256 YES contracts at \$0\.39: you lose the \*\*\$99\.84\*\* they cost/);
  });
});

describe('"what\'s it worth now" in an event\'s thread with no position said', () => {
  it('is the book of the outcome discussed, not the filings agent\'s help', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22');
    await ask('whats the favourite');
    const worth = await ask("what's it worth now");
    expect(worth).toMatch(/^- \*\*Below \$20M\*\* \(KXBOXOFFICE-26NOV22-A\): bid \$0\.59, ask \$0\.61/);
    expect(worth).not.toMatch(/which company/);
  });
});

describe('a level the event hits, supposed, then a bare number', () => {
  it('"what if it hits 54?" of 100 YES on 56°F or above resolves NO at 54 (no "happens"); "and 58?" resolves YES', async () => {
    const ask = await demo.thread(NYC);
    await ask('i hold 100 yes on 56 or above');
    expect(await ask('what if it hits 54?')).toMatch(/^At 54°?, \*\*56°F or above\*\* resolves \*\*NO\*\*, so your 100 YES contracts pay nothing/);
    expect(await ask('and 58?')).toMatch(/^At 58°?, \*\*56°F or above\*\* resolves \*\*YES\*\*, so your 100 YES contracts pay \$100/);
  });
});

describe('a follow-up with a question of its own, opening a conversation', () => {
  it('"what about lakers celtics, whos the fav" is no bare ellipsis: no note that nothing came before', async () => {
    const text = (await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: 'what about lakers celtics, whos the fav' }] })).choices[0]!.message.content!;
    expect(text).not.toMatch(/^Nothing was asked before/);
  });
});
