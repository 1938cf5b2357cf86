import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Follow-ups in report threads: an outcome picked by its rank after one named, the figure against an
// earlier reading, the favourite's break-even alone, a conditional's sources, a restatement's casing.

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const NYC = 'https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20';
const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
const CPI = 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec';

describe('an outcome picked by its rank, after an answer on another', () => {
  it('"and the longshot?" after the favourite is the least likely outcome, not the favourite again', async () => {
    const ask = await demo.thread(NYC);
    expect(await ask("what's the most likely?")).toMatch(/^The market's favourite is \*\*56°F or above\*\*/);
    expect(await ask('and the longshot?')).toMatch(/^The market's least likely outcome is \*\*44°F to 47°F\*\* at 10\.0%/);
    expect(await ask('what about the favourite?')).toMatch(/^The market's favourite is \*\*56°F or above\*\*/);
    expect(await ask('and the underdog?')).toMatch(/^The market's least likely outcome is \*\*44°F to 47°F\*\*/);
  });

  it('after a question on one outcome ("spread on 52 to 55?"), "and the longshot?" asks it again of the longshot', async () => {
    const ask = await demo.thread(NYC);
    await ask('spread on 52 to 55?');
    expect(await ask('and the longshot?')).toMatch(/^The market's least likely outcome is \*\*44°F to 47°F\*\* at 10\.0%[^\n]*\n\n- \*\*44°F to 47°F\*\* \(KXHIGHNY-26NOV20-B\): bid \$0\.09, ask \$0\.11, spread \$0\.02/);
    await ask('spread on 48 to 51?');
    expect(await ask('how about the favourite?')).toMatch(/^The market's favourite is \*\*56°F or above\*\*[^\n]*\n\n- \*\*56°F or above\*\* \(KXHIGHNY-26NOV20-E\): bid \$0\.42, ask \$0\.44/);
    // ("Is it the favourite?" still points back at the outcome discussed.)
    await ask('odds of 52 to 55?');
    expect(await ask('is it the favourite?')).toMatch(/^\*\*No\*\*: \*\*52°F to 55°F\*\* is at 22\.0%/);
    // (A range that is one outcome, asked whether it is the favourite, is that yes or no, not the range's chance; "Yes" goes on in lower case.)
    expect(await ask('is 52 to 55 the favourite?')).toMatch(/^\*\*No\*\*: \*\*52°F to 55°F\*\* is at 22\.0%[^\n]*The market's favourite is \*\*56°F or above\*\*/);
    expect(await ask('is 56 or above the favourite?')).toMatch(/^\*\*Yes\*\*: the market's favourite is \*\*56°F or above\*\*/);
  });
});

describe('the figure against an earlier reading', () => {
  it('"is it going to be warmer than last week?" says the report holds no reading, what it expects, and the past week\'s results, not a price move', async () => {
    const ask = await demo.thread(NYC);
    await ask('and the longshot?');
    const warmer = await ask('is it going to be warmer than last week?');
    expect(warmer).toMatch(/^The report does not hold the temperature observed last week, so it cannot say whether this one comes in warmer than that/);
    expect(warmer).toContain('the expected value is about **51.4°F** and the median outcome **52°F to 55°F**');
    expect(warmer).toContain('The likeliest outcome is **56°F or above** on the market, at 43.0% (mid; 34.5% normalised), and on the model, at 37.0%');
    expect(warmer).toContain('the 6 that closed in the 7 days before the report');
    expect(warmer).toContain('- KXHIGHNY-26NOV18 (closed 2026-11-18): 52°F to 55°F (36.0% before close)');
    expect(warmer).not.toMatch(/7 days ago, [+−-]/);
    const colder = await ask('colder than yesterday?');
    expect(colder).toMatch(/^The report does not hold the temperature observed yesterday/);
    expect(colder).toContain('- KXHIGHNY-26NOV18 (closed 2026-11-18)');
    expect(colder).not.toContain('KXHIGHNY-26NOV17');
  });

  it('of a ladder ("will cpi come in higher than last month?") the same, the last result placed on its rungs; a price asked is still a move', async () => {
    const ask = await demo.thread(CPI);
    const higher = await ask('will cpi come in higher than last month?');
    expect(higher).toMatch(/^The report does not hold the figure observed last month/);
    expect(higher).toMatch(/\n- KXCPIYOY-\w+ \(closed [\d-]+\): [^\n]*, so the result was /);
    expect(await ask('is above 3.0 priced higher than a week ago?')).toMatch(/^- \*\*Above 3\.0\*\*: [\d.]+% 7 days ago/);
  });
});

describe('a trade asked of the top bucket', () => {
  it('"break-even price for the top bucket" is the favourite\'s alone', async () => {
    const ask = await demo.thread(NYC);
    const top = await ask('break-even price for the top bucket');
    expect(top).toMatch(/^The market's favourite is \*\*56°F or above\*\* at 43\.0%/);
    expect(top).toContain('Breakeven: YES at $0.44 needs a 44.0% chance');
    expect(top).not.toContain('Below 44°F');
    expect(await ask('spread on the top outcome?')).not.toContain('48°F to 51°F');
    expect(await ask('breakeven on the bottom bucket')).toMatch(/^The market's least likely outcome is \*\*44°F to 47°F\*\*/);
  });
});

describe('a conditional across two reports', () => {
  it('cites each report\'s sources, and says it is from both', async () => {
    const ask = await demo.thread(FED, CPI);
    const res = await demo.client.chat.completions.create({
      model: 'svc-agent',
      messages: [
        { role: 'user', content: FED },
        { role: 'assistant', content: await demo.reportOf(FED) },
        { role: 'user', content: CPI },
        { role: 'assistant', content: await demo.reportOf(CPI) },
        { role: 'user', content: 'if the fed hikes what does the cpi market imply' },
      ],
    });
    const text = res.choices[0]!.message.content!;
    expect(text).toContain('- **Hike 25bps**: market 51.5% (mid; 46.6% normalised), model 50.8% [1]');
    expect(text).toContain('- **Above 3.2**: market 61.0% (mid), model 52.9% [5]');
    expect(text).toMatch(/_From the stored reports on \*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\), as of [^_]+ and on \*\*CPI year-over-year in December 2026\?\*\* \(KXCPIYOY-26DEC\)/);
    const cited = (res.choices[0] as unknown as { citations?: { url: string }[] }).citations ?? [];
    expect(cited.length).toBe(5);
    expect(cited[0]!.url).toMatch(/KXFEDDECISION-26DEC/i);
    expect(cited[4]!.url).toMatch(/KXCPIYOY-26DEC/i);
    expect(await ask('assuming a hold, what are the cpi odds?')).toContain('- **Hold**: market 16.0% (mid; 14.5% normalised), model 12.4% [1]');
  });
});

describe('the plain-words restatement after its colon', () => {
  it('goes on in lower case after "Put simply:", an ordinary word, never a name', async () => {
    const ask = await demo.thread(FED, CPI);
    await ask('if the fed hikes what does the cpi market imply');
    expect(await ask('explain in plain words')).toMatch(/^Put simply: nothing I read says what/);
    await ask('odds of hold?');
    expect(await ask('explain that simply')).toMatch(/^Put simply: on Kalshi's “Fed decision in December 2026\?” market, traders put about 16% on “Hold”/);
    const fed = await demo.thread(FED);
    await fed('odds of hold?');
    expect(await fed('explain that simply')).toMatch(/^Put simply: traders put about 16% on “Hold”/);
    await fed('who does the model favour?');
    expect(await fed('in plain english')).toMatch(/^Put simply: the model favours Hike 25bps/);
  });
});

const ETH = 'https://kalshi.com/markets/kxethd/ethereum/kxethd-26nov20';
const NFL = 'https://kalshi.com/markets/kxnflgame/nfl/kxnflgame-26nov23bufkc';

describe('"why so low?" of the outcome discussed', () => {
  it('explains that outcome\'s price from the report (was the whole report); of a ladder with no rung discussed, asks which rung', async () => {
    const game = await demo.thread(NFL);
    await game("who's favoured?");
    expect(await game('why so high?')).toMatch(/^\*\*Home team \(Chiefs\)\*\* is priced at 63\.0%[^\n]*the model, which weighs the series' record against the price/);
    await game('and the other side?');
    expect(await game('why is it so low?')).toMatch(/^\*\*Away team \(Bills\)\*\* is priced at 38\.5%/);
    const eth = await demo.thread(ETH);
    await eth('whats the most likely range');
    const which = await eth('why so low?');
    expect(which).toMatch(/^Which rung\? Each is its own yes\/no on a level/);
    expect(which).not.toContain('## Key takeaway');
    await eth('odds of above 3600?');
    expect(await eth('how come its so low')).toMatch(/^\*\*Above \$3,600\*\* is priced at 34\.0% \(last trade\)/);
  });
});

const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31';
const SPACEX = 'https://kalshi.com/markets/kxspacex/spacex/kxspacex-26nov24';
const PAYROLLS = 'https://kalshi.com/markets/kxpayrolls/payrolls/kxpayrolls-26dec';

describe('prices asked in cents or as a percentage', () => {
  it('"odds in cents?" gives each price in cents and the model\'s fair price; "as a percentage?" goes back to chances', async () => {
    const ask = await demo.thread(SHUTDOWN);
    expect(await ask('odds in cents?')).toMatch(/^- \*\*Shutdown\*\*: 58¢ \(bid 56¢, ask 60¢\), a 58\.0% chance on the market; the model's 56\.1% makes a fair price of about 56¢ \[1\]/);
    expect(await ask('as a percentage?')).toMatch(/the market gives it 58\.0% \(mid\)/);
    const eth = await demo.thread(ETH);
    await eth('odds of above 3400?');
    expect(await eth('in cents?')).toMatch(/^- \*\*Above \$3,400\*\*: 66¢ \(bid 65¢, ask 67¢\)/);
    expect(await eth('how much is above 3600 in cents')).toMatch(/^- \*\*Above \$3,600\*\*: 34¢ \(no two-sided quote, last trade 34¢\)/);
    const game = await demo.thread(NFL);
    expect(await game('whats the implied prob of the bills in percent')).toMatch(/^- \*\*Away team \(Bills\)\*\*: market 38\.5%/);
    expect(await game('and in cents?')).toMatch(/^- \*\*Away team \(Bills\)\*\*: 38\.5¢ \(bid 38¢, ask 39¢\)/);
  });

  it('"cents" names no topic of a search ("whats the chiefs in cents" finds the game)', async () => {
    const ask = await demo.thread(PAYROLLS, NFL);
    const chiefs = await ask('whats the chiefs in cents');
    expect(chiefs).not.toContain('none mentions');
    expect(chiefs).toContain('Bills at Chiefs');
  });
});

describe('the book asked for a size, the largest gap asked why, a range that is one outcome', () => {
  it('"is it liquid enough to trade 5k contracts?" sets 5,000 against what the best price is good for', async () => {
    const ask = await demo.thread(SHUTDOWN);
    const liquid = await ask('is it liquid enough to trade 5k contracts?');
    expect(liquid).toContain('992.5 YES contracts are offered at the ask');
    expect(liquid).toContain('5,000 is more than the 992.5 YES the best price is good for');
    expect(await ask('enough liquidity for 500 contracts?')).toContain('500 fits within the 992.5 YES offered at the best price');
    // ("How's the book on 48 to 51" was the outcome's price alone.)
    const nyc = await demo.thread(NYC);
    expect(await nyc('hows the book on 48 to 51')).toMatch(/^- \*\*48°F to 51°F\*\* \(KXHIGHNY-26NOV20-C\): bid \$0\.31, ask \$0\.33[^\n]*YES contracts are offered at the ask/);
  });

  it('"why?" after "which outcome is mispriced the most?" takes that gap apart on the fit (was the method paragraph)', async () => {
    const ask = await demo.thread(SPACEX);
    expect(await ask('which outcome is mispriced the most?')).toMatch(/^The largest gap is the outcome \*\*3\*\*/);
    const why = await ask('why?');
    expect(why).toMatch(/^The largest gap: \*\*3\*\*, the model's 15\.1%/);
    expect(why).toContain('**The price, stretched:**');
    // (So after "Model and market agree within 2 points …; the largest gap is **…**".)
    const game = await demo.thread(NFL);
    expect(await game('which side is mispriced?')).toMatch(/^Model and market agree within 2 points on every outcome; the largest gap is \*\*Home team \(Chiefs\)\*\*/);
    expect(await game('why?')).toMatch(/^The largest gap: \*\*Home team \(Chiefs\)\*\*, the model's 64\.0%/);
    await ask('whats the spread on 4?');
    const longshot = await ask('and on the longshot?');
    expect(longshot).toMatch(/^The market's least likely outcome is \*\*3\*\* at 12\.5%/);
    expect(longshot).not.toContain('**4**');
  });

  it('a range said as an outcome\'s own ("0 to 75k") is that outcome\'s line, not "“0 to 75k” is **0 to 75k**"', async () => {
    const ask = await demo.thread(PAYROLLS);
    expect(await ask('wats the modle say on 0 to 75k')).toMatch(/^- \*\*0 to 75k\*\*: market 41\.0% \(last trade; 32\.9% normalised\), model 34\.5%/);
    expect(await ask('odds of 75k to 150k?')).toMatch(/^- \*\*75k to 150k\*\*: market 27\.5%/);
  });
});

const SEA_ICE = 'https://kalshi.com/markets/kxseaice/sea-ice/kxseaice-26dec';

describe('switching between two reported events in one thread', () => {
  it('a question naming the other event by a word of its own title is answered from its report, whatever was discussed last', async () => {
    const ask = await demo.thread(SEA_ICE, SPACEX);
    expect(await ask('back to sea ice, which rung is mispriced most?')).toMatch(/^The largest gap is \*\*Above 10\.0\*\*[\s\S]*\(KXSEAICE-26DEC\)/);
    expect(await ask('and the spacex one, whats the favourite?')).toMatch(/^The market's favourite is \*\*2 or fewer\*\*[\s\S]*\(KXSPACEX-26NOV24\)/);
    expect(await ask('back to sea ice, spread on above 10?')).toMatch(/^- \*\*Above 10\.0\*\* \(KXSEAICE-26DEC-T10\.0\)/);
    const game = await demo.thread(PAYROLLS, NFL);
    // (Was a search listing on live prices, with no model.)
    expect(await game('back to payrolls: whats the most likely bucket?')).toMatch(/^The market's favourite is \*\*0 to 75k\*\*[\s\S]*_From the stored report on \*\*Jobs added in December 2026\?\*\*/);
    expect(await game('whats the chiefs price')).toMatch(/^- \*\*Home team \(Chiefs\)\*\*: market 63\.0%[^\n]*model 64\.0%/);
  });

  it('"which is more mispriced, sea ice or spacex?" weighs both reports', async () => {
    const ask = await demo.thread(SEA_ICE, SPACEX);
    const both = await ask('which is more mispriced, sea ice or spacex?');
    expect(both).toMatch(/^Of the 2 reports in this conversation, the largest gap between model and market is in \*\*SpaceX orbital launches/);
    expect(both).toContain('2. **Arctic sea ice extent at the end of November 2026?** (KXSEAICE-26DEC)');
    // (An event named by its usual short form: "eth" of Ethereum's.)
    const pair = await demo.thread(ETH, SHUTDOWN);
    await pair('and the shutdown, how confident?');
    expect(await pair('which one has the better edge, eth or shutdown?')).toMatch(/^Of the 2 reports in this conversation, the largest gap between model and market is in /);
    expect(await pair('when does the eth one close?')).toMatch(/^- \*\*Trading closes\*\* 2026-11-20 15:00 UTC/);
  });
});

describe('chat spellings and a ladder asked for its favourite', () => {
  it('"how confidnet are u" is the confidence (was refused as outside); "what wuld change ur mind" the catalysts', async () => {
    const ask = await demo.thread(PAYROLLS);
    expect(await ask('how confidnet are u')).toMatch(/^Confidence, outcome by outcome/);
    expect(await ask('what wuld change ur mind')).toMatch(/^What could move it before the end, from the report/);
  });

  it('"whats the spred on the fav" of a ladder says it has none, then gives every rung', async () => {
    const ask = await demo.thread(SEA_ICE);
    expect(await ask('whats the spred on the fav')).toMatch(/^A ladder has no favourite: each rung is its own yes\/no on a level, so here is every rung\.\n\n- \*\*Above 9\.5\*\*/);
  });
});

describe('back to the other event of the thread, by an outcome or a team', () => {
  it('"who wins the chiefs game?", "back to the game, why so low on the bills?", "what would make u wrong on the bills" are of the game\'s report', async () => {
    const ask = await demo.thread(NFL, SEA_ICE);
    // (Was a search listing on live prices.)
    expect(await ask('who wins the chiefs game?')).toMatch(/^The model favours \*\*Home team \(Chiefs\)\*\* at 64\.0%; the market prices it at 63\.0%/);
    await ask('is the sea ice ladder priced in order?');
    expect(await ask('back to the game, why so low on the bills?')).toMatch(/^\*\*Away team \(Bills\)\*\* is priced at 38\.5%/);
    expect(await ask('what would make u wrong on the bills')).toMatch(/^What would have to be true for the model's view on \*\*Bills at Chiefs/);
  });
});

describe('a level said alone after another outcome', () => {
  it('"what about 4?" after "5 or more" is the outcome 4 (was 5 or more again)', async () => {
    const ask = await demo.thread(SPACEX);
    await ask('odds of 5 or more?');
    expect(await ask('why so low?')).toMatch(/^\*\*5 or more\*\* is priced at 25\.0%/);
    expect(await ask('what about 4?')).toMatch(/^- \*\*4\*\*: market 38\.0%/);
    const nyc = await demo.thread(NYC);
    await nyc('odds of 56 or above?');
    expect(await nyc('and 53?')).toMatch(/52°F to 55°F/);
  });
});

describe('one sentence', () => {
  it('"one sentence" alone of a report is one sentence; after a conditional across two reports, that answer in one sentence (was one report\'s summary)', async () => {
    const fed = await demo.thread(FED);
    const one = await fed('one sentence');
    expect(one.split('\n')[0]).toMatch(/^On Kalshi's “Fed decision in December 2026\?” market, traders see “Hike 25bps” as the likeliest result[^\n]*\.$/);
    expect(one.split('\n')[0]!.match(/\. /g)).toBeNull();
    const ask = await demo.thread(FED, CPI);
    await ask('if the fed hikes what does the cpi market imply');
    const said = await ask('one sentence');
    expect(said).toMatch(/^Nothing I read says what the CPI year-over-year in December 2026 market implies \*given\* Hike 25bps[^\n]*; traders put about 52% on “Hike 25bps”/);
    expect(said).toContain('_From the stored reports on **Fed decision in December 2026?**');
  });
});

describe('which closes first, naming none', () => {
  it('in a thread of two reports asked for by address, weighs both events\' closes (was the last one\'s alone)', async () => {
    const ask = await demo.thread(SHUTDOWN, PAYROLLS);
    const first = await ask('which closes first?');
    expect(first).toContain('KXPAYROLLS-26DEC');
    expect(first).toContain('KXSHUTDOWN-26DEC31');
    expect(first.indexOf('KXPAYROLLS-26DEC')).toBeLessThan(first.indexOf('KXSHUTDOWN-26DEC31'));
  });
});
