import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { responsesChain } from '../../helpers/chain.js';
import { startService, type TestService } from '../../helpers/service.js';

// Outcomes of several events asked of together: the arithmetic of independence, the bounds any
// dependence allows, and what a correlation supposed does; and positions across them weighed as a book. Reports are stored for the Fed, CPI,
// BTC, the NFL game, the shutdown, SpaceX and the box office; ETH, the NBA game and NYC's temperature are read from live quotes.
let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') } });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
  const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 21 })).apiKey, maxRetries: 0 });
  for (const url of [
    'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec',
    'https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec',
    'https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20',
    'https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc',
    'https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31',
    'https://kalshi.com/markets/kxspacex/spacex-launches-per-week/kxspacex-26nov24',
    'https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22',
  ])
    await payer.responses.create({ model: 'svc-prediction-markets-agent', input: url });
}, 60_000);
afterAll(() => svc.close());

/** Asks svc-agent each input in turn (previous_response_id); returns every answer. */
const chain = (...inputs: string[]) => responsesChain(client)(...inputs);

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

describe('positions across outcomes and events, weighed together', () => {
  it('three positions stated: their cost at the asks, best and worst case, expected P&L, the one the models like least, asked again turn by turn', async () => {
    const [cost, worst, best, least] = await chain(
      'I have three positions: 100 YES on a government shutdown, 200 NO on a fed hike, 150 YES on the Chiefs. What would they cost at current asks?',
      "what's the worst case loss across all three?",
      'and the best case payout?',
      'which of the three is the model least happy with?',
    );
    // 100 × $0.60 + 200 × (1 − $0.51) + 150 × $0.64 = $60 + $98 + $96 = $254; all right pays $450.
    expect(cost).toMatch(/^Your 3 positions cost \*\*\$254\*\*; they pay \$450 at best \(\*\*\+\$196\*\*\) and lose \*\*\$254\*\* at worst\./);
    expect(cost).toMatch(/\| 100 YES on Shutdown \[1\] \| KXSHUTDOWN-26DEC31 \| \$0\.60 \(ask\) \| \$60 \| \$100 \| 58\.0% \| 56\.1% \| −\$2 \| −\$3\.90 \|/);
    expect(cost).toMatch(/\| 200 NO on Hike 25bps \[2\] \| KXFEDDECISION-26DEC \| \$0\.49 \(1 − bid\) \| \$98 \| \$200 \| 48\.5% \| 49\.2% \| −\$1 \| \+\$0\.40 \|/);
    expect(cost).toContain('| 150 YES on Home team (Chiefs) [3] | KXNFLGAME-26NOV23BUFKC | $0.64 (ask) | $96 | $150 | 63.0% | 64.0% | −$1.50 | $0 |');
    expect(worst).toMatch(/^The worst case is \*\*−\$254\*\*: every position loses/);
    expect(best).toMatch(/^The best case is \*\*\+\$196\*\*: \$450 paid on the \$254 they cost/);
    // On the models: shutdown 100 × (56.1% − $0.60) = −$3.90, the least.
    expect(least).toMatch(/^The models like least \*\*100 YES on Shutdown\*\* \(KXSHUTDOWN-26DEC31\): expected −\$3\.90/);
    // "Cut one" is a position to close, not a Fed cut.
    const [, , cut] = await chain('I have three positions: 100 YES on a government shutdown, 200 NO on a fed hike, 150 YES on the Chiefs. What would they cost at current asks?', 'thanks', 'if i had to cut one, which one?');
    expect(cut).toMatch(/^The models like least \*\*100 YES on Shutdown\*\*/);
  });

  it('a hedge within one event: a price of one\'s own, each resolution asked, the models\' expected P&L', async () => {
    const [hedge, value] = await chain("if i'm long 500 chiefs at 0.60 and buy 300 bills at the ask, what's my P&L if bills win? if chiefs win?", "what's the model's expected P&L on the hedged book?");
    // $300 + 300 × $0.39 = $417: Bills win pays $300 (−$117), Chiefs win $500 (+$83).
    expect(hedge).toMatch(/^If bills win, your positions come to \*\*−\$117\*\*[^\n]*If chiefs win, your positions come to \*\*\+\$83\*\*/);
    expect(hedge).toContain('| 500 YES on Home team (Chiefs) [1] | KXNFLGAME-26NOV23BUFKC | $0.60 (yours) | $300 |');
    expect(hedge).toContain('(outcomes of one event exclude each other)');
    // 500 × (64% − $0.60) + 300 × (36% − $0.39) = $20 − $9 = +$11.
    expect(value).toMatch(/^Expected P&L: \*\*\+\$13\.50\*\* on the market's prices \(the mids\), \*\*\+\$11\*\* on the models/);
  });

  it('"100 YES on each" of the outcomes a joint answer listed, if both hit and if only one does; a side and count said after the outcome', async () => {
    const [, each, only] = await chain("what's the probability the chiefs win AND nyc hits 56 or above tomorrow?", '100 YES on each at the ask: total cost and payout if both hit?', 'and if only the chiefs hit?');
    // $64 + $44 = $108; both pay $200: +$92; only the Chiefs: $100 − $108 = −$8.
    expect(each).toMatch(/^They cost \*\*\$108\*\*\. If both hit, your positions come to \*\*\+\$92\*\*/);
    expect(only).toMatch(/^If only chiefs hit, your positions come to \*\*−\$8\*\*/);
    // Counts with thousands separators are one count each.
    const [thousands] = await chain('I hold 1,000 YES on BTC above 96k and 2,500 NO on a fed hike: total cost?');
    expect(thousands).toContain('| 1,000 YES on Above $96,000 [1] | KXBTCD-26NOV20 | $0.15 (ask) | $150 |');
    expect(thousands).toContain('| 2,500 NO on Hike 25bps [2] | KXFEDDECISION-26DEC | $0.49 (1 − bid) | $1,225 |');
    const [, stated] = await chain('fed odds', "i'm long 200 hike yes and 300 cpi above 3.2 yes, worst case loss?");
    // 200 × $0.52 + 300 × $0.62 = $290.
    expect(stated).toMatch(/^The worst case is \*\*−\$290\*\*/);
    expect(stated).toContain('| 300 YES on Above 3.2 [2] | KXCPIYOY-26DEC | $0.62 (ask) | $186 |');
  });
});

describe("an event's trades ranked on both sides", () => {
  it('"the best EV trade, YES or NO, any outcome?" and "what would the model bet on?" weigh NO as well as YES', async () => {
    for (const q of ["what's the best EV trade on these quotes, YES or NO, any outcome?", 'What would the model bet on?']) {
      const [, best] = await chain('spacex launches this week', q);
      // NO on "2 or fewer" at 1 − $0.40 = $0.60 against the model's 68.0%: +$0.080, more than YES on "3" (+$0.021).
      expect(best).toMatch(/^On the model, the best buy at current prices is \*\*NO on 2 or fewer\*\* at \$0\.60 against the model's 68\.0%: expected value \+\$0\.080/);
    }
  });
});

describe('the whole board', () => {
  it('"which is the best bet on the board right now?" weighs every stored report, naming the events without one', async () => {
    const [board] = await chain('which is the best bet on the board right now?');
    // CPI: NO on Above 3.0 at $0.14 against 26.6%, +$0.126, the best of the stored reports.
    expect(board).toMatch(/^Of the 14 events listed, 7 have a stored report; the best trade on the model among them is in \*\*CPI year-over-year in December 2026\?\*\*: \*\*NO on Above 3\.0\*\* at \$0\.14 against the model's 26\.6%: expected value \+\$0\.126/);
    expect(board).toMatch(/No report is stored for [^\n]*KXETHD-26NOV20[^\n]*so there is no model to compare there/);
    // A summary asked in a journalist's words is the stored report's summary.
    const [summary] = await chain('Explain the December Fed market in one paragraph for readers');
    // In a reader's words: rounded chances, the runner-up, the model's view, when trading closes.
    expect(summary).toMatch(/^On Kalshi's “Fed decision in December 2026\?” market, traders see “Hike 25bps” as the likeliest result, at about 47%, ahead of “Cut more than 25bps” at 30% \[1\]\[2\]\. The svc model, which weighs the prices against how past events of the series resolved, agrees, at about 51%\. [^\n]*Trading closes on December 15, 2026\.\n/);
    expect(summary).not.toMatch(/normalised|pts|\(mid\)/);
    const [, headline, quotable, tweet] = await chain('shutdown odds, model vs market?', 'headline version please', 'give me one quotable line I can use in a story', 'tweet-length summary');
    expect(headline).toMatch(/^Government shutdown by December 2026: traders give “Shutdown” a 58% chance\n/);
    expect(quotable).toMatch(/^On Kalshi's “Government shutdown by December 2026\?” market, traders put the chance of “Shutdown” at about 58%, a little better than even \[1\], and the svc model, [^\n]*puts it at about 56%\.\n/);
    expect(tweet.split('\n')[0]!.replace(/\s*\[\d+\]/g, '').length).toBeLessThanOrEqual(280);
  });
});

describe("the series' record asked in words of its own", () => {
  it('how the market called past games, whether the underdog ever won, who the model thinks wins, the last CPI releases, past markets, a consensus', async () => {
    const [, calling, underdog] = await chain('bills chiefs odds', 'Has the market been good at calling these games?', 'did the underdog ever win?');
    // The report's record: the favourite 24 h before close won 11 of 12.
    for (const text of [calling, underdog]) expect(text).toMatch(/^\*\*Market accuracy:\*\* the favourite 24 h before close won 11 of 12 events with prices \(91\.7%; an event counts when every one of its outcomes had a price then\)\. So the underdog won once in 12\./);
    const [, wins] = await chain('bills chiefs odds', 'who do you think wins?');
    expect(wins).toMatch(/^The model favours \*\*Home team \(Chiefs\)\*\* at 64\.0%/);
    // "Releases" of a data series name no other event (not the AI model's "Release").
    const [, releases] = await chain('cpi december odds', 'How did the last 5 CPI releases resolve?');
    expect(releases).toMatch(/^What resolved YES in the last 5 settled events of the series, newest first/);
    const [, past] = await chain('shutdown odds, model vs market?', 'and what did past shutdown markets do?');
    expect(past).toContain('| KXSHUTDOWN-26SEP20 | 2026-09-20 | Shutdown |');
    const [consensus] = await chain("what's the economists' consensus forecast for december CPI?");
    expect(consensus).toMatch(/^I cannot answer that from what I read about \*\*CPI year-over-year in December 2026\?\*\*/);
  });
});

describe('verdicts and the events listed, turns later', () => {
  it('"is that a good bet or nah" gives the verdict; "who is favoured in each?" after a ranking and a trade is of every event ranked', async () => {
    const [, , verdict] = await chain('hey wats the chance the goverment shuts down lol', 'wait whats the model think', 'is that a good bet or nah');
    expect(verdict).toMatch(/^No contract is favoured on the model at current prices: the least unfavourable is \*\*NO on Shutdown\*\* at \$0\.44/);
    const [, , , , each] = await chain('rank the nyc temp, payrolls and approval markets by how overpriced they are', 'which of those closes last?', 'best bet among those?', 'what do 250 of it cost', 'who is favoured in each?');
    expect(each).toMatch(/^The market's favourite in each of the 3 events listed/);
  });
});

describe('three legs', () => {
  it('"at least one?", "exactly one?" and "are those independent?" right after a three-leg parlay are of its legs, with their kinds said', async () => {
    const [, three, any, one, independent] = await chain('parlay: chiefs win and lakers win, what\'s the implied probability?', 'and eth above 3400 too, all three?', 'at least one?', 'exactly one?', 'are those independent?');
    expect(three).toMatch(/^Joint chance of the 3 outcomes asked: all 3 happen \*\*26\.0%\*\* on market prices/);
    // 1 − 0.34 × 0.37 × 0.375 = 95.3%.
    expect(any).toMatch(/^Joint chance of the 3 outcomes asked: at least one happens \*\*95\.3%\*\* on market prices/);
    // 0.66 × 0.37 × 0.375 + 0.34 × 0.63 × 0.375 + 0.34 × 0.37 × 0.625 = 25.1%.
    expect(one).toMatch(/^Joint chance of the 3 outcomes asked: exactly one happens \*\*25\.1%\*\* on market prices/);
    expect(one).toContain('| Exactly one | 25.1% |');
    expect(independent).toMatch(/^Joint chance of the 3 outcomes asked: all 3 happen \*\*26\.0%\*\* on market prices if the events are independent, and anywhere from \*\*0\.0%\*\* to \*\*62\.5%\*\* depending on how they move together\./);
    expect(independent).toContain('They are of different kinds (“Crypto” and “Sports”), the games separate games, so independence is a natural first assumption');
    expect(independent).toContain('The model column needs a report for every event: KXETHD-26NOV20 and KXNBAGAME-26NOV21LALBOS have none.');
  });
});

describe('levels and baskets of one event, from its report', () => {
  it('"who decides how it resolves, and when?" answers both parts', async () => {
    const [, both] = await chain('fed december model vs market', 'who decides how it resolves, and when?');
    expect(both).toContain('- **Resolution source:** Federal Reserve');
    expect(both).toMatch(/### When\?\n\n- \*\*Trading closes\*\* 2026-12-15 15:00 UTC/);
  });

  it('"explain the out-of-order thing for a lay reader in two sentences" is the crossing in plain words', async () => {
    const [, crossing] = await chain('cpi december model vs market', 'explain the out-of-order thing for a lay reader in two sentences');
    expect(crossing).toMatch(/^On Kalshi's “CPI year-over-year in December 2026\?” market, traders pay more for “Above 2\.8” \(96%\) than for “Above 2\.6” \(92\.5%\), though any result that is above 2\.8 is also above 2\.6/);
  });

  it('"which 1 is more mispriced" after two searches compares them; "EV on 100 yes btc 100k" counts the 100; "which game has more volume?" ranks the games discussed', async () => {
    const [, , which, ev] = await chain('yo wuts teh odds btc abov 100k tmrw', 'lol ok and eth?', 'which 1 is more mispriced', 'aight EV on 100 yes btc 100k rn');
    expect(which).toMatch(/^Of the 2 events listed, 1 has a stored report/);
    expect(ev).toContain('100 YES contracts at $0.05 cost $5, the most they can lose');
    expect(ev).toContain('(−$2.10 on 100 contracts)');
    const [, , games] = await chain('Kansas City vs Buffalo', "switching to the lakers game, who's favored?", 'which game has more volume?');
    expect(games).toMatch(/^The busiest open events, by contracts traded in the last 24 hours/);
    expect(games).toContain('KXNBAGAME-26NOV21LALBOS');
    expect(games).toContain('KXNFLGAME-26NOV23BUFKC');
  });

  it('"add 200 NO on a fed hike — new worst case?" adds it to the book before; the model\'s least favoured is of the positions it covers', async () => {
    const [, added, model, cut] = await chain('I hold 500 YES on BTC above 96k and 300 YES on ETH above 3400, max loss and max payout?', 'add 200 NO on a fed hike at the current price — new worst case?', 'which of the three is the model least happy with?', 'if i had to cut one, which one?');
    expect(added).toMatch(/^The worst case is \*\*−\$374\*\*: every position loses, the \$374 they cost gone\./);
    expect(added).toContain('| 200 NO on Hike 25bps [3] | KXFEDDECISION-26DEC | $0.49 (1 − bid) | $98 | $200 |');
    expect(model).toMatch(/^Of the positions the model covers \(their events have a stored report\), it likes least \*\*500 YES on Above \$96,000\*\* \(KXBTCD-26NOV20\): expected −\$16 on its model at the price paid; KXETHD-26NOV20 has no report/);
    expect(cut).toContain('On the model, which covers only the events with a stored report, the least favoured is **500 YES on Above $96,000** (−$16); KXETHD-26NOV20 has none.');
  });

  it('"how reliable have these box office markets been?" leads with the market\'s accuracy; of five outcomes, an upset is "an outcome other than the favourite"', async () => {
    const [, reliable] = await chain("what's kalshi expecting for box office this weekend?", 'how reliable have these box office markets been?');
    expect(reliable).toMatch(/^\*\*Market accuracy:\*\* the favourite 24 h before close won 6 of 12 events with prices[^\n]*So an outcome other than the favourite won 6 times in 12\./);
  });

  it('"what do the four rungs add up to, and does that mean anything?" is their sum and why it means nothing', async () => {
    const [, sum] = await chain('cpi december model vs market', 'what do the four rungs add up to, and does that mean anything?');
    expect(sum).toContain('Added up anyway, their prices come to 336.0%, a sum with no meaning: the rungs are nested');
  });

  it('a thread\'s own topic said by another name ("btc" of Bitcoin) stays on its report; "ok back to btc, 100k?" after ETH returns to it', async () => {
    const [, chance, , back] = await chain('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20', "what's the chance btc ends above 100k?", 'what about eth above 3400?', 'ok back to btc, 100k?');
    expect(chance).toMatch(/^- \*\*Above \$100,000\*\*: market 4\.0% \(mid\), model 2\.9%, gap −1\.1 pts \[1\]/);
    expect(back).toMatch(/^- \*\*Above \$100,000\*\*: market 4\.0% \(mid\), model 2\.9%/);
  });

  it('"model vs market on 3.2, and its spread?" answers both; "why is 2.8 priced over 2.6?" is the ladder out of order; a stake after an EV on one rung stays on it', async () => {
    const [, both, crossed] = await chain('cpi december model vs market', 'model vs market on 3.2, and its spread?', 'why is 2.8 priced over 2.6?');
    expect(both).toContain('- **Above 3.2**: market 61.0% (mid), model 52.9%, gap −8.1 pts');
    expect(both).toContain('- **Above 3.2** (KXCPIYOY-26DEC-T3.2): bid $0.60, ask $0.62, spread $0.02');
    expect(crossed).toContain('the market prices Above 2.8 at 96.0% against Above 2.6 at 92.5%, though YES on the first implies YES on the second');
    const [, , stake] = await chain('bitcoin above 96k tomorrow, what are the odds?', 'EV of $200 on that yes at the ask', "how many contracts does $200 buy and what's the max loss");
    expect(stake).toMatch(/^- \*\*Above \$96,000\*\*[^\n]*\$200 buys 1,333 YES contracts at \$0\.15 \(\$199\.95\)/);
    expect(stake).not.toContain('Above $92,000');
  });

  it('"can I sell before it closes?" says yes and at what; "does that account for fees?" says no; "who u got" is the model\'s pick; "fed gonna hike or nah" leans', async () => {
    const [, sell, , fees] = await chain('fed december model vs market', 'can I sell before it closes?', 'is there an arb', 'does that account for fees?');
    expect(sell).toMatch(/^Yes: a contract can be sold at any time until trading closes \(2026-12-15 15:00 UTC\)/);
    expect(sell).toContain('- **Hike 25bps**: YES sells at $0.51; NO at $0.48');
    expect(fees).toMatch(/^No\. Kalshi charges a fee on trades, and what it is is not in anything I read[^\n]*every cost, payout, profit, expected value and arbitrage I give is before fees/);
    const [kalshiFees] = await chain("what are kalshi's fees?");
    expect(kalshiFees).toMatch(/^Kalshi charges a fee on trades/);
    const [hike] = await chain('fed gonna hike or nah');
    expect(hike).toContain('On the market\'s prices, “Hike 25bps” is about even: 51.5% (46.6% normalised), the favourite.');
  });

  it('a hedge of the other side is both sides in pairs, the spread lost; "back to the fed, what was hike trading at a week ago?" is its 7-day price', async () => {
    const [, , hedge] = await chain('what are the odds the fed hikes in december?', 'if i buy 100 hike yes at the ask whats my EV', 'and if i hedge by also buying 100 NO on hike, what do i lock in?');
    expect(hedge).toMatch(/^No profit is locked in: YES on \*\*Hike 25bps\*\* at the ask, \$0\.52, and NO at \$0\.49 \(1 minus the \$0\.51 YES bid\) cost \$1\.01 a pair[^\n]*100 pairs cost \$101 and pay \$100: \$1 lost before fees\./);
    const [, , week] = await chain('what are the odds the fed holds in december?', 'and what about eth above 3400?', 'back to the fed, what was hike trading at a week ago?');
    expect(week).toMatch(/^- \*\*Hike 25bps\*\*: 59\.0% 7 days ago, −7\.5 pts since; 51\.5% now \[1\]/);
  });

  it('"any arb" of one yes/no contract says why there is none; two tickers named in a thread are compared; "back to the chiefs game: kelly on the dog" sizes the Bills, and "the other side of that one" is NO on the Bills', async () => {
    const [, , arb] = await chain('govt shutdwn odds??', 'wats the spred', 'any arb');
    expect(arb).toMatch(/^No arbitrage: this event has one yes\/no contract, \*\*Shutdown\*\*, and buying both its sides, YES at the ask \$0\.60 and NO at 1 minus the bid \$0\.44 \[1\], costs \$1\.04 for the \$1 one of them pays: 4¢ over, the spread\./);
    const [, compared, dog, other] = await chain("what's the model say on KXNFLGAME-26NOV23BUFKC?", 'now compare KXBTCD-26NOV20 and KXETHD-26NOV20', 'ok back to the chiefs game: kelly on the dog with 2k', 'whats the other side of that one cost');
    expect(compared).toContain('KXBTCD-26NOV20');
    expect(compared).toContain('KXETHD-26NOV20');
    expect(compared).not.toMatch(/^# Bills at Chiefs/);
    expect(dog).toContain('**YES on Away team (Bills)** at $0.39');
    expect(other).toMatch(/^- \*\*Away team \(Bills\)\*\*[^\n]*A NO contract costs \$0\.62 \(1 minus the YES bid\)/);
  });

  it('a month said in the present tense is the open event of that month; "if I buy hold at 16c what happens?" is that trade\'s payoff', async () => {
    const [crowd] = await chain("kalshi december cpi: what's the crowd saying, in plain english?");
    expect(crowd).not.toContain('KXCPIYOY-25DEC');
    expect(crowd).toContain('KXCPIYOY-26DEC');
    const [, hold] = await chain('fed december odds', 'so if I buy hold on the fed at 16c what happens?');
    expect(hold).toContain('Supposing YES trades at $0.16 (NO at $0.84), not the quotes above. A YES contract bought at $0.16, pays $1.00 if it resolves YES: $0.84 profit per contract before fees, the $0.16 lost if it resolves NO.');
  });

  it('a team\'s record is of its games in the series, with a report stored too (not a label\'s base rate)', async () => {
    const [, chiefs] = await chain('bills chiefs odds', 'how have the chiefs done at home lately?');
    expect(chiefs).toMatch(/^The Chiefs won \*\*8 of 12\*\* settled games at home in this series \[1\]\./);
  });

  it('"so in plain words, what\'s the chance?" after a summary is the event\'s chance, not a search', async () => {
    const [, chance] = await chain('explain the government shutdown market in one paragraph for readers', "so in plain words, what's the chance?");
    expect(chance).toMatch(/^On Kalshi's “Government shutdown by December 2026\?” market, traders put the chance of “Shutdown” at about 58%, a little better than even \[1\]\./);
    const [, bare] = await chain('shutdown odds, model vs market?', "what's the chance?");
    expect(bare).toMatch(/^This event has one yes\/no contract, \*\*Shutdown\*\*: the market gives it 58\.0% \(mid\) \(so about 42\.0% that it does not happen\), the model 56\.1% \[1\]\./);
  });

  it('buckets beyond a level add up on market and model ("sum of probabilities above $40M", "below 40" in the labels\' millions); YES on every rung of a ladder is a basket with its expected payout on the model', async () => {
    const [, above, below, between] = await chain('box office opening weekend: model vs market?', 'sum of probabilities above $40M?', 'and below 40?', 'what about the sum between 20 and 60?');
    expect(above).toMatch(/^“above \$40,000,000” is \*\*\$40M to \$60M\*\*, \*\*\$60M to \$80M\*\* and \*\*Above \$80M\*\*: together market 33\.6% normalised, model 27\.4% \[1\]\[2\]\[3\]\./);
    expect(above).not.toContain('overround');
    expect(below).toMatch(/^“below \$40M” is \*\*Below \$20M\*\* and \*\*\$20M to \$40M\*\*: together market 66\.4% normalised, model 72\.6% \[1\]\[2\]\./);
    expect(between).toMatch(/^“between 20 and 60” is \*\*\$20M to \$40M\*\* and \*\*\$40M to \$60M\*\*: together market 24\.2% normalised, model 20\.2% \[1\]\[2\]\./);
    const [, basket] = await chain('btc above 96k tomorrow, model?', 'YES on all four rungs, what would it cost?');
    // The model's chances of the four rungs (43.0% + 11.8% + 2.9% + 2.9%) are the basket's expected payout.
    expect(basket).toMatch(/^One YES on each of the 4 rungs costs \*\*\$0\.70\*\* at the asks/);
    expect(basket).toMatch(/Expected payout \$0\.67 on the market's prices, \$0\.\d\d on the model \(−\$0\.\d\d against the cost\)\./);
  });
});
