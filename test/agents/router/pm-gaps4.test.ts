import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Follow-ups in report threads answered from the stored reports' facts (src/agents/router/follow-gaps.ts).

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
const CPI = 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec';

describe('two named outcomes weighed against each other', () => {
  it('"will hike beat hold?" sets both side by side on the market and the model, and says what "beating" is among exclusive outcomes', async () => {
    const ask = await demo.thread(FED);
    const beat = await ask('will hike beat hold?');
    expect(beat).toMatch(/^\*\*Yes\*\*: \*\*Hike 25bps\*\* is ahead of \*\*Hold\*\* on both the market and the model\./);
    expect(beat).toContain('- **Hike 25bps**: market 51.5% (mid; 46.6% normalised), model 50.8% [1]');
    expect(beat).toContain('- **Hold**: market 16.0% (mid; 14.5% normalised), model 12.4% [2]');
    // 46.6 − 14.5 = 32.1 pts; 50.8 − 12.4 = 38.4 pts; neither: 29.8 + 7.0 = 36.8%.
    expect(beat).toContain('market +32.1 pts (normalised prices), 3.2 times as likely; model +38.4 pts, 4.1 times as likely');
    expect(beat).toContain('Neither (Cut more than 25bps, Cut 25bps) is 36.8% on the model');
    // The family: the other way round, "more likely than", "which is likelier" ("hold vs hike" keeps its own comparison).
    expect(await ask('is hold more likely than hike?')).toMatch(/^\*\*No\*\*: \*\*Hold\*\* is behind \*\*Hike 25bps\*\*/);
    expect(await ask('can hike win over hold?')).toMatch(/^\*\*Yes\*\*: \*\*Hike 25bps\*\* is ahead of \*\*Hold\*\*/);
    expect(await ask('which is likelier, hold or cut 25?')).toMatch(/^\*\*Hold\*\* is ahead of \*\*Cut 25bps\*\*[^\n]*\n\n- \*\*Hold\*\*: market 16\.0%/);
    // "Hike or hold?" alone is still their sum.
    expect(await ask('hike or hold?')).toMatch(/Together: market 67\.5%/);
  });

  it('two rungs of a ladder are compared in the order said, and said not to exclude each other', async () => {
    const ask = await demo.thread(FED, CPI);
    const rungs = await ask('will above 3.0 beat above 2.8?');
    expect(rungs).toMatch(/^\*\*Above 3\.0\*\* is behind \*\*Above 2\.8\*\* on both the market and the model\./);
    expect(rungs).toContain('rungs of one ladder, not exclusive outcomes');
    expect(rungs).toContain('(KXCPIYOY-26DEC)');
  });
});

const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31';

describe('the expected value of a number of contracts', () => {
  it('"ev of 100 yes" works the sum out on the 100 and states what it assumes', async () => {
    const ask = await demo.thread(SHUTDOWN);
    const ev = await ask('ev of 100 yes');
    expect(ev).toContain('expected value −$0.039 per $1 contract before fees (−$3.90 on 100 contracts), not favoured on the model');
    // 0.561 × $40 − 0.439 × $60 = −$3.90.
    expect(ev).toContain('Worked out: 56.1% × $40 won − 43.9% × $60 lost = −$3.90.');
    expect(ev).toMatch(/It assumes all 100 filled at \$0\.60 \(992\.5 are offered there\), held to settlement \(each contract pays \$1 or nothing\), the model's 56\.1% as the true chance, and no fees/);
    expect(ev).toContain('not investment advice');
    // NO at 1 − $0.56: 0.439 × $280 − 0.561 × $220 = −$0.50.
    expect(await ask('ev on 500 no')).toContain('Worked out: 43.9% × $280 won − 56.1% × $220 lost = −$0.50.');
  });
});

describe('an outcome said alone in a thread of two reports', () => {
  it('"and hold?" asks the question before again, of the report that has a Hold, whichever report that question was of', async () => {
    const ask = await demo.thread(FED, CPI);
    await ask('ev of 100 yes on above 3.0');
    const hold = await ask('and hold?');
    // The EV again, on Hold: 0.124 × $82 − 0.876 × $18 = −$5.60.
    expect(hold).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\)[^\n]*100 YES contracts at \$0\.18 cost \$18[^\n]*\(−\$5\.60 on 100 contracts\)/);
    expect(hold).toContain('(KXFEDDECISION-26DEC), as of');
    // Back past the ellipsis to the question asked, of the CPI's rung this time.
    expect(await ask('and above 2.8?')).toMatch(/^- \*\*Above 2\.8\*\* \(KXCPIYOY-26DEC-T2\.8\)[^\n]*100 YES contracts at \$0\.97 cost \$97/);
    expect(await ask('what about cut 25?')).toMatch(/^- \*\*Cut 25bps\*\* \(KXFEDDECISION-26DEC-B\)[^\n]*100 YES contracts at \$0\.12 cost \$12/);
  });

  it('a spread asked, then "and above 2.8?", is that rung\'s spread; a price asked keeps the whole name swapped ("cut 25bps", not "cut")', async () => {
    const ask = await demo.thread(FED, CPI);
    await ask('spread on hold?');
    expect(await ask('and above 2.8?')).toMatch(/^- \*\*Above 2\.8\*\* \(KXCPIYOY-26DEC-T2\.8\): bid \$0\.95, ask \$0\.97, spread \$0\.02/);
    await ask('odds of cut 25bps?');
    expect(await ask('and hold?')).toMatch(/^- \*\*Hold\*\*: market 16\.0% \(mid; 14\.5% normalised\), model 12\.4%, gap −2\.1 pts \[1\]/);
  });
});

