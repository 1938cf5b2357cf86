import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
const NYC = 'https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20';
const CPI = 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec';
const PAYROLLS = 'https://kalshi.com/markets/kxpayrolls/nonfarm-payrolls/kxpayrolls-26dec';

const conversation = (...events: string[]) => demo.thread(...events);

describe('prediction-market follow-ups in svc-agent threads', () => {
  it('a cut of any size: the cut outcomes\' prices added up and their normalised share, each said for what it is', async () => {
    const fed = await conversation(FED);
    const cut = await fed('a cut of any size?');
    // 33.0% + 10.0% as quoted; 29.9% + 9.0% normalised; 29.8% + 7.0% on the model.
    expect(cut).toContain('Together: market 43.0% (their prices added up; 38.9% normalised to 100%), model 36.8% [1][2].');
    expect(cut).not.toMatch(/^Open Kalshi events/);
    expect(await fed('expected extent of the cut?')).toMatch(/^A cut of any size: 43\.0% on the market's prices added up \(38\.9% normalised to 100%\), 36\.8% on the model;/);
  });

  it('a follow-up naming another outcome after a Kelly sizing that named one repeats the sizing for it', async () => {
    const nyc = await conversation(NYC);
    expect(await nyc('half kelly on 48-51 with $1000')).toMatch(/^On the model, the trade to size is \*\*NO on 48°F to 51°F\*\* at \$0\.69/);
    // NO on 56°F or above at 1 − $0.42 bid = $0.58 against the model's 63.0%: (0.630 − 0.58) / 0.42 = 11.9%.
    const next = await nyc('and the 56+ bucket?');
    expect(next).toMatch(/^On the model, the trade to size is \*\*NO on 56°F or above\*\* at \$0\.58 against the model's 63\.0%[^\n]* is \*\*11\.9%\*\* of the bankroll; half Kelly 6\.0%\. On \$1,000: \$119\.05 \(205 contracts at \$0\.58\) at full Kelly/);
    expect(next).not.toContain('48°F to 51°F');
    expect(await nyc('what about below 44?')).toMatch(/^On the model, the trade to size is \*\*NO on Below 44°F\*\*[^\n]*On \$1,000:/);
    const fed = await conversation(FED);
    await fed('kelly on hike with a 5k bankroll?');
    expect(await fed('and hold?')).toMatch(/^On the model, the trade to size is \*\*NO on Hold\*\* at \$0\.86[^\n]*On \$5,000: \$571\.43/);
  });

  it("two outcomes' weekly moves, then 'and today?': both outcomes, over the last day", async () => {
    const fed = await conversation(FED);
    // The report's prices 24 hours and 7 days ago: Cut 25bps 9.0% and 8.0% (now 10.0%); Hold 16.0% and 15.0% (now 16.0%).
    const week = await fed('how did hold and cut 25 move this week?');
    expect(week).toMatch(/^- \*\*Cut 25bps\*\*: 8\.0% 7 days ago, \+2\.0 pts since; 10\.0% now\n- \*\*Hold\*\*: 15\.0% 7 days ago, \+1\.0 pts since; 16\.0% now \[1\]/);
    expect(week).not.toContain('Cut more than 25bps');
    const day = await fed('and today?');
    expect(day).toMatch(/^- \*\*Cut 25bps\*\*: 9\.0% 24 hours ago, \+1\.0 pts since; 10\.0% now\n- \*\*Hold\*\*: 16\.0% 24 hours ago, unchanged since; 16\.0% now \[1\]/);
    expect(day).not.toContain('Cut more than 25bps');
  });

  it("the model's favourite in each of the reports discussed: per event, the outcome the model gives the highest probability", async () => {
    const thread = await conversation(FED, NYC, CPI);
    await thread('which has the biggest gap?');
    const each = await thread("the model's favourite in each of them");
    expect(each).toMatch(/^The model's favourite in each event, the outcome it gives the highest probability/);
    expect(each).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC) [2]: **Hike 25bps**: model 50.8%; market 51.5% (mid; 46.6% normalised)');
    expect(each).toContain('(KXHIGHNY-26NOV20) [3]: **56°F or above**: model 37.0%; market 43.0%');
    // Two rungs tied at the model's 84.4%; a ladder's rung is no likeliest result.
    expect(each).toContain('(KXCPIYOY-26DEC) [1]: **Above 2.6**: model 84.4%; market 92.5% (mid), and **Above 2.8**: model 84.4%; market 96.0% (mid) (tied on the model); each rung is its own yes/no');
    expect(each).not.toMatch(/largest gap/i);
  });

  it("'and if i'm wrong?' right after a stake or an EV: what is lost, and how likely that is on the model and the market", async () => {
    const fed = await conversation(FED);
    await fed('ev of 100 yes on hike');
    const wrong = await fed("and if i'm wrong?");
    // 100 YES at $0.52 cost $52; NO on Hike 25bps is 100% − 50.8% = 49.2% on the model, 100% − 51.5% = 48.5% on the price (100% − 46.6% = 53.4% normalised).
    expect(wrong).toMatch(/^If \*\*Hike 25bps\*\* resolves NO, the YES contracts on it are worth nothing at settlement\. 100 YES contracts at \$0\.52: you lose the \*\*\$52\*\* they cost/);
    expect(wrong).toContain("Kalshi's fee is not in what I read, so it is not counted");
    expect(wrong).toContain("**49.2%** on the model (100% − its 50.8%) and **48.5%** on the market's price (100% − 51.5%; 53.4% on the price normalised with the other outcomes) [1].");
    expect(wrong).not.toMatch(/^- \*\*Hike 25bps\*\* \(KX/);
    // (40 whole contracts at $0.49 cost $19.60, the $19.61 of Kelly's fraction rounded down to contracts.)
    await fed('kelly on hike with a 5k bankroll?');
    const sized = await fed('what if im wrong');
    expect(sized).toMatch(/^If \*\*Hike 25bps\*\* resolves YES, the NO contracts on it are worth nothing at settlement\.\n\n- At full Kelly, 40 NO contracts at \$0\.49: you lose the \*\*\$19\.60\*\* they cost[^\n]*\(\$20\.40 more than they cost\)\.\n- At half Kelly, 20 NO contracts at \$0\.49: you lose the \*\*\$9\.80\*\*/);
    expect(sized).toContain("**50.8%** on the model (its 50.8% for YES) and **51.5%** on the market's price (its 51.5% for YES; 46.6% on the price normalised with the other outcomes) [1].");
    // Other words for it, after a stake of NO; and after a position's risk.
    await fed('200 no on hold');
    expect(await fed('what do i lose if it goes the other way')).toMatch(/^If \*\*Hold\*\* resolves YES, the NO contracts on it are worth nothing at settlement\. 200 NO contracts at \$0\.86: you lose the \*\*\$172\*\* they cost[^\n]*\(\$28 more than they cost\)\./);
    await fed('is buying NO on hold risky?');
    expect(await fed('and if i am wrong?')).toMatch(/^If \*\*Hold\*\* resolves YES, the NO contracts on it are worth nothing at settlement\. Each NO contract bought at \$0\.86 loses the \*\*\$0\.86\*\* it cost/);
  });

  it('open questions are answered from the report: the risk of a position, what stands out, the trades the model values most per dollar', async () => {
    const fed = await conversation(FED);
    // YES on Hike 25bps at the $0.52 ask: it loses on NO, 100% − 50.8% on the model, 100% − 51.5% on the price (100% − 46.6% normalised).
    expect(await fed('is buying NO on hold risky?')).toMatch(/^The risk of \*\*NO on Hold\*\*, from the report:\n\n- \*\*Price and chance of losing:\*\* NO on \*\*Hold\*\* costs \$0\.86[^\n]*\*\*12\.4%\*\* on the model, \*\*16\.0%\*\* on the market's price/);
    const risky = await fed('how risky is buying hike?');
    expect(risky).toMatch(/^The risk of \*\*YES on Hike 25bps\*\*, from the report:\n\n- \*\*Price and chance of losing:\*\* YES on \*\*Hike 25bps\*\* costs \$0\.52 and pays \$1\.00 if it resolves YES; it loses if it resolves NO: \*\*49\.2%\*\* on the model, \*\*48\.5%\*\* on the market's price \(its YES at 51\.5%; 53\.4% on the price normalised with the other outcomes\) \[1\]\./);
    expect(risky).toContain('- **Worst case:** the whole $0.52 a contract, 100% of the stake (before fees)');
    expect(risky).toContain('- **Spread:** bid $0.51, ask $0.52 ($0.01)');
    expect(risky).toMatch(/- \*\*Trading closes\*\* 2026-12-15 15:00 UTC \(in 26 days\)/);
    expect(risky).toContain('- **Price move, Hike 25bps:** −0.5 pts over 24 hours, −7.5 pts over 7 days [1].');
    expect(risky).toMatch(/- \*\*What could flip it \(the rules\):\*\* “Resolution uses the Federal Reserve's statement/);
    expect(risky).toContain('not investment advice');
    // "Is that a safe bet?" right after an EV of YES on hold: that position.
    await fed('ev of 100 yes on hold');
    expect(await fed('is that a safe bet?')).toMatch(/^The risk of \*\*YES on Hold\*\*[^\n]*\n\n- \*\*Price and chance of losing:\*\* YES on \*\*Hold\*\* costs \$0\.18[^\n]*\*\*87\.6%\*\* on the model, \*\*84\.0%\*\* on the market's price/);
    const fresh = await conversation(FED);
    expect(await fresh('is this a safe bet?')).toMatch(/^No contract is safe: each can lose all it costs\. The one the model values most at the quotes is \*\*NO on Cut more than 25bps\*\*; its risk:/);
    const stands = await fresh('what stands out?');
    expect(stands).toMatch(/^What stands out in the report:\n\n- \*\*Largest gaps, model vs market:\*\* Hike 25bps: model 50\.8% against the market's 46\.6% normalised \(51\.5% mid\), gap \+4\.2 pts \[1\]; Hold: model 12\.4% against the market's 14\.5% normalised \(16\.0% mid\), gap −2\.1 pts \[2\]\./);
    expect(stands).toContain('- **Biggest move:** Hike 25bps, 59.0% a week ago to 51.5% now (−7.5 pts); over the last day Cut 25bps (+1.0 pts)');
    expect(stands).toContain("- **Overround:** the exclusive outcomes' prices add up to 110.5%, 10.5 points over 100%");
    const play = await fresh("what's the smartest play here?");
    expect(play).toMatch(/^I do not give investment advice, so there is no play I would call smartest; what the report's figures do say: the positions with the best expected value per dollar on the model/);
    // NO on Cut more than 25bps at $0.68 against 70.2%: +$0.022 a contract, 0.022 / 0.68 = +$0.032 a dollar.
    expect(play).toContain("1. **NO on Cut more than 25bps** at $0.68 against the model's 70.2%: +$0.022 per $1 contract, +$0.032 per dollar staked [1]");
    expect(play).not.toMatch(/^# Fed decision/);
    // A ladder: what stands out includes its crossed strikes.
    const cpi = await conversation(CPI);
    expect(await cpi('anything interesting here?')).toContain('- **Crossed ladder:** Above 2.8 at 96.0% against Above 2.6 at 92.5%');
  });

  it('the cheapest exposure to one side of a level: the contracts that pay there, their costs, the cheapest per dollar of payout', async () => {
    const nyc = await conversation(NYC);
    const above = await nyc('cheapest way to get exposure above 52?');
    expect(above).toMatch(/^Contracts that pay if the result is above 52, at the report's quotes:\n\n- \*\*YES on 56°F or above\*\* pays \$1 only if it lands in 56°F or above, not in the part of 52°F to 55°F above 52: \$0\.44/);
    expect(above).toContain('- **YES on 52°F to 55°F and 56°F or above** pays $1 if it lands in 52°F to 55°F or 56°F or above: every case above 52, and the rest of 52°F to 55°F too: 52°F to 55°F $0.23 + 56°F or above $0.44 = $0.67');
    // NO on the three buckets below at 1 − bid: 0.83 + 0.91 + 0.69 = 2.43, of which $2 comes back whatever happens.
    expect(above).toContain('- **NO on Below 44°F, 44°F to 47°F and 48°F to 51°F** pays $3 if it lands outside them (every case above 52, and the rest of 52°F to 55°F too), $2 whatever happens: Below 44°F $0.83 + 44°F to 47°F $0.91 + 48°F to 51°F $0.69 = $2.43');
    expect(above).toContain('Cheapest per dollar of payout of those that pay in every case above 52: **NO on Below 44°F, 44°F to 47°F and 48°F to 51°F**, $0.43 for each $1 it pays on that side (before fees).');
    expect(above).toContain('not investment advice');
    expect(above).not.toMatch(/is dear/);
    const cpi = await conversation(CPI);
    const ladder = await cpi('cheapest way to get exposure above 3.0?');
    expect(ladder).toContain('- **YES on Above 3.0** pays $1 if it is above 3.0: $0.87 for $1 (at the ask)');
    expect(ladder).toContain('- **YES on Above 3.2** pays $1 only if it is above 3.2, not in every case above 3.0: $0.62');
    expect(ladder).toContain('Cheapest per dollar of payout of those that pay in every case above 3.0: **YES on Above 3.0**, $0.87');
    // Citations match the sources listed.
    const r = await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: NYC }, { role: 'assistant', content: await demo.reportOf(NYC) }, { role: 'user', content: 'cheapest way to get exposure above 52?' }] });
    const cites = (r.choices[0] as any).citations as { order: number; name: string }[];
    expect(cites.map((c) => c.order)).toEqual([1, 2, 3, 4, 5]);
    expect(cites[0]!.name).toContain('56°F or above');
  });

  it('a lower-case rival named after a verb of beating is said to be missing, as a capitalised one is; ordinary words are not', async () => {
    const fed = await conversation(FED);
    expect(await fed('will bitcoin beat dogecoin?')).toMatch(/^No open Kalshi event matches all of “will bitcoin beat dogecoin\?”: none mentions “dogecoin”\./);
    expect(await fed('will Bitcoin beat Dogecoin?')).toMatch(/: none mentions “dogecoin”\./i);
    const fresh = await conversation(FED);
    const ordinary = await fresh('will bitcoin keep climbing?');
    expect(ordinary).not.toContain('none mentions');
  });
});
