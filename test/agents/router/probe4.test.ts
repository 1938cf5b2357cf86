import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
  // Reports stored for the macro events, as a trader generates them before asking across them.
  for (const ticker of ['KXFEDDECISION-26DEC', 'KXCPIYOY-26DEC', 'KXPAYROLLS-26DEC', 'KXSHUTDOWN-26DEC31']) await demo.reportOf(ticker);
});
afterAll(() => demo.svc.close());

/** A chat thread with svc-agent, each answer kept; returns the asking function. */
const conversation = () => demo.thread();

/** Threads a fourth round of probes (a trader across several events) found answered for the wrong event. */
describe('svc-agent: probe round 4', () => {
  it('a follow-up naming another event ("what changed on payrolls") is of that event, not of the one the answer before was on', async () => {
    const ask = await conversation();
    await ask('compare the edges on fed dec, cpi dec and payrolls dec');
    await ask('and the shutdown?');
    expect(await ask('EV on yes?')).toContain('(KXSHUTDOWN-26DEC31)');
    const changed = await ask('what changed on payrolls');
    // The payrolls report's moves: Below 0 −2.0 pts over 24 hours, −7.0 pts over 7 days.
    expect(changed).toContain('**Price move, Below 0:** −2.0 pts over 24 hours, −7.0 pts over 7 days');
    expect(changed).toContain('(KXPAYROLLS-26DEC)');
    expect(changed).not.toContain('Shutdown');
    const spread = await ask('and the spread on hike 25 in the fed one?');
    expect(spread).toContain('**Hike 25bps** (KXFEDDECISION-26DEC-D): bid $0.51, ask $0.52, spread $0.01');
  });
});

describe('svc-agent: a fee the trader states (probe round 4)', () => {
  it('"and with fees of 1c?" after a Kelly sizing sizes the same trade again with the fee added to its cost', async () => {
    const ask = await conversation();
    const kelly = await ask('kelly size on NO cut more than 25bps fed dec with a 1000 bankroll');
    expect(kelly).toMatch(/^On the model, the trade to size is \*\*NO on Cut more than 25bps\*\* at \$0\.68/);
    const fee = await ask('and with fees of 1c?');
    // $0.68 + $0.01 = $0.69 against 70.2%: EV +$0.012 (from +$0.022); Kelly (0.702 − 0.69)/0.31 = 3.9%; $38.71 of $1,000 buys 56 at $0.69.
    expect(fee).toMatch(/^With a fee of 1¢ a contract, \*\*NO on Cut more than 25bps\*\* costs \$0\.69 \(\$0\.68 \+ 1¢\) against the model's 70\.2%: expected value \*\*\+\$0\.01\d\*\* per \$1 contract \[1\], against \+\$0\.02\d before the fee\./);
    expect(fee).toMatch(/is \*\*3\.\d%\*\* of the bankroll; half Kelly 1\.\d%\. On \$1,000: \$3\d\.\d\d \(5\d contracts at \$0\.69 with the fee\) at full Kelly/);
    expect(fee).toContain('The edge is gone at a fee of 2.');
    expect(fee).not.toContain('I cannot answer');
    // A fee larger than the edge: nothing staked.
    expect(await ask('what about a 3 cent fee?')).toContain('On the model the Kelly criterion stakes nothing at that cost.');
  });
});

describe('svc-agent: the size the quotes are good for (probe round 4)', () => {
  it('"max position at the quoted size?" after a Kelly sizing is what the best price of that trade is good for', async () => {
    const ask = await conversation();
    await ask('what is the kelly fraction on NO cut more than 25bps fed dec');
    const size = await ask('max position at the quoted size?');
    expect(size).not.toContain('I cannot answer');
    // NO on Cut more than 25bps is bought at 1 minus the $0.32 YES bid: the size at that bid.
    // The fed report's book: 1,698 YES bid at $0.32, so 1,698 NO at $0.68, $1,154.64 (1,698 × 0.68).
    expect(size).toMatch(/^- \*\*Cut more than 25bps\*\* \(KXFEDDECISION-26DEC-A\): bid \$0\.32, ask \$0\.34/);
    expect(size).toContain('1,698 NO contracts at $0.68, the other side of the 1,698 YES bid at $0.32 ($1,154.64 in all)');
  });
});

describe('svc-agent: the sources asked in chat shorthand (probe round 4)', () => {
  it('"where did u get this" after a search for an event with a report lists its sources, not the search again', async () => {
    // Of an event with a stored report: the report's sources, each with its address.
    const ask = await conversation();
    await ask('what about cpi');
    const where = await ask('where did u get this');
    expect(where).toMatch(/^The report's figures come from these sources:/);
    expect(where).toContain('https://kalshi.com/markets/kxcpiyoy/');
    expect(where).not.toMatch(/^Open Kalshi events/);
  });
});

describe('svc-agent: the sources of live prices (probe round 4)', () => {
  it('"where did u get this" of an event with no report lists the exchange pages its prices come from, not the prices again', async () => {
    const ask = await conversation();
    expect(await ask('nyc temperature odds tomorrow?')).toContain('Highest temperature in NYC');
    const where = await ask('where did u get this');
    expect(where).toMatch(/^Those prices are Kalshi's own, as of 2026-11-19 15:00 UTC, read from these pages:\n\n- Kalshi: Highest temperature in NYC on November 20, 2026\? \(event page\): https:\/\/kalshi\.com\/markets\/kxhighny\/[^ ]+ \[1\]\n- Kalshi market data: KXHIGHNY-26NOV20: \S+ \[2\]/);
    expect(where).not.toContain('Below 44°F 17.5%');
  });
});
