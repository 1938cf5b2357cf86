import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';

// Outcomes of several events asked of together: the arithmetic of independence, the bounds any
// dependence allows, and what a correlation supposed does. Reports are stored for the Fed, CPI,
// BTC and the NFL game; ETH, the NBA game and NYC's temperature are read from live quotes.
let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') } });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
  const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 12 })).apiKey, maxRetries: 0 });
  for (const url of [
    'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec',
    'https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec',
    'https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20',
    'https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc',
  ])
    await payer.responses.create({ model: 'svc-prediction-markets-agent', input: url });
}, 60_000);
afterAll(() => svc.close());

/** Asks svc-agent each input in turn (previous_response_id); returns every answer. */
async function chain(...inputs: string[]): Promise<string[]> {
  let previous: string | undefined;
  const texts: string[] = [];
  for (const input of inputs) {
    const r = await client.responses.create({ model: 'svc-agent', input, ...(previous ? { previous_response_id: previous } : {}) });
    previous = r.id;
    texts.push(r.output_text);
  }
  return texts;
}

describe('outcomes of several events together', () => {
  it('"chance both happen?" after two events: the product on prices and models, the bounds, and follow-ups on the same legs', async () => {
    const [, , both, either, correlated, rho] = await chain('fed cut 25bps odds?', 'and cpi above 3%?', 'chance both happen?', 'and either one?', "what if they're correlated?", 'and with a correlation of 0.5?');
    // 10.0% × 86.5% = 8.65%; on the models 7.0% × 73.4% = 5.14%.
    expect(both).toMatch(/^Joint chance of the 2 outcomes asked: both happen \*\*8\.7%\*\* on market prices \(\*\*5\.1%\*\* on the models\), if the events are independent\./);
    // In the order the thread took them up, each with the outcome it was asked about.
    expect(both).toMatch(/\n1\. \*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\) \[1\]: \*\*YES on Cut 25bps\*\*: market 10\.0%, model 7\.0% \(report as of 2026-11-19 15:00 UTC\)\n2\. \*\*CPI year-over-year in December 2026\?\*\* \(KXCPIYOY-26DEC\) \[2\]: \*\*YES on Above 3\.0\*\*: market 86\.5%, model 73\.4%/);
    expect(both).toContain('| Both | 8.7% | 5.1% |');
    // 1 − 0.9 × 0.135 = 87.85%.
    expect(both).toContain('| At least one | 87.8% |');
    expect(both).toContain('| Neither | 12.2% |');
    // Fréchet bounds: max(0, 10.0% + 86.5% − 100%) = 0 and min = 10.0%.
    expect(both).toContain('both happen with a chance between 0.0% (the two chances added, less 100%, or zero) and 10.0% (the least likely one) on market prices');
    expect(both).toContain('Both are Economics events');
    expect(both).toContain('A $1 ticket paying only if both happen would be worth its chance: $0.087 on market prices if independent, $0.051 on the models.');
    expect(either).toMatch(/^Joint chance of the 2 outcomes asked: at least one happens \*\*87\.8%\*\* on market prices/);
    expect(either).toContain('**YES on Cut 25bps**');
    expect(correlated).toMatch(/^Joint chance of the 2 outcomes asked: both happen \*\*8\.7%\*\* on market prices if the events are independent, and anywhere from \*\*0\.0%\*\* to \*\*10\.0%\*\* depending on how they move together\./);
    // 0.1 × 0.865 + 0.5 × √(0.1 × 0.9 × 0.865 × 0.135) = 0.1035, held at the bound 0.1.
    expect(rho).toContain('With a correlation of 0.5 between them, both happen 10.0%');
  });

  it('one question naming two events, a parlay, a side said as a loss or a level below, and a third event added', async () => {
    const [games, lost, three] = await chain('parlay: chiefs win and lakers win, what is the implied probability?', 'what about the lakers losing and btc under 92k, both?', 'and eth above 3400 too, all three?');
    // 63.0% × 62.5% = 39.4%; the NBA game has no report, so there is no model column.
    expect(games).toMatch(/^Joint chance of the 2 outcomes asked: both happen \*\*39\.4%\*\* on market prices, if the events are independent\./);
    expect(games).toContain('**YES on Home team (Chiefs)**: market 63.0%, model 64.0%');
    expect(games).toContain('**YES on Away team (Lakers)**: market 62.5% (live quotes, no report stored)');
    expect(games).toContain('The model column needs a report for every event: KXNBAGAME-26NOV21LALBOS has none.');
    expect(games).toContain('They are separate games, so independence is a natural first assumption');
    expect(games).not.toContain('| If independent | Market | Model |');
    // "Lakers losing" is NO on the Lakers (37.5%); "under 92k" NO on the rung Above $92,000 (57.0%): 21.4%.
    expect(lost).toMatch(/^Joint chance of the 2 outcomes asked: both happen \*\*21\.4%\*\*/);
    expect(lost).toContain('**NO on Away team (Lakers)**: market 37.5%');
    expect(lost).toContain('**NO on Above $92,000**: market 57.0%');
    // The third leg joins the two of the answer before: 21.4% × 66.0% = 14.1%.
    expect(three).toMatch(/^Joint chance of the 3 outcomes asked: all 3 happen \*\*14\.1%\*\*/);
    expect(three).toContain('**YES on Above $3,400**: market 66.0%');
    expect(three).toContain('| All 3 |');
  });

  it('a chance of two outcomes said with "and" is of them together; a conditional says what the prices cannot', async () => {
    const [hikeHot, given] = await chain("what's the chance of a hike AND cpi above 3.2?", 'if the fed hikes, does that make cpi above 3.2 more or less likely?');
    // 51.5% × 61.0% = 31.4%.
    expect(hikeHot).toMatch(/^Joint chance of the 2 outcomes asked: both happen \*\*31\.4%\*\* on market prices \(\*\*26\.9%\*\* on the models\)/);
    // Given a hike, CPI above 3.2 lies between (51.5% + 61.0% − 100%) / 51.5% = 24.3% and 100%.
    expect(given).toContain('whether **YES on Hike 25bps** makes **YES on Above 3.2** likelier is not in any price or report here');
    expect(given).toContain('If they are independent it changes nothing (**61.0%** on market prices); whatever the dependence, given YES on Hike 25bps the chance of YES on Above 3.2 lies between **24.3%** and **100.0%**');
  });

  it('two outcomes of one event asked together are no joint of events; one event alone stays with it', async () => {
    const [, , cuts] = await chain('fed odds?', 'and cpi above 3?', 'odds of both cuts?');
    expect(cuts).not.toMatch(/^Joint chance/);
    const [, sides] = await chain('btc above 92k tomorrow?', 'what if i buy both sides, yes and no?');
    expect(sides).not.toMatch(/^Joint chance/);
    // "What's the chance of a cut and a hold?": one event's outcomes, each answered from its prices.
    const [cutHold] = await chain("what's the chance of a cut and a hold?");
    expect(cutHold).not.toMatch(/^Joint chance/);
    expect(cutHold).toContain('Hold');
  });
});
