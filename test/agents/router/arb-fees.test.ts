import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const BOX_OFFICE = 'https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22';
const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31';
const BTC = 'https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20';

describe('an arbitrage asked after fees', () => {
  it("'is the arb real after fees?' gives the lock before fees and the average fee per contract it bears", async () => {
    const box = await demo.thread(BOX_OFFICE);
    const text = await box('is the arb real after fees?');
    // NO on all five at 1 minus each bid: $3.88 for $4, 12¢ over 5 contracts = 2.4¢ a contract.
    expect(text).toMatch(/^Kalshi's fee is not in anything I read, so I cannot say what it will take; what it has to stay under for the lock-in on [^\n]*a set is 5 contracts \(one a leg\) and locks in 12¢ before fees, so the fees on those 5 contracts must total under 12¢, about 2\.4¢ a contract/);
    expect(text).not.toContain('I cannot answer that');
  });

  it('one yes/no contract has no arbitrage, fees asked or not; a fee asked alone is still the fee answer', async () => {
    const shutdown = await demo.thread(SHUTDOWN);
    expect(await shutdown('is the arb real after fees?')).toMatch(/^No arbitrage: this event has one yes\/no contract, \*\*Shutdown\*\*[^\n]*costs \$1\.04 for the \$1 one of them pays/);
    expect(await shutdown('does that include fees?')).toMatch(/^No\. Kalshi charges a fee on trades/);
  });

  it('with no lock before fees, says there is none after them', async () => {
    const btc = await demo.thread(BTC);
    const text = await btc('any arbitrage after fees?');
    expect(text).toMatch(/^No arbitrage on the report's quotes: [^\n]*\. With nothing locked in before fees, there is nothing after them\./);
  });
});
