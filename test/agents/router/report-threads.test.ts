import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { responsesChain } from '../../helpers/chain.js';
import { startService, type TestService } from '../../helpers/service.js';

// A trader's threads once the Fed, CPI, payrolls and shutdown reports are stored: questions across
// "my reports", follow-ups on the events a thread compared, and questions of one report beyond its
// table (what would make the model wrong, what changed since, the lock-in on crossed quotes).
let svc: TestService;
let client: OpenAI;

const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
const CPI = 'https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/KXCPIYOY-26DEC';

beforeAll(async () => {
  svc = await startService({ env: { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') } });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
  const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 12 })).apiKey, maxRetries: 0 });
  for (const url of [FED, CPI, 'https://kalshi.com/markets/kxpayrolls/jobs/KXPAYROLLS-26DEC', 'https://kalshi.com/markets/kxshutdown/government-shutdown/KXSHUTDOWN-26DEC31'])
    await payer.responses.create({ model: 'svc-prediction-markets-agent', input: url });
}, 60_000);
afterAll(() => svc.close());

/** Asks svc-agent each message in turn through chat completions, the whole thread sent each time; returns every answer. */
async function talk(...questions: string[]): Promise<string[]> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
  const answers: string[] = [];
  for (const content of questions) {
    messages.push({ role: 'user', content });
    const text = (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
    messages.push({ role: 'assistant', content: text });
    answers.push(text);
  }
  return answers;
}

describe('across the stored reports', () => {
  it('"which of my reports has the widest spreads?" ranks each stored report by its spreads, widest first', async () => {
    const [spreads] = await talk('Which of my reports has the widest spreads?');
    expect(spreads).toMatch(/^The bid-ask spreads in each of the 4 stored reports, the widest first/);
    const order = [...spreads!.matchAll(/^\d\. \*\*.+?\*\* \((KX[A-Z0-9-]+)\)/gm)].map((m) => m[1]);
    expect(order).toEqual(['KXSHUTDOWN-26DEC31', 'KXFEDDECISION-26DEC', 'KXCPIYOY-26DEC', 'KXPAYROLLS-26DEC']);
    expect(spreads).toContain('widest **4¢** (Cut 25bps, Hold), 2.8¢ on average over 4 contracts');
  });

  it('"compare the edges across all my reports", then "which one has the best expected value per dollar?": the comparison, then EV per dollar staked', async () => {
    const [edges, perDollar] = await talk('compare the edges across all my reports', 'which one has the best expected value per dollar?');
    expect(edges).toMatch(/^Of the 4 events listed, 4 have a stored report; the largest gap between model and market among them is in \*\*CPI year-over-year in December 2026\?\*\*: \*\*Above 3\.0\*\*/);
    expect(perDollar).toMatch(/^By expected value per dollar staked, the best is in \*\*CPI year-over-year in December 2026\?\*\* \[1\]: NO on Above 2\.8 at \$0\.05, \+\$2\.12 per \$1 staked\./);
    expect(perDollar).not.toContain('company');
  });

  it('"which has the most volume?" right after one report\'s contracts is of those contracts, not of the reports listed before', async () => {
    const [, , spreads, volume] = await talk('compare the edges across all my reports', 'which one has the best expected value per dollar?', 'what are the spreads on the fed contracts?', 'which has the most volume?');
    expect(spreads).toContain('_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC)');
    expect(volume).toMatch(/^\*\*Cut 25bps\*\* has the most volume: 336,207 contracts \[1\]/);
    expect(volume).toContain('_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC)');
  });

  it('"rank my four reports by model edge per dollar" ranks all four, the one with no positive EV last and said so', async () => {
    const [ranked, arbitrage] = await talk('Rank my four reports by model edge per dollar', 'which of those has an arbitrage?');
    expect(arbitrage).toMatch(/^### CPI year-over-year in December 2026\?\n\nYes, on the report's quotes:\n\n- YES on \*\*Above 2\.6\*\* at the ask/);
    expect(arbitrage).toMatch(/### Fed decision in December 2026\?\n\nYes, on the report's quotes:\n\n- NO on every outcome/);
    const order = [...ranked!.matchAll(/^\d\. \*\*.+?\*\* \((KX[A-Z0-9-]+)\)/gm)].map((m) => m[1]);
    expect(order).toEqual(['KXCPIYOY-26DEC', 'KXPAYROLLS-26DEC', 'KXFEDDECISION-26DEC', 'KXSHUTDOWN-26DEC31']);
    expect(ranked).toContain('**NO on 75k to 150k** at $0.73 against the model\'s 77.9%: expected value +$0.049 per $1 contract, so **+$0.067 per $1 staked** (+6.7%)');
    expect(ranked).toMatch(/KXSHUTDOWN-26DEC31\) \[4\]: .*−\$0\.002 per \$1 staked\*\* \(−0\.2%\): no contract has a positive expected value there/);
  });
});

describe('across the stored reports, other measures', () => {
  it('"tightest spreads" ranks the other way; "size each of my reports" sizes every one; "which of my reports closes first?" orders them by close', async () => {
    const [tightest, sized, first] = await talk('which of my reports has the tightest spreads?', 'size each of my reports with $1,000 at quarter kelly', 'which of my reports closes first?');
    expect(tightest).toMatch(/^The bid-ask spreads in each of the 4 stored reports, the tightest first/);
    expect([...tightest!.matchAll(/^\d\. \*\*.+?\*\* \((KX[A-Z0-9-]+)\)/gm)].map((m) => m[1])).toEqual(['KXPAYROLLS-26DEC', 'KXCPIYOY-26DEC', 'KXFEDDECISION-26DEC', 'KXSHUTDOWN-26DEC31']);
    expect(sized).toContain('On $1,000: $181.48 (248 contracts at $0.73) at full Kelly, $90.74 (124 contracts at $0.73) at half, $45.37 (62 contracts at $0.73) at a quarter.');
    expect(sized).toContain('### Government shutdown by December 2026?\n\n**$0**');
    expect(first).toMatch(/^Of the 4 events listed, \*\*Jobs added in December 2026\?\*\* closes first, 2026-12-05 15:00 UTC/);
    const [named] = await talk('which resolves first, the fed or cpi?');
    expect(named).toMatch(/^Of the 2 events listed, \*\*CPI year-over-year in December 2026\?\*\* closes first, 2026-12-10 15:00 UTC/);
  });
});

describe('reports named or listed', () => {
  it('"what reports do I have?" lists them; "which of my reports has the most volume?" ranks them by it; "the Fed, CPI and payrolls reports" are those three', async () => {
    const [list, volume, three] = await talk('what reports do I have?', 'which of my reports has the most volume?', 'Compare the Fed, CPI and payrolls reports: where is the biggest edge?');
    expect(list).toMatch(/^4 reports are stored, free to read here or from `svc-prediction-markets-agent:cache`:/);
    expect(list).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC) [3]: as of 2026-11-19 15:00 UTC');
    expect(volume).toMatch(/^The busiest open events, by contracts traded in the last 24 hours/);
    expect([...volume!.matchAll(/^\d\. \*\*.+?\*\* \((KX[A-Z0-9-]+)\)/gm)].map((m) => m[1])).toEqual(['KXCPIYOY-26DEC', 'KXPAYROLLS-26DEC', 'KXSHUTDOWN-26DEC31', 'KXFEDDECISION-26DEC']);
    expect(three).toMatch(/^Of the 3 events listed, 3 have a stored report; the largest gap between model and market among them is in \*\*CPI year-over-year in December 2026\?\*\*/);
    expect(three).not.toContain('KXSHUTDOWN');
  });
});

