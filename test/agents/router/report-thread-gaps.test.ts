import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Follow-ups in threads on prediction-market reports that were answered weakly: the side a Kelly
// sizes, a price the asker gives, two things compared, a tie in a book of positions, the book of
// one bucket, ordinary words said to be missing from the events, and a one-sentence summary.

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const EVENTS = {
  fed: 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec',
  btc: 'https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20',
  nfl: 'https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc',
  nyc: 'https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20',
  box: 'https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22',
  shutdown: 'https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31',
  eth: 'https://kalshi.com/markets/kxethd/ethereum-price-end-of-day/kxethd-26nov20',
  cpi: 'https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec',
  approval: 'https://kalshi.com/markets/kxapproval/presidential-approval-rating/kxapproval-26nov27',
  spacex: 'https://kalshi.com/markets/kxspacex/spacex-launches-per-week/kxspacex-26nov24',
  ai: 'https://kalshi.com/markets/kxaimodel/frontier-ai-model-release/kxaimodel-26dec19',
  ice: 'https://kalshi.com/markets/kxseaice/arctic-sea-ice-extent/kxseaice-26dec',
};

const thread = (...events: string[]) => demo.thread(...events);

describe('report threads: follow-ups answered weakly before', () => {
  it('"kelly on that" after an EV of YES sizes YES, the side discussed (no edge: it stakes nothing, and says the other side has one); a bankroll and "the no side" go on from there', async () => {
    const ask = await thread(EVENTS.fed);
    expect(await ask("what's the EV of buying yes on hold?")).toContain("Buying YES at $0.18 against the model's 12.4%");
    const kelly = await ask('kelly on that');
    expect(kelly).toMatch(/^The Kelly criterion stakes nothing here: on the model, \*\*YES on Hold\*\* at \$0\.18 against the model's 12\.4%/);
    // The other side is said to be the other side, not sized in its place.
    expect(kelly).toContain("The other side has the edge: NO on Hold at $0.86 against the model's 87.6%");
    expect(kelly).toContain('a Kelly fraction of 11.4% of the bankroll');
    expect(kelly).not.toMatch(/the trade to size is \*\*NO/);
    const bankroll = await ask('ok kelly on that with 2k');
    expect(bankroll).toMatch(/^The Kelly criterion stakes nothing here: on the model, \*\*YES on Hold\*\*/);
    expect(bankroll).toContain('$228.57 of $2,000');
    expect(await ask('and on the no side?')).toMatch(/^On the model, the trade to size is \*\*NO on Hold\*\* at \$0\.86[^\n]*On \$2,000: \$228\.57 \(265 contracts at \$0\.86\) at full Kelly/);
  });

  it('an EV at a price the asker gives is at that price, said bare ("at 12", "at 40") or with cents, and "filled at 15 cents" is that price, not the book; a bare number that is a level is the level', async () => {
    const ask = await thread(EVENTS.fed);
    await ask("what's the EV of buying yes on hold?");
    const twelve = await ask('what if I buy yes at 12?');
    expect(twelve).toMatch(/^- \*\*Hold\*\*/);
    expect(twelve).toContain("Supposing YES trades at $0.12 (NO at $0.88), not the quotes above. Buying YES at $0.12 against the model's 12.4%: expected value +$0.004");
    expect(await ask("what's the ev buying hike at 40?")).toContain("Buying YES at $0.40 against the model's 50.8%: expected value +$0.108");
    const filled = await ask('ev if i get filled at 15 cents');
    expect(filled).toContain('Buying YES at $0.15');
    expect(filled).not.toMatch(/offered at the ask|at the ask and pays/);
    // "At 48" of a bucket at 48°F is the bucket, bought at its ask.
    const nyc = await thread(EVENTS.nyc);
    const bucket = await nyc("what's the ev if i buy yes at 48?");
    expect(bucket).toMatch(/^- \*\*48°F to 51°F\*\*/);
    expect(bucket).toContain('Buying YES at $0.33');
  });

  it('"which of those two moved more this week?" compares both: two outcomes asked one after the other, or two events reported', async () => {
    const ask = await thread(EVENTS.fed);
    await ask("what's the price of hold?");
    await ask('and hike?');
    const moved = await ask('which of those two moved more this week?');
    expect(moved).toMatch(/^- \*\*Hike 25bps\*\*: 59\.0% 7 days ago, −7\.5 pts since; 51\.5% now\n- \*\*Hold\*\*: 15\.0% 7 days ago, \+1\.0 pts since; 16\.0% now \[\d\]/);
    expect(moved).toContain('**Hike 25bps** moved more over the last 7 days: 7.5 pts against 1.0 for Hold.');
    const events = await thread(EVENTS.fed, EVENTS.btc);
    const both = await events('which of those two moved more this week?');
    expect(both).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC) [2]: its largest move over the last 7 days is **Hike 25bps**, 59.0% then, 51.5% now (−7.5 pts)');
    expect(both).toContain('(KXBTCD-26NOV20) [1]: its largest move over the last 7 days is **Above $96,000**, 4.0% then, 14.5% now (+10.5 pts)');
    expect(both).toMatch(/\*\*Bitcoin price on November 20, 2026 at 10am ET\?\*\* moved more over the last 7 days: 10\.5 pts on its largest mover against 7\.5 for \*\*Fed decision/);
  });

  it('"and if it ends in a tie?" of a book of positions: the game\'s rule on a tie, quoted, and what it does to each position; the other event is left to its own result', async () => {
    const ask = await thread(EVENTS.nfl, EVENTS.fed);
    expect(await ask('i have 100 yes on the chiefs and 50 no on hike')).toMatch(/^Your 2 positions cost \*\*\$88\.50\*\*/);
    const tie = await ask('and if it ends in a tie?');
    expect(tie).toMatch(/^On a tie, your positions come to between \*\*−\$88\.50\*\* and \*\*−\$38\.50\*\*, as the other events resolve:/);
    expect(tie).toContain('(KXNFLGAME-26NOV23BUFKC): its rules say “A tie resolves both markets to No.” So 100 YES on Home team (Chiefs) pays nothing: **−$64** on what it cost.');
    expect(tie).toContain('(KXFEDDECISION-26DEC): the rules its report quotes say nothing of a tie');
    // Both sides of the one game: NO pays in full on a tie.
    const game = await thread(EVENTS.nfl);
    await game('i have 100 yes on the chiefs and 50 no on the bills');
    expect(await game('what if the game is tied?')).toContain('So 100 YES on Home team (Chiefs) pays nothing, 50 NO on Away team (Bills) pays $50');
  });

  it('"how many can i get filled at the ask" after NO on one bucket: that bucket, NO first, at 1 minus the YES bid', async () => {
    const ask = await thread(EVENTS.nyc);
    await ask('ev of buying no on 48 to 51?');
    const depth = await ask('how many can i get filled at the ask');
    expect(depth).toMatch(/^- \*\*48°F to 51°F\*\* \(KXHIGHNY-26NOV20-C\)[^\n]*\. 1,711 NO contracts at \$0\.69, the other side of the 1,711 YES bid at \$0\.31/);
    expect(depth).not.toMatch(/Below 44°F|56°F or above/);
  });

  it('ordinary words no event has ("keep climbing", "pull off the upset", "stays flat") are not said to be missing; a name, a place or a rival still is', async () => {
    const ask = await thread(EVENTS.fed);
    for (const q of ['will bitcoin keep climbing?', 'odds the bills pull off the upset?', 'chance btc stays flat?', 'does the approval rating keep sliding?', 'how about ethereum, similar story?']) {
      const text = await ask(q);
      expect(text, q).toMatch(/^Open Kalshi events matching/);
      expect(text, q).not.toContain('none mentions');
    }
    expect(await ask('bitcoin vs dogecoin odds')).toContain('none mentions “dogecoin”');
    expect(await ask('odds of snow in london?')).toContain('none mentions “london”');
    expect(await ask('will openai release something new?')).toContain('none mentions “openai”.');
  });

  it('"summarize in one sentence" reads in plain words, like the plain-language forms, for every kind of event', async () => {
    const plain = /normalised|\(mid|\bpts\b|overround|\bgap\b/;
    const nyc = await (await thread(EVENTS.nyc))('summarize in one sentence');
    expect(nyc).toMatch(/^On Kalshi's “Highest temperature in NYC on November 20, 2026\?” market, traders see “56°F or above” as the likeliest result, at about 35%/);
    expect(nyc.split('\n\n')[0]).not.toMatch(plain);
    const game = await (await thread(EVENTS.nfl))('give me a one-liner');
    expect(game).toMatch(/^On Kalshi's “Bills at Chiefs on November 23, 2026: winner\?” market, traders see “Home team \(Chiefs\)” as the likeliest result, at about 62%/);
    expect(game.split('\n\n')[0]).not.toMatch(plain);
  });

  it('"is hold undervalued?" in a thread about an event is the model against the price of that outcome, not stock advice; a company named still is', async () => {
    const ask = await thread(EVENTS.fed);
    expect(await ask('is hold undervalued?')).toMatch(/^\*\*No\*\*: on the model, \*\*Hold\*\* is dear: the model gives 12\.4% against a market price of 16\.0%/);
    expect(await ask('is hike overvalued?')).toMatch(/^\*\*Yes\*\*: on the model, \*\*Hike 25bps\*\* is dear/);
    expect(await ask('is apple undervalued?')).toMatch(/^I do not give investment advice/);
  });

  it('in a thread on two reports, an outcome of the first ("price of hike?" after the Fed, then Bitcoin) is the first\'s, "its spread" stays there, and two outcomes of two events are compared', async () => {
    const ask = await thread(EVENTS.fed, EVENTS.btc);
    const hike = await ask('price of hike?');
    expect(hike).toMatch(/^- \*\*Hike 25bps\*\*: market 51\.5%/);
    expect(hike).toContain('_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC)');
    expect(await ask('and its spread?')).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\): bid \$0\.51, ask \$0\.52, spread \$0\.01/);
    expect(await ask('what about above 100k?')).toMatch(/^- \*\*Above \$100,000\*\*: market 4\.0%/);
    const moved = await ask('which of those two moved more this week?');
    expect(moved).toContain('(KXBTCD-26NOV20) [1]: **Above $100,000** moved +2.5 pts over the last 7 days, 1.5% then, 4.0% now.');
    expect(moved).toContain('(KXFEDDECISION-26DEC) [2]: **Hike 25bps** moved −7.5 pts over the last 7 days, 59.0% then, 51.5% now.');
    expect(moved).toContain('**Hike 25bps** (KXFEDDECISION-26DEC) moved more over the last 7 days: 7.5 pts against 2.5 for **Above $100,000** (KXBTCD-26NOV20).');
  });

  it("a novice's follow-ups: what the market is about, a stake on the trade just recommended (its side), whether it happens 'or not', when we find out", async () => {
    const box = await thread(EVENTS.box);
    expect(await box('hey so what is this market about?')).toMatch(/^\*\*Top film's domestic opening weekend, November 22, 2026\?\*\*, in plain words: the market lists 5 outcomes/);
    expect(await box('ok so which one should i bet on?')).toMatch(/^On the model, the best buy at current prices is \*\*NO on Above \$80M\*\* at \$0\.80/);
    const stake = await box('how much would i win if i put 20 bucks on it?');
    expect(stake).toMatch(/^- \*\*Above \$80M\*\*/);
    expect(stake).toContain('$20 buys 25 NO contracts at $0.80 ($20): if it resolves NO they pay $25, a profit of $5 before fees');
    const shutdown = await thread(EVENTS.shutdown);
    expect(await shutdown('so is the government going to shut down or not?')).toMatch(/^\*\*Yes\*\*: \*\*Shutdown\*\* is at 58\.0% \(mid\), more likely than not/);
    expect(await shutdown('when do we find out?')).toMatch(/^- \*\*Trading closes\*\* 2026-12-31 15:00 UTC \(in 42 days\); expected resolution 2026-12-31 17:00 UTC/);
  });

  it("a trader's shorthand on a ladder: 'on yes there' is the rung discussed, 'buy 200 at 35c' is 200 contracts at that price, 'buckets sum to what?' the overround, 'and the 56+ bucket?' after a Kelly that Kelly of it", async () => {
    const eth = await thread(EVENTS.eth);
    await eth('eth above 3400 odds?');
    expect(await eth('whats the breakeven on yes there')).toMatch(/^- \*\*Above \$3,400\*\* \(KXETHD-26NOV20-T3400\)[^\n]*Breakeven: YES at \$0\.67 needs a 67\.0% chance/);
    const loss = await eth('and if i buy 200 at 35c whats my max loss');
    expect(loss).toMatch(/^- \*\*Above \$3,400\*\*/);
    expect(loss).toContain('200 YES contracts at $0.35 cost $70, the most they can lose');
    expect(loss).not.toContain('Above $3,000');
    const nyc = await thread(EVENTS.nyc);
    expect(await nyc('buckets sum to what?')).toMatch(/^The market prices \(mids\) of the 5 outcomes add up to 124\.5%: an overround of 24\.5 points/);
    await nyc('whats the ev of 52-55 no');
    expect(await nyc('kelly on it with 1k')).toMatch(/^On the model, the trade to size is \*\*NO on 52°F to 55°F\*\*/);
    expect(await nyc('and the 56+ bucket?')).toMatch(/^On the model, the trade to size is \*\*NO on 56°F or above\*\* at \$0\.58[^\n]*On \$1,000: \$119\.05/);
    expect(await nyc('what about 48 to 51?')).toMatch(/^On the model, the trade to size is \*\*NO on 48°F to 51°F\*\* at \$0\.69/);
  });

  it('"how did the market do predicting the last few?" is its record of calling them, first', async () => {
    const cpi = await thread(EVENTS.cpi);
    expect(await cpi('how did the market do predicting the last few?')).toMatch(/^\*\*Market accuracy:\*\* contracts priced above 50% 24 h before close resolved YES, and those below it NO, in 10 of 16 cases \(62\.5%\)\./);
  });

  it('"which of these two is more mispriced?" after two events asked about one by one compares the two from their reports', async () => {
    const ask = await thread(EVENTS.approval, EVENTS.spacex);
    await ask('whats the approval rating expected to be?');
    await ask('and how many launches this week likely?');
    const compared = await ask('which of these two is more mispriced?');
    expect(compared).toMatch(/^Of the 2 reports in this conversation, the largest gap between model and market is in \*\*SpaceX orbital launches in the week ending November 24, 2026\?\*\*/);
    expect(compared).toContain('(KXAPPROVAL-26NOV27) [2]: **41% to 42%**');
  });

  it('"who\'s gonna release first?" of an event with one contract says it prices whether, not who; "who\'s gonna win?" of a game is its favourite', async () => {
    expect(await (await thread(EVENTS.ai))("who's gonna release first?")).toMatch(/^It does not price who: this event has one yes\/no contract, \*\*Release\*\*: the market gives it 37\.0% \(mid\)/);
    expect(await (await thread(EVENTS.nfl))("who's gonna win?")).toMatch(/^The market's favourite is \*\*Home team \(Chiefs\)\*\* at 63\.0%/);
  });

  it('"kelly on that" after an EV at a price the asker gave is sized at that price, on the side valued', async () => {
    const ask = await thread(EVENTS.ice);
    expect(await ask('whats the ev of 100 yes on above 10 at 70c')).toContain("Buying YES at $0.70 against the model's 20.7%");
    const kelly = await ask('kelly on that');
    expect(kelly).toMatch(/^Supposing YES on \*\*Above 10\.0\*\* trades at \$0\.70 \(NO at \$0\.30\), not the report's quotes: the Kelly criterion stakes nothing here: on the model, \*\*YES on Above 10\.0\*\* at \$0\.70/);
    expect(kelly).toContain("The other side has the edge: NO on Above 10.0 at $0.30 against the model's 79.3%");
  });
});