describe('"why?" after a worst case', () => {
  it('explains the worst case just given from the report\'s facts, not the method section', async () => {
    const ask = await demo.thread(FED);
    await ask('worst case?');
    const why = await ask('why?');
    expect(why).toMatch(/^Why the worst case is what it is:/);
    expect(why).toContain('the most a bought contract can lose is what was paid for it');
    // NO on Cut 25bps costs 1 − $0.08 = $0.92 and loses with 7.0%; YES on it costs $0.12 and loses with 93.0%.
    expect(why).toContain('**The largest loss per contract** is NO on Cut 25bps ($0.92), and it loses only 7.0% of the time on the model; **the likeliest loss** is YES on Cut 25bps (93.0%), which costs $0.12.');
    expect(why).not.toContain('We fitted');
    expect(why).not.toContain('σ(a + b');
    const named = await demo.thread(FED);
    await named('ev of 100 no on hike');
    await named('worst case?');
    const so = await named('how so?');
    expect(so).toContain('- **NO on Hike 25bps** costs $0.49 (1 minus the $0.51 YES bid) [1]; it loses if Hike 25bps happens: 50.8% on the model');
    expect(so).toContain('100 contracts × $0.49 = $49, the whole stake');
  });
});

describe('"is that good or bad" after a list', () => {
  it('"list the outcomes" is the outcome table, and "is that good or bad" judges each outcome on the model at the quotes', async () => {
    const ask = await demo.thread(FED);
    const list = await ask('list the outcomes');
    expect(list).toMatch(/^The 4 outcomes of this event \(only one can resolve YES\):\n\n- \*\*Cut more than 25bps\*\*: market 33\.0%/);
    expect(list).toContain('Their prices add up to 110.5%');
    expect(list).not.toContain('## Resolution history');
    const judged = await ask('is that good or bad');
    expect(judged).toMatch(/^Good or bad depends on the side and the price\. On the model, at the report's quotes, 4 trades are worth more than they cost \(before fees\); the other sides lose on average:/);
    // NO on Cut more than 25bps at 1 − $0.32 = $0.68 against 70.2%: +$0.022; YES at $0.34 against 29.8%: −$0.042.
    expect(judged).toContain('- **Cut more than 25bps**: NO at $0.68 +$0.022, YES at $0.34 −$0.042: **good** as NO on the model (+$0.022 a contract) [1]');
    expect(judged).toContain('- **Hike 25bps**: NO at $0.49 +$0.002, YES at $0.52 −$0.012: **barely good** as NO');
    expect(judged).toContain('not investment advice');
  });
});

const NYC = 'https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20';

describe('a level said with "%"', () => {
  it('"is 3% high" in a thread on the CPI and NYC temperature reports is the CPI\'s rung at 3.0, never a temperature bucket', async () => {
    const ask = await demo.thread(CPI, NYC);
    const high = await ask('is 3% high');
    expect(high).toMatch(/^\*\*No\*\*: on the market 3% is on the low side of what it expects: it gives 86\.5% that the figure comes in above 3% \(the model 73\.4%\) \[1\]\. More than half the market's weight is above 3\.2, the highest rung\./);
    expect(high).toContain('(KXCPIYOY-26DEC), as of');
    expect(high).not.toMatch(/°F/);
    expect(await ask('is 3.2% low?')).toMatch(/^\*\*Yes\*\*: on the market 3\.2% is on the low side[^\n]*61\.0%/);
  });
});

describe('"rank them by EV"', () => {
  it('ranks every outcome of the report by EV per contract (model minus ask), with the figures and NO beside', async () => {
    const ask = await demo.thread(FED);
    const ranked = await ask('rank them by EV');
    // Hike 0.508 − 0.52 = −0.012; Cut >25 0.298 − 0.34 = −0.042; Cut 25 0.07 − 0.12 = −0.050; Hold 0.124 − 0.18 = −0.056.
    expect(ranked).toMatch(/\| 1 \| Hike 25bps \[\d\] \| 50\.8% \| \$0\.52 \| \*\*−\$0\.012\*\* \| \$0\.49 \| \+\$0\.002 \|\n\| 2 \| Cut more than 25bps \[\d\] \| 29\.8% \| \$0\.34 \| \*\*−\$0\.042\*\* \| \$0\.68 \| \+\$0\.022 \|\n\| 3 \| Cut 25bps [^\n]*−\$0\.050[^\n]*\n\| 4 \| Hold [^\n]*−\$0\.056/);
    expect(ranked).toContain('The best side overall is NO on **Cut more than 25bps** (+$0.022)');
    expect(await ask('sort the outcomes by expected value')).toMatch(/\| 1 \| Hike 25bps/);
  });
});

describe('a conditional question across two markets', () => {
  it('"if the fed hikes what does the cpi market imply" gives each market alone and says no joint distribution is known', async () => {
    const ask = await demo.thread(FED, CPI);
    const cond = await ask('if the fed hikes what does the cpi market imply');
    expect(cond).toMatch(/^Nothing I read says what the CPI year-over-year in December 2026 market implies \*given\* \*\*Hike 25bps\*\*: [^\n]*no joint distribution of the two/);
    expect(cond).toContain('- **Hike 25bps**: market 51.5% (mid; 46.6% normalised), model 50.8%');
    expect(cond).toContain('- **Above 3.0**: market 86.5% (mid), model 73.4%');
    expect(cond).toContain('multiplying the two would assume they are independent');
  });
});