describe('"each of those" after the stored reports are listed', () => {
  it('the spread, a half-Kelly stake, the last to resolve, and what would make the model wrong, in each', async () => {
    const [, spreads, stakes, last, wrong] = await talk(
      'what reports do I have?',
      "what's the spread in each of those?",
      'how much should I put on each of those with $500 at half kelly?',
      'which of those resolves last?',
      'what would make you wrong on each of those?',
    );
    expect(spreads).toMatch(/^The bid-ask spreads in each of the 4 stored reports, the widest first/);
    expect(stakes).toMatch(/^### Government shutdown by December 2026\?\n\n\*\*\$0\*\*/);
    expect(stakes).toContain('On $500:');
    expect(last).toMatch(/^Of the 4 events listed, \*\*Government shutdown by December 2026\?\*\* closes last/);
    expect(wrong).toMatch(/^What would have to be true for the model to be wrong, from each report/);
    expect([...wrong!.matchAll(/^### (.+)$/gm)].map((m) => m[1])).toHaveLength(4);
    expect(wrong).toContain('With c = −0.02, near 0, the series\' base rate barely moves it');
  });
});

describe('a report named in the question', () => {
  it('"the best trade in the CPI report", "the edge on the shutdown report", "compare the CPI report with the payrolls report", "across all reports", "which report has…"', async () => {
    const [best, across, which] = await talk("what's the best trade in the CPI report?", "across all reports, what's the best trade?", 'which report has the biggest mispricing?');
    expect(best).toMatch(/^On the model, the best buy at current prices is \*\*NO on Above 3\.0\*\* at \$0\.14/);
    expect(across).toMatch(/^Of the 4 events listed, 4 have a stored report; the best trade on the model among them is in \*\*CPI year-over-year in December 2026\?\*\*/);
    expect(which).toMatch(/^Of the 4 events listed, 4 have a stored report; the largest gap between model and market among them is in \*\*CPI year-over-year in December 2026\?\*\*/);
    const [edge, , timing] = await talk("what's the edge on the shutdown report?", 'what would make it wrong?', 'and the timing?');
    expect(edge).toMatch(/^Model and market agree within 2 points: the model gives \*\*Shutdown\*\* 56\.1% against a market 58\.0% \(mid\), −1\.9 pts \[1\]\./);
    expect(timing).toMatch(/^When to enter is yours to decide: .*\*\*Government shutdown by December 2026\?\*\* \(KXSHUTDOWN-26DEC31\) says about timing/);
    const [two] = await talk('compare the CPI report with the payrolls report');
    expect(two).toMatch(/^Of the 2 events listed, 2 have a stored report; the largest gap between model and market among them is in \*\*CPI year-over-year in December 2026\?\*\*/);
    expect(two).toContain('(KXPAYROLLS-26DEC) [2]');
  });
});

describe('the events a thread compared', () => {
  it('"how much should I size on that with a $5,000 bankroll?" after the biggest edge: Kelly on that trade, full and half, with the depth at its price', async () => {
    const [, sized] = await talk('Compare the Fed, CPI and payrolls reports: where is the biggest edge?', 'How much should I size on that if I have a $5,000 bankroll?');
    expect(sized).toMatch(/^On the model, the trade to size is \*\*NO on Above 3\.0\*\* at \$0\.14/);
    expect(sized).toContain('is **14.7%** of the bankroll; half Kelly 7.3%. On $5,000: $732.56 (5,232 contracts at $0.14; only 122 NO are offered at $0.14');
    expect(sized).toContain('$366.28 (2,616 contracts');
  });

  it('payrolls and shutdown: no correlation invented, the rules on delays quoted; which resolves first; half-Kelly on both with $0 where the EV is not positive', async () => {
    const [, correlated, first, both] = await talk(
      'Compare the payrolls and shutdown reports',
      'Are jobs and shutdown correlated? If the government shuts down, does payrolls data get delayed?',
      "What's the timing: which resolves first?",
      'Size both with a $2,000 bankroll using half-Kelly',
    );
    expect(correlated).toMatch(/^Nothing I read estimates how \*\*.+\*\* and \*\*.+\*\* move together: each report models its own event alone/);
    expect(correlated).toMatch(/### Jobs added in December 2026\?[^]*### Government shutdown by December 2026\?|### Government shutdown by December 2026\?[^]*### Jobs added in December 2026\?/);
    expect(correlated).toContain('“If the Employment Situation report is not published before the expiration date, the market resolves on the first release after it.”');
    expect(correlated).not.toMatch(/Joint chance|independent/);
    expect(first).toMatch(/^Of the 2 events listed, \*\*Jobs added in December 2026\?\*\* closes first, 2026-12-05 15:00 UTC/);
    expect(both).toContain('### Jobs added in December 2026?');
    expect(both).toContain('On $2,000: $362.96 (497 contracts at $0.73) at full Kelly, $181.48 (248 contracts at $0.73) at half.');
    expect(both).toMatch(/### Government shutdown by December 2026\?\n\n\*\*\$0\*\*: no contract has a positive expected value on the model at the report's prices; the best is \*\*NO on Shutdown\*\* at \$0\.44/);
  });

  it('"which of them has an arbitrage?" after bitcoin and ethereum compared checks both', async () => {
    const [, arbitrage] = await talk('Compare bitcoin and ethereum events', 'Which of them has an arbitrage?');
    expect(arbitrage).toMatch(/^### Bitcoin price on November 20, 2026 at 10am ET\?\n\nNo arbitrage on the live quotes/);
    expect(arbitrage).toMatch(/### Ethereum price on November 20, 2026 at 10am ET\?\n\nNo arbitrage on the live quotes/);
  });
});

describe('one report beyond its table', () => {
  it('"what would make you wrong" on the Fed call, the shutdown, and the thread\'s event: the fit, its base-rate weight, the rules that could flip it', async () => {
    const [fed, shutdown] = await Promise.all([talk('What would make you wrong on the Fed call?'), talk('What would make you wrong on the shutdown?')]);
    expect(fed[0]).toMatch(/^What would have to be true for the model's view on \*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\) to be wrong, from its report/);
    expect(fed[0]).toContain('and c = 0.00');
    expect(fed[0]).toContain("With c = 0 the series' base rate adds nothing");
    expect(fed[0]).toContain('- **Could flip the outcome:** “Resolution uses the Federal Reserve\'s statement; an unscheduled meeting before the scheduled one counts.”');
    expect(shutdown[0]).toContain('(KXSHUTDOWN-26DEC31) to be wrong');
    expect(shutdown[0]).toContain('Shutdown: 3 of 9 (33.3%)');
    const [, cpi, bare] = await talk(CPI, 'what would make the model wrong?', 'what would make you wrong?');
    expect(cpi).toContain('(KXCPIYOY-26DEC) to be wrong');
    expect(cpi).toContain('and c = 0.12');
    expect(bare).toContain('(KXCPIYOY-26DEC) to be wrong');
  });

  it('an event with no report: no model to be wrong yet, and the lock-in steps say there is none on its quotes', async () => {
    const [, steps, wrong] = await talk('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20', 'how do I trade the crossed prices step by step?', 'what would make you wrong?');
    expect(steps).toMatch(/^No arbitrage on the live quotes: .*the cheapest pair, YES on \*\*Above \$100,000\*\* at \$0\.05 and NO on \*\*Above \$104,000\*\* at \$0\.96/);
    expect(wrong).toMatch(/^No report is stored for \*\*Bitcoin price on November 20, 2026 at 10am ET\?\*\* \(KXBTCD-26NOV20\), so there is no model view to be wrong about yet/);
  });

  it('"what changed since the report?" says no data is newer than its snapshot; "when should I enter?" gives timing facts, not advice', async () => {
    const [, changed, enter] = await talk(FED, 'What changed since the report?', 'When should I enter - now or closer to the meeting?');
    expect(changed).toMatch(/^Nothing newer than the report can be compared: the report on \*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\) was built from data as of 2026-11-19 15:00 UTC, which is from a recorded snapshot/);
    expect(changed).toContain('not since:\n\n- **Price move, Hike 25bps:** −0.5 pts over 24 hours, −7.5 pts over 7 days');
    expect(enter).toMatch(/^When to enter is yours to decide: I do not give trading advice/);
    expect(enter).toContain('- **Trading closes** 2026-12-15 15:00 UTC (in 26 days)');
    expect(enter).toContain('- **Spreads now:** Cut more than 25bps $0.02; Cut 25bps $0.04; Hold $0.04; Hike 25bps $0.01');
    expect(enter).toContain('- **Volume surge, Cut 25bps:**');
  });

  it('the CPI crossing, asked without a thread: the legs to trade, then profit per pair and pairs, and the next questions stay on CPI', async () => {
    const [steps, sets, model, history, accuracy] = await talk(
      'In the CPI report, the prices cross - Above 2.8 is over Above 2.6. How do I trade that?',
      "What's the profit per set and how many sets can I do at the best prices?",
      "What is the model's probability for Above 3.2?",
      'How has CPI resolved historically?',
      'How accurate was the market historically in this series?',
    );
    expect(steps).toMatch(/^To lock in the crossed rungs on \*\*CPI year-over-year in December 2026\?\*\* \(KXCPIYOY-26DEC\):\n\n1\. Buy YES on \*\*Above 2\.6\*\* at \$0\.93 \(the ask\) \[1\]: 851\.5 contracts at that price/);
    expect(steps).toContain('2. Buy NO on **Above 2.8** at $0.05 (1 minus its $0.95 YES bid) [2]: 493 contracts at that price');
    expect(steps).toMatch(/Risks: Kalshi charges a fee on every leg.*Leg risk/);
    expect(sets).toMatch(/^- YES on \*\*Above 2\.6\*\* at \$0\.93 \[1\] and NO on \*\*Above 2\.8\*\* at \$0\.05 \[2\]: \$0\.98 a pair for \$1 sure .*\*\*2¢ profit per pair\*\* before fees; the best prices are good for \*\*493 pairs\*\* .*\*\*\$9\.86\*\* locked in/);
    expect(model).toMatch(/^- \*\*Above 3\.2\*\*: market 61\.0% \(mid\), model 52\.9%/);
    for (const text of [sets, model, history, accuracy]) expect(text).not.toMatch(/SpaceX|KXSPACEX/);
    expect(history).toContain('KXCPIYOY-26DEC');
    expect(accuracy).toContain('**Market accuracy:**');
  });

  it('"how many contracts can I do at the best prices?" after the crossed-price arbitrage: the pairs, not the whole report', async () => {
    const [, , , pairs] = await talk(CPI, "where's the edge?", 'is there an arbitrage in the crossed prices?', 'how many contracts can I do at the best prices?');
    expect(pairs).not.toMatch(/^# /);
    expect(pairs).toContain('the best prices are good for **493 pairs** (the thinnest leg, NO on Above 2.8)');
  });

  it('the Fed thread: a cut of any size, the spread as a share of the mid, the P&L if it resolves NO, and a side and outcome swapped', async () => {
    const [, cut, spread, , resolvesNo] = await talk(
      FED,
      "What's the implied probability of a cut of any size at the December meeting?",
      "What's the spread in cents and as a percentage of the mid on Cut 25bps?",
      "If I buy 100 YES on Hold at the ask and it resolves YES, what's my P&L?",
      'And if it resolves NO?',
    );
    expect(cut).toContain('Together: market 43.0% (their prices added up; 38.9% normalised to 100%)');
    expect(cut).not.toMatch(/offered at the ask/);
    expect(spread).toMatch(/^- \*\*Cut 25bps\*\*: bid \$0\.08, ask \$0\.12: a spread of \*\*4¢\*\*, \*\*40% of the 10¢ mid\*\*/);
    expect(resolvesNo).toMatch(/^If it resolves NO, the 100 YES contracts on \*\*Hold\*\* pay nothing: you lose the \*\*\$18\*\* paid \(100 × \$0\.18\)/);
    const [, , swapped] = await talk('fed report: model vs market for Hold', "what's the expected value of buying NO on Hold at the ask?", 'and YES on Hike 25bps?');
    expect(swapped).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\): .*Buying YES at \$0\.52 against the model's 50\.8%: expected value −\$0\.012 per \$1 contract/);
  });

  it('a report named: "show me the shutdown report" is the stored report; "a report on the NYC temperature market" says how one is generated', async () => {
    const [shutdown] = await talk('show me the shutdown report');
    expect(shutdown).toMatch(/^# Government shutdown by December 2026\?/);
    const [, whole] = await talk('Summarize the fed report in one sentence', 'give me the full report');
    expect(whole).toMatch(/^# Fed decision in December 2026\?/);
    const [nyc] = await talk('Give me a report on the NYC temperature market');
    expect(nyc).toMatch(/^\*\*Highest temperature in NYC on November 20, 2026\?\*\* \(KXHIGHNY-26NOV20\)/);
    expect(nyc).toContain('send this address to `svc-prediction-markets-agent` (3 credits');
    expect(nyc).not.toContain('none mentions');
  });

  it('the Fed overround: the sum, the NO-on-every-outcome lock-in, the steps to put it on, and beside the CPI crossing', async () => {
    const [overall, steps, versus] = await responsesChain(client)(
      'Is the Fed event mispriced overall? The prices add to more than 100%',
      'How do I lock in the arbitrage you mention, step by step?',
      'Is that worth it vs the CPI crossed prices?',
    );
    expect(overall).toContain('The market prices (mids) of the 4 outcomes add up to 110.5%: an overround of 10.5 points');
    expect(overall).toContain('$2.95 a set for $3 sure (every outcome but the winner pays), **5¢ profit per set** before fees; the best prices are good for **341 sets**');
    expect(steps).toMatch(/^To lock in the NO on every outcome on \*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\):\n\n1\. Buy NO on \*\*Cut more than 25bps\*\* at \$0\.68 \(1 minus its \$0\.32 YES bid\)/);
    expect(steps).toContain('hold them all to settlement');
    expect(versus).toContain('| Fed decision in December 2026? [1] | NO Cut more than 25bps $0.68 + NO Cut 25bps $0.92 + NO Hold $0.86 + NO Hike 25bps $0.49 | $2.95 for $3 | 5¢ | 341 | $17.05 |');
    const [, , fees] = await talk(FED, 'is there an arbitrage?', 'What are fees going to do to that 5 cents?');
    expect(fees).toMatch(/^Kalshi's fee is not in anything I read, so I cannot say what it will take; .*a set is 4 contracts \(one a leg\) and locks in 5¢ before fees, so the fees on those 4 contracts must total under 5¢, about 1\.25¢ a contract/);
    expect(versus).toContain('| CPI year-over-year in December 2026? [2] | YES Above 2.6 $0.93 + NO Above 2.8 $0.05 | $0.98 for $1 | 2¢ | 493 | $9.86 |');
  });
});
