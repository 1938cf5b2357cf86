import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { responsesChain } from '../../helpers/chain.js';
import { startService, type TestService } from '../../helpers/service.js';

// Trading questions about an event no report is stored for: answered from its live quotes (no
// report is generated here, so every event stays unreported).
let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') } });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
});
afterAll(() => svc.close());

/** Asks svc-agent each input in turn (previous_response_id); returns every answer. */
const chain = (...inputs: string[]) => responsesChain(client)(...inputs);

const LIVE_FOOTER = /_From Kalshi's live quotes for \*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\), as of 2026-11-19 15:00 UTC; no report is stored for it, so there is no model probability \(`svc-prediction-markets-agent` generates one, 3 credits\)\._\n$/;

describe('trading questions without a stored report', () => {
  it('what contracts cost and pay, the other side, an EV at the market price, carried from turn to turn', async () => {
    const [, cost, no, ev, count] = await chain('odds of a fed cut in december?', 'what would 200 yes contracts on a cut cost me', 'and the no side?', 'EV on that?', '200 of those');
    // Both cut outcomes ("a cut"), YES at the ask.
    expect(cost).toContain('**Cut more than 25bps** (KXFEDDECISION-26DEC-A): bid $0.32, ask $0.34');
    expect(cost).toContain('200 YES contracts at $0.34 cost $68, the most they can lose; if it resolves YES they pay $200, a profit of $132 before fees');
    expect(cost).toContain('200 YES contracts at $0.12 cost $24');
    expect(cost).not.toContain('Hold');
    expect(cost).toMatch(LIVE_FOOTER);
    // NO at 1 minus the bid, the same 200 of the same outcomes.
    expect(no).toContain('200 NO contracts at $0.68 cost $136');
    expect(no).toContain('200 NO contracts at $0.92 cost $184');
    // No model: valued at the market's own mid, the spread paid over it.
    expect(ev).toContain("at the market's own 67.0%, NO bought at $0.68 is worth −$0.010 per $1 contract before fees (−$2 on 200 contracts)");
    expect(ev).toContain("at the market's own 90.0%, NO bought at $0.92 is worth −$0.020 per $1 contract before fees (−$4 on 200 contracts)");
    expect(ev).toContain('This is arithmetic on the live prices, not investment advice');
    expect(ev).not.toMatch(/model's \d|NaN/);
    // A count of "those" is a number of contracts, not a search (of the side the thread is on).
    expect(count).toContain('200 NO contracts at $0.68 cost $136');
    // Only the footer speaks of a report: the answers are of the live quotes.
    for (const text of [cost, no, ev, count]) expect(text!.replace(LIVE_FOOTER, '')).not.toMatch(/\breport\b/);
  });

  it('an arbitrage on the live quotes, and Kelly on a chance the asker gives, again at another chance and a supposed price', async () => {
    const [, arb, kelly, again, priced, modelless] = await chain(
      'odds of a fed cut in december?',
      'is there an arb',
      "kelly on cut 25 if i think it's 20%, 1k bankroll",
      'and at 30%?',
      'and if it goes to 15c?',
      'kelly on hold with 1k?',
    );
    expect(arb).toMatch(/^Yes, on the live quotes:\n\n- NO on every outcome at 1 minus its YES bid: \$2\.95 for at least \$3 \(every outcome but the winner pays\), 5¢ locked in before fees/);
    // How many sets the best prices are good for: the thinnest leg's size.
    expect(arb).toContain('The best prices are good for 341 sets (the thinnest leg, NO on Cut 25bps); more fill at worse prices.');
    expect(kelly).toMatch(/^On your 20\.0% for Cut 25bps, the trade to size is \*\*YES on Cut 25bps\*\* at \$0\.12 against your 20\.0%: expected value \+\$0\.080 per \$1 contract \[1\]\. The Kelly fraction, \(p − c\)\/\(1 − c\) = \(20\.0% − \$0\.12\) \/ \(1 − \$0\.12\), is \*\*9\.1%\*\* of the bankroll; half Kelly 4\.5%\. On \$1,000: \$90\.91 \(757 contracts at \$0\.12\)/);
    expect(again).toMatch(/^On your 30\.0% for Cut 25bps[^\n]*is \*\*20\.5%\*\* of the bankroll[^\n]*On \$1,000: \$204\.55 \(1,704 contracts at \$0\.12; only 1,076\.5 YES are offered at \$0\.12, the rest filling at worse prices\)/);
    expect(priced).toMatch(/^Supposing YES on \*\*Cut 25bps\*\* trades at \$0\.15 \(NO at \$0\.85\), not the live quotes: on your 30\.0% for Cut 25bps[^\n]*is \*\*17\.6%\*\* of the bankroll/);
    // No chance given and no model: nothing to size on, said so.
    expect(modelless).toMatch(/^No report is stored for KXFEDDECISION-26DEC yet, so there is no model probability/);
  });

  it('a count\'s outcome said bare is that outcome, not a bankroll, and the half Kelly after it keeps its chance', async () => {
    // "On 3" is the outcome "3", not a $3 bankroll: (20% − $0.13) / (1 − $0.13) = 8.0% of $1,000.
    const three = ['expected number of spacex launches this week?', "kelly on 3 if i think it's 20%, 1k bankroll", 'half kelly then, how many contracts'];
    const [, kelly, half] = await chain(...three);
    expect(kelly).toMatch(/^On your 20\.0% for 3, the trade to size is \*\*YES on 3\*\* at \$0\.13[^\n]*is \*\*8\.0%\*\* of the bankroll[^\n]*On \$1,000: \$80\.46/);
    expect(half).toMatch(/^On your 20\.0% for 3, the trade to size is \*\*YES on 3\*\*[^\n]*On \$1,000: \$80\.46[^\n]*\$40\.23/);
  });

  it('a movie is the box-office event; "how often is it under 20m" is its series\' record', async () => {
    const [movie, , often] = await chain('will the new movie make more than 40 million opening weekend', 'whats most likely', 'how often is it under 20m');
    expect(movie).toContain('**Top film\'s domestic opening weekend, November 22, 2026?** (KXBOXOFFICE-26NOV22');
    expect(often).toMatch(/^How the KXBOXOFFICE series resolved: of its 12 settled events,[^\n]*\*\*Below \$20M\*\* 2 of 12/);
  });

  it("a team's recent record, what a contract is, the smallest stake: answered, not refused as outside sources", async () => {
    const [, recent, home, contract, minimum] = await chain('lakers or celtics who wins sat', 'how did lakers do recently', "what's the celtics record at home lately?", 'explain what a contract is', 'whats the minimum i can bet');
    for (const text of [recent, home, contract, minimum]) expect(text).not.toMatch(/^I cannot answer that/);
    // A team's games of the series, won and lost, each at home or away against whom.
    expect(recent).toMatch(/^The Lakers won \*\*5 of 14\*\* settled games in this series, all away \[1\]\. The last 5, newest first: L L L L W\.\n\n- KXNBAGAME-26NOV18LALBOS \(closed 2026-11-18\): away against the Celtics, \*\*lost\*\*/);
    expect(home).toMatch(/^The Celtics won \*\*9 of 14\*\* settled games at home in this series \[1\]\./);
    const [, chiefs, bills, away] = await chain('will KC beat Buffalo?', 'how have the chiefs done at home lately?', 'and the bills away?', 'and at home?');
    expect(chiefs).toMatch(/^The Chiefs won \*\*8 of 12\*\* settled games at home in this series \[1\]\. The last 5, newest first: L L W W W\./);
    expect(bills).toMatch(/^The Bills won \*\*4 of 12\*\* settled games away in this series \[1\]\./);
    expect(away).toMatch(/^The settled games of the series have no Bills game at home \[1\]\./);
    const [, versus] = await chain('lakers celtics odds', 'lakers record vs boston historically?');
    expect(versus).toMatch(/^The Lakers won \*\*5 of 14\*\* settled games against the Celtics in this series, all away \[1\]\./);
    expect(contract).toContain('Each contract pays $1.00 if its outcome happens and nothing if it does not');
    expect(minimum).toContain('ask $0.63');
  });

  it('an empty book is said plainly; what the market expects is the expected level; no placeholders where there is no model; fees, holders, legality and placing orders are said to be beyond it', async () => {
    const [, empty] = await chain("nfp december, what's priced?", 'can i buy below 0 right now?');
    expect(empty).toContain('**No**: right now nothing is offered on either side (no YES ask, no YES bid, so no NO either); $0.25 is its last trade, not a price you can get.');
    const [expects] = await chain('How many launches does the market expect from SpaceX this week?');
    expect(expects).toContain('the expected value is about 3.4');
    const favoured = (await client.responses.create({ model: 'svc-agent', input: "https://kalshi.com/markets/kxapproval/presidential-approval-rating/kxapproval-26nov27 who's favoured?" })).output_text;
    expect(favoured).not.toMatch(/the model gives it —|gap —/);
    const [, fees, holders, legal] = await chain('btc above 96k tomorrow?', 'what fees will kalshi charge me on 100 contracts?', 'who are the biggest holders of the 96k contract?', 'is kalshi legal in texas?');
    for (const text of [fees, legal]) expect(text).toMatch(/^I cannot answer that from what I read about \*\*Bitcoin price/);
    // Who holds is not public; how many are held is, the contract's open interest.
    expect(holders).toMatch(/^Who holds the contracts is not public in anything I read: the exchange shows only how many are held[^\n]*\n\n- \*\*Above \$96,000\*\*: 185,891 contracts open \[1\]\n/);
    const [, powell] = await chain("what's the economists' consensus forecast for december CPI?", 'what did Powell say at the last press conference?');
    expect(powell).toMatch(/^I cannot answer that from what I read about \*\*CPI year-over-year/);
    const [order] = await chain('can you place a 100 contract order on hike for me?');
    expect(order).toMatch(/^I only do financial research[^\n]*nor book, order or place trades for you/);
  });

  it('"is the ladder priced in order?" says yes or no first; "whats most likely" names the favourite; "what do I need to believe" is the breakeven', async () => {
    const [, seaIce] = await chain('arctic sea ice above 10 million square km?', 'is the ladder priced in order?');
    expect(seaIce).toMatch(/^\*\*Yes\*\*, in order: each rung further out is priced below the one before it \(Above 9\.5 53\.0% > Above 10\.0 23\.5% > Above 10\.5 9\.0% > Above 11\.0 8\.5%\)\./);
    expect(seaIce).not.toContain("report's");
    const [, cpi] = await chain('cpi december odds', 'is the ladder priced in order?');
    expect(cpi).toMatch(/^\*\*No\*\*: “Above 2\.8” \(96\.0%\) is priced over “Above 2\.6” \(92\.5%\)/);
    const [, likely] = await chain('will the new movie make more than 40 million opening weekend', 'whats most likely');
    expect(likely).toContain("The market's favourite is");
    const [, believe] = await chain('lakers celtics odds', 'what do I need to believe to buy the celtics at the ask?');
    expect(believe).toContain('Breakeven: YES at $0.39 needs a 39.0% chance to break even before fees');
  });

  it('"and at 25%?" after a Kelly on the chance of an EV before it sizes again at 25%', async () => {
    const [, , , again] = await chain("nfp december, what's priced?", 'ev of 200 yes on 150k to 225k if my fair is 30%', 'kelly on that with 4k', 'and at 25%?');
    // (25% − $0.21) / (1 − $0.21) = 5.1% of $4,000: $202.53.
    expect(again).toMatch(/^On your 25\.0% for 150k to 225k, the trade to size is \*\*YES on 150k to 225k\*\* at \$0\.21[^\n]*is \*\*5\.1%\*\*[^\n]*On \$4,000: \$202\.53/);
  });

  it('"what\'s hot?" after a thread on one event is the whole board again', async () => {
    const [, , hot, week] = await chain('biggest movers on kalshi today?', 'the second one?', "what's hot?", 'which markets moved the most this week?');
    expect(hot).toMatch(/^The busiest open events/);
    expect(week).toMatch(/^The open events whose prices moved most/);
  });

  it('a follow-up to follow-ups of a search is searched on the question that named the topic', async () => {
    const [, , below] = await chain('arctic sea ice extent end of november, odds?', 'between 10 and 10.5?', 'probability below 9.5?');
    expect(below).toContain('“below 9.5” is the other side of “Above 9.5”: about 47.0%.');
  });

  it('a range and the close asked in one question are both answered, with no model figure where there is no model', async () => {
    const [, both] = await chain('nyc high temp tmrw, whats the fav?', 'price on 48-51 and when does it close?');
    expect(both).toMatch(/^### Price on 48-51\n\n- \*\*48°F to 51°F\*\*: market 32\.0% \(mid; 25\.7% normalised\) \[1\]\n[\s\S]*### When does it close\?\n\n- \*\*Trading closes\*\* 2026-11-20 15:00 UTC/);
    expect(both).not.toMatch(/NaN|, model/);
  });

  it("a chance of one's own alone is what buying is worth on it; a count before an outcome is of its contracts", async () => {
    const [, mine, count] = await chain('nfl bills chiefs odds', 'what if i think the bills are 45%', 'what do 100 bills yes cost');
    expect(mine).toMatch(/^- \*\*Away team \(Bills\)\*\* \(KXNFLGAME-26NOV23BUFKC-B\): bid \$0\.38, ask \$0\.39[^\n]*Buying YES at \$0\.39 against your 45\.0%: expected value \+\$0\.060 per \$1 contract before fees, favoured on your estimate\./);
    expect(count).toContain('100 YES contracts at $0.39 cost $39, the most they can lose');
  });

  it('"which one has more volume?" after two events asked one after the other ranks those two by their trading', async () => {
    const [, , volume] = await chain('chance of a new frontier AI model by december?', 'and a government shutdown?', 'which one has more volume?');
    expect(volume).toMatch(/^The busiest open events, by contracts traded in the last 24 hours[^\n]*\n\n1\. \*\*Government shutdown by December 2026\?\*\* \(KXSHUTDOWN-26DEC31\)[^\n]*40,115 contracts traded in 24 hours \(191,420 since it opened\)\.\n2\. \*\*New frontier model from a top-3 lab by December 2026\?\*\* \(KXAIMODEL-26DEC19\)[^\n]*\(357,831 since it opened\)\.\n$/);
  });

  it('"half kelly on a 2.5k roll at that price" keeps the price, the chance and the outcome of the turns before', async () => {
    const [, , , half] = await chain('nfl bills chiefs odds', 'say the chiefs dip to 55¢, how much of a $5k bankroll if i think 63%?', 'and if it goes to 0.6?', 'half kelly on a 2.5k roll at that price');
    expect(half).toMatch(/^Supposing YES on \*\*Home team \(Chiefs\)\*\* trades at \$0\.60[^\n]*on your 63\.0%[^\n]*On \$2,500: \$187\.50 \(312 contracts at \$0\.60\) at full Kelly, \$93\.75 \(156 contracts at \$0\.60\) at half\./);
  });

  it('chat spellings of question words are no topics: "wuts the yes on 25bps cut", "wats teh odds bitcoin is abov 100k tmrw"', async () => {
    const [cut] = await chain('wuts the yes on 25bps cut');
    expect(cut).toMatch(/^Open Kalshi events matching “wuts the yes on 25bps cut”[^\n]*\n\n1\. \*\*Fed decision in December 2026\?\*\*/);
    const [btc] = await chain('wats teh odds bitcoin is abov 100k tmrw');
    expect(btc).toMatch(/^Open Kalshi events matching[^\n]*\n\n1\. \*\*Bitcoin price on November 20, 2026 at 10am ET\?\*\*[^\n]*\*\*Above \$100,000 4\.0%\*\*/);
  });

  it('two parts asked at once of an event with no report ("bills ML in american odds? and if i throw 250 on them what do i win?") are both answered on its quotes, with no model figure', async () => {
    const [, both] = await chain('https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc', 'bills ML in american odds? and if i throw 250 on them what do i win?');
    expect(both).toContain('- **Away team (Bills)**: market 38.5% (mid; 37.9% normalised) → +160 (decimal 2.60, fractional 8/5) [1]');
    expect(both).toContain('$250 buys 641 YES contracts at $0.39 ($249.99): if it resolves YES they pay $641, a profit of $391.01 before fees');
    expect(both).not.toMatch(/NaN|; model /);
  });

  it('"what changed since yesterday?" with no report: each price a day ago, from the exchange\'s quotes, and that a week needs a report', async () => {
    const [, day, week] = [...(await chain('approval rating odds for nov 27', 'What changed since yesterday?')), (await chain('approval rating odds for nov 27', 'Has the price moved this week?'))[1]];
    expect(day).toMatch(/^- \*\*Below 41%\*\*: \d+\.\d% 24 hours ago, [−+]\d+\.\d pts since; 16\.0% now\n/);
    expect(day).toContain("Counted back from the quotes' time");
    expect(week).toMatch(/^The exchange's quotes show each price a day ago, not a week ago/);
  });

  it('a position held is marked at the live quotes', async () => {
    const [, held] = await chain('lakers celts who u got', 'im in 200 celtics yes @ 45c, am i up?');
    expect(held).toMatch(/\*\*Your 200 YES at \$0\.45\*\* cost \$90; sold now at the bid, \$0\.\d\d, fetch \$\d+/);
    expect(held).toContain('This is arithmetic on the live prices, not investment advice');
    expect(held).not.toMatch(/model's \d|NaN/);
  });

  it('what the rules say, and when trading closes, from the event and its series, without a report', async () => {
    const [, ot, postponed, closes] = await chain('lakers celts who u got', 'what if the game goes to OT', 'and if its postponed?', 'can it close early?');
    expect(ot).toContain('“If the home team wins the game, including overtime, then the market resolves to Yes.”');
    expect(ot).toMatch(/- \*\*Resolution source:\*\* NBA\.com \[\d\]\./);
    expect(postponed).toContain('“If the game is postponed and not played within 48 hours, the market resolves to the fair price at the time of postponement.”');
    expect(closes).toMatch(/^- \*\*Trading closes\*\* 2026-11-21 15:00 UTC \(in 2 days\)/);
    const [, lapse, , breakeven] = await chain('will the government shut down?', 'what if the lapse is only like a few hours, does that count', 'buying 300 NO at the ask, whats my max loss', 'breakeven prob on that?');
    expect(lapse).toContain('“A lapse shorter than one business day that OPM does not announce does not count.”');
    // "On that": the NO bought the turn before.
    expect(breakeven).toContain('Breakeven: NO at $0.44 needs a 44.0% chance to break even before fees.');
    const [, no, , delayed] = await chain('cpi above 3 odds for dec?', 'the no side', 'EV on 100 of those', 'what happens if bls release is delayed, like a shutdown');
    expect(no).toContain('A NO contract costs $0.14 (1 minus the YES bid) and pays $1.00 if it resolves NO.');
    // Another event's topic mentioned in passing ("like a shutdown") keeps the thread's event.
    expect(delayed).toContain('if the release is delayed past the expiration date, the market resolves on the delayed release.');
  });

  it('reads traders\' shorthand: "before year end" is a date, "govt" the government, "nfp" payrolls, "whats closing this week" the week\'s events', async () => {
    const [shutdown] = await chain('will the govt shut down before year end?');
    expect(shutdown).toMatch(/^Open Kalshi events matching[^\n]*\n\n1\. \*\*Government shutdown by December 2026\?\*\* \(KXSHUTDOWN-26DEC31/);
    const [closing] = await chain('whats closing this week');
    expect(closing).toMatch(/^Open Kalshi events settling this week \(to 2026-11-26\), soonest first/);
    const [jobs, spread] = await chain('nfp dec, odds its above 150k?', 'spread on 75-150?');
    expect(jobs).toMatch(/\n\n1\. \*\*Jobs added in December 2026\?\*\* \(KXPAYROLLS-26DEC/);
    expect(spread).toMatch(/^- \*\*75k to 150k\*\* \(KXPAYROLLS-26DEC-C\): bid \$0\.27, ask \$0\.28, spread \$0\.01/);
  });

  it('an address quoted in backticks or asterisks is the address without them', async () => {
    for (const input of ['why does `<https://kalshi.com/markets/kxshutdown/shutdown/KXSHUTDOWN-26DEC31>` 404 for me?', 'is **https://kalshi.com/markets/kxshutdown/shutdown/KXSHUTDOWN-26DEC31** still open?']) {
      const [text] = await chain(input);
      expect(text).toContain('KXSHUTDOWN-26DEC31');
    }
  });

  it('after events compared on live prices, "which of those closes last?" and "the underdog in each of them?" are about those events; labels said without units either side of "or" add up', async () => {
    const [, last, underdogs, either] = await chain('compare the nyc temp, payrolls and approval markets', 'which of those closes last?', 'the underdog in each of them?', 'ok for the approval one, odds its below 41 or 41 to 42?');
    expect(last).toMatch(/^Of the 3 events listed, \*\*Jobs added in December 2026\?\*\* closes last, 2026-12-05 15:00 UTC/);
    expect(underdogs).toMatch(/^The market's least likely outcome in each of the 3 events listed/);
    expect(underdogs).toContain('(KXAPPROVAL-26NOV27) [2]: **43% to 44%** at 9.0%');
    expect(either).toContain('Together, “Below 41%” and “41% to 42%”: about 40.0% (31.5% normalised).');
  });

  it('"lift the offer for 150" is 150 contracts at the ask; a chance of one\'s own ("i got it at 75%") sizes Kelly on the outcome discussed, and "half kelly then" keeps that chance and bankroll', async () => {
    const [, lift, kelly, half] = await chain('eth above 3400 tomorrow?', "lift the offer for 150, what's that run me and what's the max payout", 'i got it at 75%, ev and full kelly on a 3k roll', 'half kelly then, how many contracts');
    expect(lift).toContain('150 YES contracts at $0.67 cost $100.50, the most they can lose; if it resolves YES they pay $150');
    expect(kelly).toMatch(/^On your 75\.0% for Above \$3,400, the trade to size is \*\*YES on Above \$3,400\*\* at \$0\.67[^\n]*is \*\*24\.2%\*\* of the bankroll; half Kelly 12\.1%\. On \$3,000: \$727\.27 \(1,085 contracts at \$0\.67; only 721\.5 YES are offered at \$0\.67, the rest filling at worse prices\) at full Kelly, \$363\.64 \(542 contracts at \$0\.67\) at half\./);
    expect(half).toContain('$363.64 (542 contracts at $0.67) at half');
  });

  it('settled events asked as traders do: "which strikes paid out on the sept cpi print?", "and october\'s?", "how many times has above 3.2 paid in the last 12"', async () => {
    const [sept, oct, count] = await chain('which strikes paid out on the sept cpi print?', "and october's?", 'how many times has above 3.2 paid in the last 12');
    expect(sept).toMatch(/^The September event of the series, \*\*KXCPIYOY-26SEP\*\* \(closed 2026-09-20\): \*\*Above 2\.6\*\*, \*\*Above 2\.8\*\*, \*\*Above 3\.0\*\* resolved YES/);
    expect(oct).toMatch(/^The October event of the series, \*\*KXCPIYOY-26OCT\*\*/);
    expect(count).toMatch(/^\*\*Above 3\.2\*\* resolved YES in 1 of the 12 settled events of the KXCPIYOY series/);
    const [, sep] = await chain('what did the fed do in october?', 'and sept?');
    expect(sep).toMatch(/^The September event of the series, \*\*KXFEDDECISION-26SEP\*\* \(closed 2026-09-20\): \*\*Cut 25bps\*\* resolved YES/);
  });

  it('a rule or date question that finds one event is answered from its rules: "which station is used for the nyc temp market?", "when does the shutdown market close?"', async () => {
    const [station] = await chain('which station is used for the nyc temp market?');
    expect(station).toContain('- **Resolution source:** National Weather Service, Central Park');
    const [close] = await chain('when does the shutdown market close?');
    expect(close).toMatch(/^- \*\*Trading closes\*\* 2026-12-31 15:00 UTC \(in 42 days\)[^\n]*\n- \*\*Trading may close early:\*\* “This market closes early once the outcome is determined\.”/);
  });

  it('a trade question of one event a search finds is worked on its quotes ("EV of 100 yes on eth above 3400 at the ask")', async () => {
    const [, , ev] = await chain('btc above 100k tmrw?', 'and eth?', 'EV of 100 yes on eth above 3400 at the ask');
    expect(ev).toMatch(/^- \*\*Above \$3,400\*\* \(KXETHD-26NOV20-T3400\)[^\n]*100 YES contracts at \$0\.67 cost \$67[^\n]*at the market's own 66\.0%, YES bought at \$0\.67 is worth −\$0\.010 per \$1 contract before fees \(−\$1 on 100 contracts\)/);
    const [, bills] = await chain('bills chiefs odds', 'bills ML in american odds? and if i throw 250 on them what do i get back');
    expect(bills).toMatch(/^Open Kalshi events matching[^\n]*\n\n1\. \*\*Bills at Chiefs on November 23, 2026: winner\?\*\*/);
  });

  it('levels of buckets add up: "the sum of the probabilities above 150k" is no overround, a bare "40" of buckets in millions is $40M; YES on every rung of a ladder is a basket with its payout wherever the result lands', async () => {
    const [above, all] = await chain('payrolls: sum of the probabilities above 150k?', 'do the prices add up to more than 100%?');
    expect(above).toContain('“above 150k” is “150k to 225k” and “Above 225k”, together 31.0% (24.9% normalised).');
    expect(above).not.toContain('overround');
    expect(all).toContain("The 5 outcomes' prices add up to 124.5%, 24.5 points over 100% (the overround");
    const [, below] = await chain('box office opening weekend odds?', 'and below 40?');
    expect(below).toContain('“below $40M” is “Below $20M” and “$20M to $40M”, together 78.0% (66.4% normalised).');
    const [, basket, at95, no] = await chain('btc end of day ladder prices?', 'what would YES on all the rungs cost?', 'and what do I get if btc ends at 95k?', '100 NO on each strike?');
    expect(basket).toMatch(/^One YES on each of the 4 rungs costs \*\*\$0\.70\*\* at the asks \[1\]\[2\]\[3\]\[4\]: Above \$92,000 \$0\.44, Above \$96,000 \$0\.15, Above \$100,000 \$0\.05, Above \$104,000 \$0\.06\.\n\n- Below \$92,000: none pays, −\$0\.70\n- Between \$92,000 and \$96,000: 1 rung pays \$1, \+\$0\.30\n[^]*- Above \$104,000: 4 rungs pay \$4, \+\$3\.30\n\nExpected payout \$0\.67 on the market's prices\. Not an arbitrage/);
    expect(at95).toContain('If the result is $95,000, 1 rung pays $1, +$0.30 before fees.');
    expect(no).toMatch(/^100 NO on each of the 4 rungs costs \*\*\$337\*\* at the NO asks/);
    expect(no).toContain('- Below $92,000: 4 rungs pay $400, +$63');
    expect(no).toContain('- Above $104,000: none pays, −$337');
  });

  it('what market words mean, each worked on an open event that shows it: "how do prediction markets work? what\'s an implied probability?", "what\'s a ladder market?", another example, "normalised", "the vig", "a kalshi contract and how does it pay"', async () => {
    const [both, ladder, again, normalised, vig] = await chain("how do prediction markets work? what's an implied probability?", "what's a ladder market?", 'give me an example from your data', "what does 'normalised' mean in your reports?", "what's the vig?");
    expect(both).toMatch(/^\*\*Prediction market\*\*: An exchange where people trade contracts[^\n]*\n\n_Example:_ In \*\*[^*]+\*\* \[1\], YES on \*\*[^*]+\*\* costs \d+¢/);
    expect(both).toMatch(/\n\n\*\*Implied probability\*\*: A contract paying \$1 that trades at 40¢ implies a 40% chance/);
    // A ladder's example is a ladder, with a band between two rungs priced in order.
    expect(ladder).toMatch(/^\*\*Ladder market\*\*: A ladder splits one figure/);
    const rungs = /_Example:_ In \*\*([^*]+)\*\* \[1\]\[2\]\[3\]\[4\]: Above [^\n]+\. So it lands between \S+ and \S+ with a chance of about \d+\.\d%\./.exec(ladder!);
    expect(rungs).not.toBeNull();
    // Another example is of another event.
    expect(again).toMatch(/^\*\*Ladder market\*\*/);
    expect(again).not.toContain(rungs![1]);
    expect(again).toMatch(/_Example:_ In \*\*[^*]+\*\* \[1\]\[2\][^\n]*: Above /);
    // Normalised and the overround, on an event of exclusive outcomes: 5 mids adding up to 124.5% (payrolls), or another.
    expect(normalised).toMatch(/^\*\*Normalised\*\*: [^\n]*\n\n_Example:_ In \*\*[^*]+\*\* [\[\]\d]+, the \d mids add up to \d+\.\d%, so \*\*[^*]+\*\* at \d+\.\d% is \d+\.\d% normalised\./);
    expect(vig).toMatch(/^\*\*Overround \(the vig\)\*\*: [^\n]*\n\n_Example:_ [^\n]*an overround of \d+\.\d points\. YES on every outcome at the asks costs \$\d\.\d\d for a \$1 payout\./);
    for (const text of [both, ladder, again, normalised, vig]) expect(text).toMatch(/_Examples from Kalshi's live quotes on \*\*[^*]+\*\*, as of 2026-11-19 15:00 UTC\._\n$/);
    const [contract] = await chain('what is a kalshi contract and how does it pay?');
    expect(contract).toMatch(/^\*\*Contract \(YES and NO\)\*\*: A contract is a yes\/no claim on one outcome\. A YES pays \$1 if the outcome happens/);
    expect(contract).not.toContain('KXPAYROLLS');
    // An event named with a market word is that event, not the word explained; in a thread, "what's the vig?" is the event's own.
    const [btc, vigOf] = await chain("what's the bitcoin ladder?", "what's the vig?");
    expect(btc).toMatch(/^Open Kalshi events matching/);
    expect(btc).toContain('KXBTCD-26NOV20');
    expect(vigOf).not.toMatch(/^\*\*Overround/);
  });

  it('a legal question of no event is said to be beyond what is read, naming no market; a level of another topic leaves the thread\'s event; "the nyc settlement source again?" after another event is NYC\'s', async () => {
    const [legal] = await chain('is trading on kalshi legal in new york?');
    expect(legal).toMatch(/^Whether you may trade on Kalshi where you are is a legal question I cannot answer/);
    expect(legal).not.toContain('KXHIGHNY');
    const [, eth, , source] = await chain('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20', 'what about eth above 3400?', 'and the shutdown?', "what's the nyc settlement source again?");
    expect(eth).toContain('KXETHD-26NOV20');
    expect(eth).not.toContain('56°F or above**: market');
    expect(source).toContain('- **Resolution source:** National Weather Service, Central Park');
  });

  it('"biggest movers this week?" after "what\'s hot" is the board\'s movers; "the spred" is the spread; "NO on 56 or above cost for 200?" is 200 NO', async () => {
    const [, movers] = await chain('hey whats hot on kalshi rn', 'biggest movers this week?');
    expect(movers).toMatch(/^The open events whose prices moved most in the last 24 hours/);
    const [, spread] = await chain('govt shutdwn odds??', 'wats the spred');
    expect(spread).toMatch(/^- \*\*Shutdown\*\* \(KXSHUTDOWN-26DEC31-YES\): bid \$0\.56, ask \$0\.60, spread \$0\.04/);
    const [, no] = await chain('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20 what\'s the most likely temperature bucket?', 'what would NO on 56 or above cost for 200?');
    expect(no).toContain('200 NO contracts at $0.58 cost $116, the most they can lose; if it resolves NO they pay $200');
  });

  it('a week ago asked of live quotes, which carry only the day before, says so and gives the day', async () => {
    const [, week] = await chain('bitcoin above 96k tomorrow?', 'and btc 96k a week ago?');
    expect(week).toMatch(/^The price a week ago is not in the exchange's quotes, which carry the price a day before only \(a report adds the 7-day line\); a day ago:\n\n- \*\*Above \$96,000\*\*: 14\.5% 24 hours ago, unchanged since; 14\.5% now \[1\]/);
  });

  it('words that only say how a figure ends up or how to answer name no event and are not said to be missing; another exchange is said not to be read', async () => {
    const [cpi] = await chain('cpi ladder: implied probability that yoy cpi lands between 2.8 and 3.0?');
    expect(cpi).toMatch(/^Open Kalshi events matching/);
    expect(cpi).toContain('KXCPIYOY-26DEC');
    const [movie] = await chain("what's kalshi expecting for box office this weekend?");
    expect(movie).toMatch(/^Open Kalshi events matching/);
    const [poly] = await chain('what does polymarket have on btc for tomorrow?');
    expect(poly).toMatch(/^I read Kalshi only, not Polymarket or other exchanges, so I cannot say what is priced there; what Kalshi shows:\n\n/);
    expect(poly).toContain('KXBTCD-26NOV20');
  });

  it('"which movie is this about?" is what the rules say the event is of; "how reliable have these markets been?" is the series\' record, its accuracy first', async () => {
    const [, movie, reliable, generate] = await chain("what's kalshi expecting for box office this weekend?", 'which movie is this about?', 'how reliable have these box office markets been?', 'ok generate the full report for it');
    expect(movie).toContain('the weekend\'s top new release');
    expect(reliable).toMatch(/^How the KXBOXOFFICE series resolved: of its 12 settled events/);
    expect(generate).toMatch(/^\*\*Top film's domestic opening weekend, November 22, 2026\?\*\* \(KXBOXOFFICE-26NOV22\)/);
    expect(generate).toContain('send this address to `svc-prediction-markets-agent` (3 credits');
  });

  it('"are the lakers home or away?" is read from the game\'s title; "quote me the exact resolution rule" and "the units on that?" quote the rules without saying they are silent', async () => {
    const [, side] = await chain('lakers celts who u got', 'are the lakers home or away?');
    expect(side).toMatch(/^The Lakers are away and the Celtics at home: the game is Lakers at Celtics, so on the exchange “Away team” is the Lakers and “Home team” the Celtics/);
    const [, exact, units] = await chain('cpi december odds', 'quote me the exact resolution rule', 'what are the units on that?');
    for (const text of [exact, units]) {
      expect(text).toMatch(/^- \*\*How it resolves\*\* \(as written for Above 2\.6\): “If CPI-U year-over-year, as first released by the BLS, is above 2\.6%/);
      expect(text).not.toContain('say nothing about');
    }
  });

  it('"convert to moneyline" after "whos the fav" is not of a level asked turns before', async () => {
    const [, , converted] = await chain('nfp odds above 200k', 'whos the fav', 'convert to moneyline');
    expect(converted).not.toMatch(/\*\*150k to 225k/);
    expect(converted).toContain('As bookmakers\' odds');
  });
});
