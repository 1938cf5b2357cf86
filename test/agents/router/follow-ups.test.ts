import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';

let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'sec'), SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') } });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
});
afterAll(() => svc.close());

/** Three turns a person would type, and what each answer must say (SEC demo snapshot). */
const TURNS: [string, RegExp][] = [
  ["What was Apple's revenue in Q3 2024?", /^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*\$85,777 million\*\*/],
  ['and the quarter before?', /^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q2 2024 \(quarter ended 2024-03-30\) was \*\*\$90,753 million\*\*/],
  ['how about Microsoft?', /^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q2 2024 \(quarter ended 2023-12-31\) was \*\*\$62,020 million\*\*/],
];

/**
 * Reports generated on a paying account (30 credits), each followed by a function that asks
 * svc-agent a question in its thread: the address, the report, then the question.
 */
async function reportThreads(): Promise<(url: string) => Promise<(question: string) => Promise<string>>> {
  const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 30 })).apiKey, maxRetries: 0 });
  return async (url: string) => {
    const report = (await payer.responses.create({ model: 'svc-prediction-markets-agent', input: url })).output_text;
    return async (question: string) =>
      (await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: url }, { role: 'assistant', content: report }, { role: 'user', content: question }] })).choices[0]!.message.content!;
  };
}

/** Asks svc-agent each input in turn through /v1/responses, each continuing the one before (previous_response_id); returns the last answer. */
async function chain(...inputs: string[]): Promise<string> {
  let previous: string | undefined;
  let text = '';
  for (const input of inputs) {
    const r = await client.responses.create({ model: 'svc-agent', input, ...(previous ? { previous_response_id: previous } : {}) });
    [previous, text] = [r.id, r.output_text];
  }
  return text;
}

/** A thread on an event's report that goes on turn by turn, each answer kept in it; returns the asking function. */
async function reportConversation(url: string): Promise<(question: string) => Promise<string>> {
  const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 30 })).apiKey, maxRetries: 0 });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'user', content: url },
    { role: 'assistant', content: (await payer.responses.create({ model: 'svc-prediction-markets-agent', input: url })).output_text },
  ];
  return async (content: string) => {
    messages.push({ role: 'user', content });
    const text = (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
    messages.push({ role: 'assistant', content: text });
    return text;
  };
}

describe('follow-up questions through svc-agent', () => {
  it('chat completions: earlier messages give the context', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
    for (const [question, expected] of TURNS) {
      messages.push({ role: 'user', content: question });
      const r = await client.chat.completions.create({ model: 'svc-agent', messages });
      const text = r.choices[0]!.message.content!;
      expect(text).toMatch(expected);
      const citations = (r.choices[0] as any).citations as { url: string }[];
      expect(citations[0]!.url).toMatch(/\/v1\/documents\/.+\.pdf\?expires=\d+&signature=[0-9a-f]{64}#page=\d+$/);
      messages.push({ role: 'assistant', content: text });
    }
  });

  it('responses: previous_response_id gives the context, streaming or not', async () => {
    let previous: string | undefined;
    for (const [i, [question, expected]] of TURNS.entries()) {
      const r =
        i === 1
          ? await client.responses.stream({ model: 'svc-agent', input: question, previous_response_id: previous }).finalResponse()
          : await client.responses.create({ model: 'svc-agent', input: question, previous_response_id: previous });
      expect(r.output_text).toMatch(expected);
      previous = r.id;
    }
  });

  it("a change asked without naming the figure ('how much did it grow?') is the change of the figure just given; market data gets the filings agent's refusal, not the help", async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
    const ask = async (question: string) => {
      messages.push({ role: 'user', content: question });
      const text = (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
      messages.push({ role: 'assistant', content: text });
      return text;
    };
    await ask("What was Apple's revenue in Q2 2025?");
    for (const followUp of ['how much did it grow?', 'what was the change?']) {
      const text = await ask(followUp);
      // Both lead with the change they ask about.
      expect(text, followUp).toMatch(/^Apple's revenue rose, \+\$4,606 million \(\+5\.1%\), year over year \(fiscal Q2 2025\)\.\n\n\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q2 2025/);
      expect(text, followUp).toContain('Year over year: fiscal Q2 2024 (quarter ended 2024-03-30) was $90,753 million');
      expect(text, followUp).toContain('change +$4,606 million (+5.1%)');
    }
    expect(await ask('and a year earlier?')).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q2 2024 \(quarter ended 2024-03-30\)/);
    // Market data: the filings hold no share price, so the answer asks for one and gives what they hold.
    expect(await ask("what is Apple's P/E ratio?")).toMatch(/^A P\/E or a market capitalisation needs a share price, which SEC filings do not hold/);
  });

  it('the SDK-style history (input array) works as well', async () => {
    const r = await client.responses.create({
      model: 'svc-agent',
      input: [
        { role: 'user', content: TURNS[0]![0] },
        { role: 'assistant', content: 'Apple reported $85,777 million [1].' },
        { role: 'user', content: TURNS[1]![0] },
      ],
    });
    expect(r.output_text).toMatch(TURNS[1]![1]);
  });
});

describe('follow-ups beyond filings', () => {
  const ask = async (...turns: string[]) => {
    const messages = turns.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content })) as OpenAI.Chat.ChatCompletionMessageParam[];
    return (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
  };

  it('an odds follow-up is searched with the question it continues', async () => {
    const first = await ask('what are the odds of a Fed cut in December?');
    expect(first).toContain('Fed decision');
    expect(await ask('what are the odds of a Fed cut in December?', first, 'and of a hold?')).toContain('Fed decision');
  });

  it('thanks or "what can you do?" after a question get a word back or the help, not the last answer again', async () => {
    const first = await ask("What was Apple's revenue in Q3 2024?");
    expect(await ask("What was Apple's revenue in Q3 2024?", first, 'what can you do?')).toContain('I answer financial research questions');
    // Thanks get a word back, not the help again.
    for (const next of ['thanks!', 'thank you so much', 'ok thanks']) expect(await ask("What was Apple's revenue in Q3 2024?", first, next)).toMatch(/^You're welcome\. Ask another question/);
  });

  it('"ok" before a question is no greeting ("ok msft rev last q"), and a follow-up to a filings answer no rule placed stays with the filings ("vs a yr ago?")', async () => {
    expect(await chain('ok msft rev last q')).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q3 2025 \(quarter ended 2025-03-31\) was \*\*\$70,066 million\*\*/);
    expect(await chain('wat was msft rev last q', 'vs a yr ago?')).toContain('Year over year: fiscal Q3 2024 (quarter ended 2024-03-31) was $61,858 million');
    expect(await chain('ok thanks')).toMatch(/^You're welcome/);
  });

  it('asking for more periods after one figure gives the table', async () => {
    const first = await ask("What was Apple's revenue in Q3 2024?");
    const table = await ask("What was Apple's revenue in Q3 2024?", first, 'and for the last 8 quarters?');
    expect((table.match(/^\|/gm) ?? []).length).toBeGreaterThan(2);
  });
});

describe('several questions in one, and odds follow-ups that change topic', () => {
  const annotated = (r: OpenAI.Responses.Response) => (r.output[0] as any).content[0].annotations as { url: string; start_index: number; end_index: number; order?: number }[];

  it('answers each part under its own heading, the sources numbered on across them', async () => {
    const r = await client.responses.create({ model: 'svc-agent', input: "What was Apple's revenue in Q3 2024 and what are the odds of a Fed cut?" });
    const text = r.output_text;
    const [sec, odds] = text.split(/^### /m).slice(1);
    expect(sec).toMatch(/^What was Apple's revenue in Q3 2024\n\n\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*\$85,777 million\*\* .*\[1\]/);
    expect(odds).toMatch(/^What are the odds of a Fed cut\?\n\nOpen Kalshi events matching “what are the odds of a Fed cut\?”/);
    expect(odds).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC, Economics) [2]');
    const ann = annotated(r);
    expect(ann.map((a) => text.slice(a.start_index, a.end_index))).toEqual(['[1]', '[2]']);
    expect(ann[0]!.url).toMatch(/\/v1\/documents\/.+\.pdf/);
    expect(ann[1]!.url).toBe('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
  });

  it('odds of two topics are two searches, the note both end with said once; "BTC and ETH odds" is one', async () => {
    const text = (await client.responses.create({ model: 'svc-agent', input: 'what are the fed odds and is btc above 100k tomorrow?' })).output_text;
    const [fed, btc] = text.split(/^### /m).slice(1);
    expect(fed).toMatch(/^What are the fed odds\n\nOpen Kalshi events matching “what are the fed odds”/);
    expect(fed).toContain('(KXFEDDECISION-26DEC, Economics) [1]');
    expect(fed).not.toContain('KXBTCD');
    expect(btc).toMatch(/^Is btc above 100k tomorrow\?\n\n/);
    expect(btc).toMatch(/\(KXBTCD-26NOV20, Crypto\) \[2\]: \*\*Above \$100,000 \d+\.\d%\*\*/);
    expect(text.match(/Prices are the mid of the best bid and ask/g)).toHaveLength(1);
    expect(btc).toContain('Prices are the mid of the best bid and ask');
    const both = (await client.responses.create({ model: 'svc-agent', input: 'btc and eth odds' })).output_text;
    expect(both).not.toContain('###');
    expect(both).toContain('KXBTCD-26NOV20');
    expect(both).toContain('KXETHD-26NOV20');
  });

  it('several Kalshi addresses: each event, none dropped', async () => {
    const r = await client.responses.create({
      model: 'svc-agent',
      input: 'Compare https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec with https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec',
    });
    expect(r.output_text).toMatch(/### https:\/\/kalshi\.com\/markets\/kxfeddecision\/fed\/kxfeddecision-26dec\n\n\*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\) \[1\]/);
    expect(r.output_text).toMatch(/### https:\/\/kalshi\.com\/markets\/kxcpiyoy\/cpi\/kxcpiyoy-26dec\n\n\*\*CPI year-over-year in December 2026\?\*\* \(KXCPIYOY-26DEC\) \[3\]/);
    const ann = annotated(r);
    expect(new Set(ann.map((a) => r.output_text.slice(a.start_index, a.end_index)))).toEqual(new Set(['[1]', '[2]', '[3]', '[4]']));
  });

  it('a question beside a Kalshi address: both answered, in the order written', async () => {
    const url = 'https://kalshi.com/markets/kxpayrolls/nonfarm-payrolls/kxpayrolls-26dec';
    const text = (await client.responses.create({ model: 'svc-agent', input: `What was Apple's revenue in Q3 2024? ${url}` })).output_text;
    expect(text).toMatch(/^### What was Apple's revenue in Q3 2024\?\n\n\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024 .*\[1\]/);
    expect(text).toContain(`### ${url}\n\n**`);
    expect(text).toContain('(KXPAYROLLS-26DEC) [2]');
  });

  it('a part that cannot be answered says why, and the others are still answered', async () => {
    const r = await client.responses.create({ model: 'svc-agent', input: 'https://kalshi.com/markets/kxnope/x/kxnope-26dec and https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec' });
    expect(r.output_text).toMatch(/### https:\/\/kalshi\.com\/markets\/kxnope\/x\/kxnope-26dec\n\nThis part could not be answered: .*KXNOPE-26DEC/);
    expect(r.output_text).toContain('**CPI year-over-year in December 2026?** (KXCPIYOY-26DEC) [1]');
  });

  it('a company missing from the SEC snapshot is said to be missing from it, not from the SEC', async () => {
    const r = await client.responses.create({ model: 'svc-agent', input: 'ZZQX revenue Q3 2024' });
    expect(r.output_text).toMatch(/^I could not find a company with the ticker "ZZQX" in this snapshot of SEC data \(searched by ticker and by name\), so I have no figures for it\. A snapshot has only the companies recorded in it: ask “which companies do you cover\?” for those \(an operator adds one with `svc snapshot record-sec TICKER`\)\./);
  });

  it('a follow-up naming another topic finds it, not the earlier one', async () => {
    const ask = async (first: string, then: string) =>
      (await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: first }, { role: 'assistant', content: '…' }, { role: 'user', content: then }] })).choices[0]!.message.content!;
    const bitcoin = await ask('what are the odds of a Fed cut in December?', 'what about bitcoin?');
    expect(bitcoin).toContain('(KXBTCD-26NOV20, Crypto) [1]');
    expect(bitcoin).not.toContain('KXFEDDECISION');
    expect(await ask('odds of a Fed hike in December', 'and the Lakers game?')).toContain('(KXNBAGAME-26NOV21LALBOS, Sports) [1]');
    // Without a topic of its own, the earlier question's.
    expect(await ask('odds of a Fed cut in December', 'and of a hold?')).toContain('(KXFEDDECISION-26DEC, Economics) [1]');
    // About the event of a Kalshi address: that event.
    expect(await ask('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec', "what's the biggest mispricing?")).toContain('KXFEDDECISION-26DEC');
  });

  it('after a search, a reply picks an event by its place in the list ("and the second?"), and questions of a report are about the first listed', async () => {
    const listing = await chain('what are the odds for December events?');
    expect(listing).toMatch(/^Open Kalshi events matching[^\n]*\n\n1\. \*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC, Economics\) \[1\][^\n]*\n2\. \*\*CPI year-over-year in December 2026\?\*\* \(KXCPIYOY-26DEC, Economics\)/);
    expect(await chain('what are the odds for December events?', 'and the second?')).toMatch(/^\*\*CPI year-over-year in December 2026\?\*\* \(KXCPIYOY-26DEC\) \[1\]/);
    expect(await chain('what are the odds for December events?', '#3')).toMatch(/^\*\*Jobs added in December 2026\?\*\* \(KXPAYROLLS-26DEC\) \[1\]/);
    expect(await chain('what are the odds for December events?', 'number 3 please')).toMatch(/^\*\*Jobs added in December 2026\?\*\* \(KXPAYROLLS-26DEC\) \[1\]/);
    expect(await chain('what are the odds for December events?', 'and the last one?')).toMatch(/^\*\*New frontier model[^\n]*\(KXAIMODEL-26DEC19\) \[1\]/);
    expect(await chain('what are the odds for December events?', 'odds on the third')).toMatch(/^\*\*Jobs added in December 2026\?\*\* \(KXPAYROLLS-26DEC\) \[1\]/);
    // A pick may come turns after the list.
    expect(await chain('what are the odds for December events?', 'and the second?', 'when does it close?', 'and in the first one?')).toMatch(/^(?:# Fed decision in December 2026\?|\*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\) \[1\])/);
    // Of several events listed, a question of their dates is about the list, not answered from the first one's report;
    // one of prices is the first's.
    expect(await chain('what are the odds for December events?', 'which closes first?')).not.toContain('From the stored report');
    // Their closing times compared, read fresh: the one asked first, then every one in that order.
    const last = await chain('show me politics and economics markets only', 'which of those closes last?');
    expect(last).toMatch(/^Of the 5 events listed, \*\*Government shutdown by December 2026\?\*\* closes last, 2026-12-31 15:00 UTC \[1\]\. Latest first:\n\n1\. /);
    expect(await chain('show me politics and economics markets only', 'which closes first?')).toMatch(/^Of the 5 events listed, \*\*Presidential approval on November 27, 2026\?\*\* closes first/);
    expect(await chain('what are the odds for December events?', 'which of those is cheapest?')).not.toMatch(/^I answer financial research questions/);
    // The event picked stays the subject of the next turn.
    expect(await chain('what are the odds for December events?', 'and the second?', 'when does it close?')).toMatch(/^- \*\*Trading closes\*\* 2026-12-10 15:00 UTC[^\n]*\n\n_From Kalshi's live quotes for \*\*CPI year-over-year in December 2026\?\*\*/);
    // A question a report answers, of the first event listed; an outcome named stays with the search.
    expect(await chain('odds of a Fed cut in December?', 'which is the favourite?')).toMatch(/^(?:The market's favourite is \*\*Hike 25bps\*\*|On its live prices \(no report is stored for KXFEDDECISION-26DEC[^\n]*\[1\]: Hike 25bps 51\.5%)/);
    expect(await chain('odds of a Fed cut in December?', 'and of a hold?')).toMatch(/^Open Kalshi events matching/);
  });

  it('lists the events settling in a time asked with no topic ("what markets close this week?"), soonest first', async () => {
    const ask = async (input: string) => (await client.responses.create({ model: 'svc-agent', input })).output_text;
    // The demo's clock reads 2026-11-19 15:00 UTC.
    const week = await ask('what markets close this week?');
    expect(week).toMatch(/^Open Kalshi events settling this week \(to 2026-11-26\), soonest first, with current prices \(as of 2026-11-19 15:00 UTC\):\n\n1\. \*\*(?:Bitcoin|Ethereum|Highest temperature)[^\n]*Closes 2026-11-20 15:00 UTC\./);
    const closes = [...week.matchAll(/Closes (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/g)].map((m) => m[1]!);
    expect(closes.length).toBeGreaterThanOrEqual(5);
    expect([...closes].sort()).toEqual(closes);
    expect(closes.every((c) => c >= '2026-11-19' && c < '2026-11-27')).toBe(true);
    // A weekend is its Saturday and Sunday: the Monday game is said to settle after it.
    expect(await ask('any sports markets this weekend?')).toContain('It settles on 2026-11-23, not this weekend (2026-11-21 and 2026-11-22), the date asked about.');
    expect(await ask("what's settling tomorrow?")).toMatch(/^Open Kalshi events settling tomorrow \(2026-11-20\), soonest first/);
    expect(await ask('which events end next week?')).toContain('**SpaceX orbital launches in the week ending November 24, 2026?**');
  });

  it('a follow-up to a search with no topic of its own stays on its events: a level, the expected value, the median, bookmakers\' odds', async () => {
    const above = await chain('nyc high temp tomorrow?', 'will it be above 50 degrees?');
    expect(above).toContain('**Highest temperature in NYC on November 20, 2026?**');
    expect(above).toContain('“above 50°” is');
    // ("expected # of launches?" is the expected number too.)
    expect(await chain('spacex launches this week', 'expected # of launches?')).toContain('the expected value is about 3.4 (open-ended outcomes counted at their bound, so an estimate)');
    const launches = await chain('spacex launches this week', 'expected number of launches implied by those prices?');
    // "Launches" is its own topic ("expected" and "implied" are no topic words).
    expect(launches).toMatch(/^Open Kalshi events matching “expected number of launches implied by those prices\?”/);
    // (2×42 + 3×12.5 + 4×38 + 5×25) / 117.5 = 3.4; cumulative 35.7%, 46.4%, 78.7%: the median is 4.
    expect(launches).toContain('the expected value is about 3.4 (open-ended outcomes counted at their bound, so an estimate), and the median outcome is “4”.');
    expect(await chain('bitcoin above 100k on nov 20?', "what's the market-implied median price?")).toContain('On these prices the median is below $92,000');
    expect(await chain('lakers celtics who wins', 'convert that to american moneyline odds')).toContain('“Away team (Lakers)” −167 (decimal 1.60, fractional 3/5)');
  });

  it('short follow-ups to a search the rules read as nothing stay on its events ("cut of any size?"), and live prices answer what a contract pays', async () => {
    const cuts = await chain('fed decision odds', 'cut of any size?');
    expect(cuts).toMatch(/^Open Kalshi events matching “cut of any size\?”/);
    expect(cuts).toContain('Together, “Cut more than 25bps” and “Cut 25bps”: about 43.0%');
    // "No change" is the hold, put first in bold.
    expect(await chain('fed decision odds', 'cut of any size?', 'and no change?')).toContain('[1]: **Hold 16.0%**; Hike 25bps 51.5%');
    expect(await chain('bitcoin above 100k on nov 20?', 'between 92k and 96k?')).toContain('“between 92k and 96k” is “Above $92,000” less “Above $96,000”: about 28.5%.');
    // "one" is no topic word.
    expect(await chain('what markets close this week?', 'fed one - odds of a hold?')).not.toContain('“one”');
    // Without a report, what a YES costs and pays, of the level asked the turn before.
    expect(await chain('ETH above 3400 tomorrow?', 'how much does a yes contract cost and what do i win?')).toMatch(
      /^- \*\*Above \$3,400\*\* \(KXETHD-26NOV20-T3400\): bid \$0\.65, ask \$0\.67, spread \$0\.02[^\n]*A YES contract bought at the ask, \$0\.67, pays \$1\.00 if it resolves YES: \$0\.33 profit per contract before fees, the \$0\.67 lost if it resolves NO\.\n\n_From Kalshi's live quotes for/,
    );
    expect(await chain('fed decision odds', 'thanks')).toMatch(/^You're welcome/);
  });

  it('of several events listed, "which of these has the biggest mispricing?" compares their stored reports; events without one are named', async () => {
    const thread = await reportThreads();
    await thread('https://kalshi.com/markets/kxethd/ethereum-price-end-of-day/kxethd-26nov20');
    await thread('https://kalshi.com/markets/kxbtcd/bitcoin/kxbtcd-26nov20');
    const listed = await chain('which markets close this week?');
    const count = [...listed.matchAll(/^\d+\. \*\*/gm)].length;
    const gaps = await chain('which markets close this week?', 'which of these has the biggest mispricing per your model?');
    expect(gaps).toMatch(new RegExp(`^Of the ${count} events listed, \\d+ ha(?:s|ve) a stored report; the largest gap between model and market among them is in \\*\\*`));
    const lines = [...gaps.matchAll(/^\d+\. \*\*(.+?)\*\* \(([A-Z0-9-]+)\) \[\d+\]: \*\*[^*]+\*\*: model [\d.]+%, market [^,]+, gap ([+−])([\d.]+) pts$/gm)];
    expect(lines.map((l) => l[2])).toEqual(expect.arrayContaining(['KXETHD-26NOV20', 'KXBTCD-26NOV20']));
    const sizes = lines.map((l) => Number(l[4]));
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
    // The head names the first of them.
    expect(gaps).toContain(`among them is in **${lines[0]![1]}**`);
    if (lines.length < count) expect(gaps).toMatch(/No report is stored for [A-Z0-9-]+/);
    const trades = await chain('which markets close this week?', 'best bet among those?');
    expect(trades).toMatch(/^Of the \d+ events listed, \d+ ha(?:s|ve) a stored report; the best trade on the model among them is in \*\*[^*]+\*\*: \*\*(?:YES|NO) on [^*]+\*\* at \$0\.\d\d/);
    const evs = [...trades.matchAll(/^\d+\. .*expected value ([+−])\$(\d\.\d{3}) per \$1 contract$/gm)].map((m) => (m[1] === '−' ? -1 : 1) * Number(m[2]));
    expect(evs.length).toBeGreaterThanOrEqual(2);
    expect([...evs].sort((a, b) => b - a)).toEqual(evs);
  });

  it('trading words around a topic are no topic; an arbitrage or an expected value asked of one event found is answered from its report; "on it" is the event discussed', async () => {
    const thread = await reportThreads();
    for (const url of ['https://kalshi.com/markets/kxethd/ethereum-price-end-of-day/kxethd-26nov20', 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec', 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec']) await thread(url);
    expect(await chain('whats hot on kalshi rn')).toMatch(/^The busiest open events, by contracts traded in the last 24 hours/);
    expect(await chain('EV of buying 100 YES on eth above 3400?')).toMatch(/^- \*\*Above \$3,400\*\* \(KXETHD-26NOV20-T3400\)[^\n]*100 YES contracts at \$0\.67 cost \$67[^\n]*expected value \+\$0\.077 per \$1 contract before fees \(\+\$7\.70 on 100 contracts\)/);
    expect(await chain('is there an arbitrage on the cpi ladder?')).toMatch(/^Yes, on the report's quotes:\n\n- YES on \*\*Above 2\.6\*\* at the ask, \$0\.93/);
    // After a search that was one part of two, a trade on its event; after an answer about one event, "on it" is that event.
    expect(await chain('fed hike odds and what did cpi print last month?', 'if I buy 100 NO on hike, max loss and payoff?')).toContain('100 NO contracts at $0.49 cost $49, the most they can lose');
    expect(await chain('cpi odds for dec?', 'wait the ladder looks broken, 2.8 priced over 2.6?? is that free money', 'is there an arb on it then')).toMatch(/^Yes, on the report's quotes:\n\n- YES on \*\*Above 2\.6\*\*/);
    // A question of the report's kinds naming no topic of its own, after answers about one event, is about that event.
    expect(await chain('cpi odds for dec?', 'whats the chance it prints between 2.8 and 3.0, market vs model', 'wait the ladder looks broken, 2.8 priced over 2.6?? is that free money')).toMatch(/^Yes, on the report's quotes:\n\n- YES on \*\*Above 2\.6\*\*/);
    expect(await chain('eth market for tomorrow?', 'ok for that one, ev of buying 3400 yes at the ask? and what would 100 of them cost me')).toContain('100 YES contracts at $0.67 cost $67');
    // An event a listing named, picked turns later ("ok and the second market you listed?").
    const second = [...(await chain('what markets close this week')).matchAll(/^\d+\. \*\*(.+?)\*\* \(([A-Z0-9-]+), /gm)][1]!;
    const picked = await chain('what markets close this week', 'googl opex 2024', 'ok and the second market you listed?');
    expect(picked.includes(second[2]!) || picked.includes(second[1]!.replace(/[*_]/g, ''))).toBe(true);
  });

  it("an address in Slack's markup, <url|label>, stays the event on later turns of svc-prediction-markets-agent; a beginner's explanation takes the outcome named", async () => {
    const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 30 })).apiKey, maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: '<https://kalshi.com/markets/kxethd/ethereum-price-end-of-day/kxethd-26nov20|eth market>' }];
    const report = (await payer.chat.completions.create({ model: 'svc-prediction-markets-agent', messages })).choices[0]!.message.content!;
    expect(report).toMatch(/^# Ethereum price on November 20, 2026/);
    messages.push({ role: 'assistant', content: report }, { role: 'user', content: 'eli5 what am i actually betting on with the 3400 one' });
    const basics = (await payer.chat.completions.create({ model: 'svc-prediction-markets-agent', messages })).choices[0]!.message.content!;
    expect(basics).toContain('For example, **Above $3,400** trades at 66.0% (mid)');
    expect(basics).toMatch(/What decides it: “If the CF Benchmarks Ether Real-Time Index[^\n]*” \(quoted for Above \$3,000; each outcome's rule is the same with its own level\) \[\d\]/);
  });

  it('events asked about one by one, then weighed ("which one is more mispriced?", "compare them"), or compared in one question, are compared from their stored reports', async () => {
    const thread = await reportThreads();
    await thread('https://kalshi.com/markets/kxethd/ethereum-price-end-of-day/kxethd-26nov20');
    await thread('https://kalshi.com/markets/kxbtcd/bitcoin/kxbtcd-26nov20');
    const both = /^Of the 2 events listed, 2 have a stored report; the largest gap between model and market among them is in \*\*(?:Ethereum|Bitcoin)[^*]+\*\*/;
    const each = (text: string) => [...text.matchAll(/^\d+\. \*\*.+?\*\* \(([A-Z0-9-]+)\) \[\d+\]: /gm)].map((m) => m[1]).sort();
    for (const weigh of ['which one is more mispriced?', 'compare them', 'which has the bigger model edge?']) {
      const text = await chain('btc price market for tomorrow?', 'and eth?', weigh);
      expect(text, weigh).toMatch(both);
      expect(each(text), weigh).toEqual(['KXBTCD-26NOV20', 'KXETHD-26NOV20']);
    }
    // A largest gap that is against the normalised share only is said to be no buy at its price,
    // and the event whose quotes offer the best expected value is named beside it.
    await thread('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    await thread('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    const weighed = await chain('fed odds for december?', 'and nyc temp?', 'which one is more mispriced?');
    expect(weighed).toMatch(/^Of the 2 events listed, 2 have a stored report; the largest gap between model and market among them is in \*\*Fed decision in December 2026\?\*\*: \*\*Hike 25bps\*\*: model 50\.8%, market 51\.5% \(mid; 46\.6% normalised\), gap \+4\.2 pts \[1\], though against its price that is no buy\. By expected value at the quoted prices, the best trade is in \*\*Highest temperature in NYC on November 20, 2026\?\*\* \[2\]: \*\*NO on 48°F to 51°F\*\* at \$0\.69 against the model's 74\.2%: expected value \+\$0\.052 per \$1 contract, before fees\./);
    expect(weighed).toContain('; against its price of 51.5% that is no buy, and the best buy at the quotes is **NO on Cut more than 25bps** at $0.68');
    // "That one" after a weighing is the event it leads with.
    expect(await chain('fed odds for december?', 'and nyc temp?', 'which one is more mispriced?', 'ok for that one, whats the best trade')).toMatch(/^On the model, the best buy at current prices is \*\*NO on Cut more than 25bps\*\*/);
    // Topics listed apart are each found; with reports, weighed from them, else their live prices and that no model compares them yet.
    const ranked = await chain('rank the nyc temperature, payrolls and approval markets by how overpriced they are');
    for (const ticker of ['KXHIGHNY-26NOV20', 'KXPAYROLLS-26DEC', 'KXAPPROVAL-26NOV27']) expect(ranked, ticker).toContain(ticker.startsWith('KXHIGHNY') ? 'Highest temperature in NYC' : ticker.startsWith('KXPAYROLLS') ? 'KXPAYROLLS-26DEC' : 'KXAPPROVAL-26NOV27');
    expect(ranked).toMatch(/^The market's favourite in each of the 3 events listed, on live prices/);
    expect(ranked).not.toContain('matches all of');
    expect(ranked).toMatch(/None of the 3 events listed has a stored report|\*\*Model against market, from the stored reports\.\*\* Of the 3 events listed/);
    // Each event's page named from its series' title, not its ticker twice.
    expect(ranked).not.toMatch(/kalshi\.com\/markets\/(kx\w+)\/\1\//);
    const edge = await chain('compare the btc and eth markets: which one has the bigger model edge?');
    expect(edge).toContain('**Model against market, from the stored reports.** Of the 2 events listed, 2 have a stored report');
    // Why the model gives an outcome what it does: the report's fit applied to its price and its record, step by step.
    const btcThread = await thread('https://kalshi.com/markets/kxbtcd/bitcoin/kxbtcd-26nov20');
    // "Compare this with the ETH market" in the BTC report's thread: both weighed.
    expect(await btcThread('compare this with the eth market')).toMatch(/\*\*Model against market, from the stored reports\.\*\* Of the 2 events listed, 2 have a stored report/);
    // Two event tickers in one question: both.
    const byTickers = await chain('compare KXBTCD-26NOV20 and KXETHD-26NOV20');
    expect(byTickers).toMatch(/^Of the 2 events listed, 2 have a stored report/);
    const why = await btcThread('why does the model disagree with the market on 96k');
    const [, model] = /^Why the model gives \*\*Above \$96,000\*\* ([\d.]+)% against a market [\d.]+% \((?:mid|last trade)\) \[1\]:\n\n- \*\*The price, stretched:\*\* b = [\d.]+ /.exec(why)!;
    const [, final] = /- \*\*The record:\*\* Above \$96,000 resolved YES in \d+ of \d+ settled events \([\d.]+%\); [^\n]*becomes ([\d.]+)%\./.exec(why)!;
    if (Math.abs(Number(final) - Number(model)) >= 0.5) expect(why).toContain('differs from that');
    expect(why).not.toContain('Prediction markets tend to overprice longshots');
    // A rung priced out of order with its neighbour: the model's ordering is a step of its own, to the report's figure.
    const crossed = await btcThread('why does the model disagree on 104k?');
    const [, shown] = /^Why the model gives \*\*Above \$104,000\*\* ([\d.]+)% against a market 5\.0% \(mid\)/.exec(crossed)!;
    const [, own, other, averaged] = /- \*\*The ladder, in order:\*\* Above \$104,000 can only resolve YES if Above \$100,000 does, so it may not be the likelier; the steps above give Above \$104,000 ([\d.]+)% against Above \$100,000 ([\d.]+)%, out of that order, so the model averages them: both ([\d.]+)%/.exec(crossed)!;
    expect(Number(own)).toBeGreaterThan(Number(other));
    expect(Math.abs(Number(averaged) - (Number(own) + Number(other)) / 2)).toBeLessThanOrEqual(0.1);
    if (averaged !== shown) expect(crossed).toContain(`(${shown}% in the report: the fit is shown rounded here)`);
    expect(crossed).not.toContain('differs from that');
    // For a beginner: what a contract pays, what its price means, how to take a side, the rule that decides it, the close.
    const basics = await btcThread('explain this to me like im a beginner, what am i actually betting on');
    expect(basics).toMatch(/^\*\*Bitcoin price on November 20, 2026 at 10am ET\?\*\*, in plain words: the market lists 4 outcomes, each a yes\/no question of its own \(several can resolve YES\)\. Each contract pays \$1\.00 if its outcome happens/);
    expect(basics).toMatch(/What decides it: “If the CF Benchmarks Bitcoin Real-Time Index/);
    expect(basics).toMatch(/Trading closes \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    // The example is the outcome the rule is quoted for, and the rule is quoted cleanly.
    const game = await thread('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos');
    // A team named: its side's arithmetic, its record kept by the series' label.
    const lakers = await game('why does the model disagree on the lakers');
    expect(lakers).toMatch(/^Why the model gives \*\*Away team \(Lakers\)\*\* [\d.]+% against a market/);
    expect(lakers).toContain('- **The record:** “Away team” resolved YES in');
    const gameBasics = await game('explain this to me like im a beginner');
    expect(gameBasics).toMatch(/What decides it: “/);
    expect(gameBasics).not.toContain('What decides it: )');
    const ruleFor = /\*\*How it resolves\*\* \(as written for (.+?)\):/.exec(await game('how does it resolve?'))?.[1];
    if (ruleFor) expect(gameBasics).toContain(`For example, **${ruleFor}** trades at`);
    // A search finding events with stored reports says so, and where to get them free.
    expect(await chain('btc price market for tomorrow?')).toContain('\nA report is stored for KXBTCD-26NOV20: ask for its model here (“model vs market?”), or get it whole, free, from `svc-prediction-markets-agent:cache`.\n');
    // In one question: the two events with their prices, then their reports weighed; cited to the event pages the reports cite.
    const r = await client.responses.create({ model: 'svc-agent', input: 'compare the btc and eth markets for tomorrow' });
    expect(r.output_text).not.toContain('###');
    expect(r.output_text).toMatch(/^Open Kalshi events matching “compare the btc and eth markets for tomorrow”/);
    expect(r.output_text).toMatch(/\*\*Model against market, from the stored reports\.\*\* Of the 2 events listed, 2 have a stored report; the largest gap between model and market among them is in \*\*/);
    const urls = ((r.output[0] as any).content[0].annotations as { url: string }[]).map((a) => a.url);
    expect(urls).toContain('https://kalshi.com/markets/kxethd/ethereum-price-end-of-day/kxethd-26nov20');
    expect(urls.some((u) => u.includes('/kxethd/kxethd/'))).toBe(false);
  });

  it('asked what no source it reads says (news, injuries, forecasts), about the event discussed, it says so and what it can answer; a report asked is the event\'s; writing and other languages are declined', async () => {
    const thread = await reportThreads();
    const nyc = await thread('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    const forecast = await nyc("what's the nws forecast high for tomorrow tho");
    expect(forecast).toMatch(/^I cannot answer that from what I read about \*\*Highest temperature in NYC[^*]*\*\* \(KXHIGHNY-26NOV20\): its report is built from the exchange's prices and order book, the series' settled events and the contract's rules, with no news, injury reports, weather forecasts/);
    expect(forecast).not.toContain('## ');
    // No report stored: the live prices are what it read.
    const game = 'https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc';
    const injury = await chain(game, 'any injury news? is josh allen playing');
    expect(injury).toMatch(/^I cannot answer that from what I read about \*\*[^*]+\*\* \(KXNFLGAME-26NOV23BUFKC\): I read its live prices/);
    expect(injury).toContain('“how does it resolve?”');
    // "Generate the full report for it": the event discussed (its live summary names the model that generates one).
    const generate = await chain(game, 'ok generate the full report for it');
    expect(generate).toMatch(/^\*\*[^*]+\*\* \(KXNFLGAME-26NOV23BUFKC\) \[1\]/);
    expect(generate).toContain('`svc-prediction-markets-agent`');
    // The units of its strikes are in its rules; its key dates are its closing.
    expect(await nyc('what units are those strikes in')).toMatch(/rules|Rules/);
    expect(await chain('will the fed cut in december?', 'write me a poem about the fed')).toMatch(/^I only do financial research/);
    expect(await chain('cuales son las probabilidades de que la fed baje tasas en diciembre')).toMatch(/^I read questions in English only/);
    expect(await chain('quais são as chances do bitcoin passar de 96 mil amanhã?')).toMatch(/^I read questions in English only/);
    expect(await chain('can you book me a flight to new york')).toMatch(/^I only do financial research/);
    for (const q of ['translate hello into french', 'what is the capital of france?', 'what is 17 * 23?']) expect(await chain(q), q).toMatch(/^I only do financial research/);
    expect((await client.responses.create({ model: 'svc-sec-agent', input: "write a python script that downloads apple's 10-k" })).output_text).toMatch(/^This model answers questions about companies' figures from their SEC filings[^\n]*it does not write code/);
    // News and advice around a topic: said not to be given, then what the exchange shows for it.
    const news = await chain('any news on why bitcoin dropped this week?');
    expect(news).toMatch(/^I read no news or other outside sources, so I cannot say what happened or why; what the exchange shows:\n\nOpen Kalshi events matching/);
    expect(news).toContain('KXBTCD-26NOV20');
    expect(await chain('should i put my savings into bitcoin?')).toMatch(/^I do not give investment advice[^\n]*\n\nOpen Kalshi events matching “should i put my savings into bitcoin\?”/);
    // Whether it is a good time to buy a company's stock: no advice, its key figures.
    expect(await chain('is now a good time to buy apple stock?')).toMatch(/I do not give investment advice/);
    // "Which markets moved the most this week?": the day's moves, said to be the day's.
    expect(await chain('which markets moved the most this week?')).toMatch(/^The open events whose prices moved most in the last 24 hours \([^)]*the exchange lists no weekly change here/);
    // An event ticker inside a question is that event.
    // (Another test of this file may have stored its report: then the report's model.)
    expect(await chain('whats the model say on KXCPIYOY-26DEC')).toMatch(/^No report is stored for KXCPIYOY-26DEC yet, so there is no model probability|^- \*\*Above|^The most likely range is \*\*above 3\.2\*\*: market 61\.0%, model 52\.9%/);
    // A greeting is still the help.
    expect(await chain(game, 'hi')).toMatch(/^I answer financial research questions/);
  });

  it('lists every open event when asked which there are ("which Kalshi events do you have?"), and a pick from the list is that event', async () => {
    for (const q of ['which kalshi events do you have?', 'list all open prediction markets', 'what can I bet on?', 'show me all events']) {
      const all = await chain(q);
      expect(all, q).toMatch(/^Open Kalshi events(?: \(the first 20 of \d+; ask about a topic for the others\))?, soonest to settle first, with current prices \(as of 2026-11-19 15:00 UTC\):\n\n1\. \*\*/);
      const closes = [...all.matchAll(/Closes (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/g)].map((m) => m[1]!);
      expect(closes.length, q).toBeGreaterThanOrEqual(14);
      expect([...closes].sort()).toEqual(closes);
    }
    // A topic among those words is searched for, not listed whole.
    expect(await chain('list the fed markets')).toMatch(/^Open Kalshi events matching “list the fed markets”[^\n]*\n\n1\. \*\*Fed decision in December 2026\?\*\*/);
    const listed = await chain('which kalshi events do you have?');
    const fourth = /^4\. \*\*(.+?)\*\* \(([A-Z0-9-]+), /m.exec(listed)!;
    expect(await chain('which kalshi events do you have?', 'the fourth one?')).toMatch(new RegExp(`^(?:# |\\*\\*)${fourth[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('of every event listed, "who is favoured in each?" gives each one\'s leading outcome on live prices (a ladder its median, one contract its lean); "the underdog in each" the least likely; "just the sports ones" narrows the list', async () => {
    const each = await chain('list all open prediction markets', 'who is favoured in each?');
    expect(each).toMatch(/^The market's favourite in each of the 14 events listed, on live prices \(as of 2026-11-19 15:00 UTC\):\n\n1\. \*\*Bitcoin price on November 20, 2026 at 10am ET\?\*\* \(KXBTCD-26NOV20\) \[1\]: a ladder of 4 levels, so no single favourite; the median on these prices is below \$92,000\./);
    expect(each).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC) [12]: **Hike 25bps** at 51.5%; then “Cut more than 25bps” at 33.0%.');
    expect(each).toContain('**Lakers at Celtics on November 21, 2026: winner?** (KXNBAGAME-26NOV21LALBOS) [4]: **Away team (Lakers)** at 62.5%; against “Home team (Celtics)” at 38.5%.');
    expect(each).toContain('one yes/no contract, “Shutdown” at 58.0%: the market leans towards YES (58.0%).');
    expect(each).toContain('one yes/no contract, “Release” at 37.0%: the market leans towards NO (63.0%).');
    const least = await chain('list all open prediction markets', 'and the underdog in each of them?');
    expect(least).toMatch(/^The market's least likely outcome in each of the 14 events listed/);
    expect(least).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC) [12]: **Cut 25bps** at 10.0%; next “Hold” at 16.0%.');
    const sports = await chain('list all open prediction markets', 'just the sports ones');
    expect([...sports.matchAll(/^\d+\. \*\*(.+?)\*\*/gm)].map((m) => m[1])).toEqual(['Lakers at Celtics on November 21, 2026: winner?', 'Bills at Chiefs on November 23, 2026: winner?']);
    const economy = await chain('list all open prediction markets', 'which ones are about the economy?');
    expect([...economy.matchAll(/\(([A-Z0-9-]+), Economics\)/g)].map((m) => m[1]).sort()).toEqual(['KXCPIYOY-26DEC', 'KXFEDDECISION-26DEC', 'KXPAYROLLS-26DEC']);
    expect(await chain('anything political?')).toMatch(/^Open Kalshi events matching “anything political\?”[^\n]*\n\n1\. \*\*/);
  });

  it('a search asking for the model or the history answers from the one event\'s stored report; chat words around a topic are no missing topic', async () => {
    const threads = await reportThreads();
    await threads('https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31');
    await threads('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    // An earlier event of the series, asked in a search: from the found event's stored history.
    expect(await chain('odds of a fed cut in december?', 'and what did the fed do in october')).toMatch(/^The October event of the series, \*\*KXFEDDECISION-26OCT\*\* \(closed 2026-10-20\): \*\*Cut more than 25bps\*\* resolved YES/);
    const modelled = await chain('shutdown odds model vs market?');
    expect(modelled).toMatch(/^This event has one yes\/no contract, \*\*Shutdown\*\*: the market gives it 58\.0% \(mid\)[^\n]*the model [\d.]+%/);
    expect(modelled).not.toContain('New frontier model');
    // Of one contract, its record beside its price now.
    expect(await chain('https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31 base rate vs current price, and how well has the market called this series?')).toMatch(/^\*\*Base rates\*\*[^\n]*Shutdown: \d+ of \d+[^\n]*\n\n\*\*Market accuracy:\*\*[^\n]*\n\nNow:\n- \*\*Shutdown\*\*: market 58\.0% \(mid\), model [\d.]+%/);
    // Beside the address, "is X going to happen?" is answered from the report, not with the whole of it.
    expect(await chain('is the govt going to shut down?  https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31')).toMatch(/^\*\*Yes\*\*: \*\*Shutdown\*\* is at 58\.0% \(mid\), more likely than not on the market's price; the model agrees/);
    for (const q of ['what about lakers celtics, whos the fav', 'expected high temp implied?', "what's the market saying on jobs numbers for december? above 100k?", 'whats the nyc high temp market look like for tmrw']) {
      expect(await chain(q), q).toMatch(/^Open Kalshi events matching/);
    }
    // One event found shows every outcome, not "and 1 more outcome".
    const nyc = await chain('whats the nyc high temp market look like for tmrw');
    expect(nyc).toContain('44°F to 47°F 10.0%');
    expect(nyc).not.toContain('more outcome');
    // What the prices add up to, asked in a search or of the events found before.
    expect(await chain("what's the overround on the box office market?")).toContain('The 5 outcomes\' prices add up to 117.5%, 17.5 points over 100% (the overround');
    expect(await chain('show me the approval markets', 'does the approval ladder add up properly or is something off?')).toMatch(/\n\n1\. \*\*Presidential approval[^\n]*The 5 outcomes' prices add up to 127\.0%/);
  });

  it('says when the events found settle on another date than the one asked, and puts the outcome at a level asked first', async () => {
    const ask = async (input: string) => (await client.responses.create({ model: 'svc-agent', input })).output_text;
    const yearEnd = await ask('will bitcoin be above 100k by end of year');
    expect(yearEnd).toMatch(/^No open Kalshi event matches all of “will bitcoin be above 100k by end of year”: none settles at the end of 2026\. The closest/);
    expect(yearEnd).toContain('[1]: **Above $100,000 4.0%**; Above $92,000 43.0%;');
    expect(yearEnd).toContain('It settles on 2026-11-20, not at the end of 2026, the date asked about.');
    // The right day: no date note; a level the event has no outcome at is said, with the levels it has.
    const tomorrow = await ask('odds of bitcoin above 120k tomorrow');
    expect(tomorrow).toMatch(/^Open Kalshi events matching/);
    expect(tomorrow).toContain('No outcome at $120,000: its levels run from “Above $92,000” to “Above $104,000”.');
    expect(tomorrow).not.toContain('the date asked about');
    // Between two rungs: those two, with their prices; a weekday is a date.
    expect(await ask('ETH above 3500')).toContain('No outcome at 3,500: the nearest are “Above $3,400” (66.0%) and “Above $3,600” (34.0%).');
    const friday = await ask('will bitcoin be above 100k on friday?');
    expect(friday).toMatch(/^Open Kalshi events matching/);
    expect(friday).not.toContain('friday”');
    expect(await ask('bitcoin on monday')).toContain('It settles on 2026-11-20, not on Monday (2026-11-23), the date asked about.');
    expect(await ask('cpi above 2.8%')).toContain('[1]: **Above 2.8 96.0%**;');
    // A ladder priced out of order is said to be.
    expect(await ask('cpi above 2.8%')).toContain('Its prices cross: “Above 2.8” (96.0%) is priced over “Above 2.6” (92.5%), though YES on the first implies YES on the second.');
    expect(await ask('ETH above 3500')).not.toContain('prices cross');
    // The other side of a contract asked for: its price is not the answer, its complement is said.
    expect(await ask('odds CPI comes in below 3%?')).toContain('“below 3%” is the other side of “Above 3.0”: about 13.5%.');
    expect(await ask('cpi above 2.8%')).not.toContain('other side');
    expect(await ask('government shutdown by end of year')).toMatch(/^Open Kalshi events matching[^]*Shutdown 58\.0%\. Closes 2026-12-31 15:00 UTC\.\n/);
    // Levels said in words only (Kalshi's custom strikes): the range holding the level asked.
    expect(await ask('NYC temperature 50°F tomorrow')).toContain('[1]: **48°F to 51°F 32.0%**;');
    // One side of a level among ranges: what that side covers, never the one range holding the level as the answer.
    const above60 = await ask('will NYC be above 60 degrees tomorrow?');
    expect(above60).toContain('[1]: **56°F or above 43.0%**;');
    expect(above60).toContain('No outcome is “above 60°”: 60° falls inside “56°F or above” (43.0%), so its chance is at most 43.0%.');
    expect(await ask('NYC temperature below 50 degrees tomorrow')).toContain(
      '“below 50°” is “Below 44°F” and “44°F to 47°F”, together 27.5% (22.1% normalised), and part of “48°F to 51°F” (32.0%), which 50° falls inside: between 27.5% (22.1% normalised) and 59.5% (47.8% normalised).',
    );
    // A count's outcomes are whole numbers: "more than 4" is "5 or more", not "4" as well.
    // Ranges of one quantity read in the order of their levels, every one shown, even in a list of several events.
    expect(await ask('spacex launches odds')).toContain('[1]: 2 or fewer 42.0%; 3 12.5%; 4 38.0%; 5 or more 25.0%. Closes');
    const listing = await ask('what markets close this week?');
    const nyc = listing.split('\n').find((l) => l.includes('KXHIGHNY'))!;
    expect(nyc).not.toContain('more outcome');
    expect(nyc).toMatch(/Below 44°F [\d.]+%; 44°F to 47°F [\d.]+%; 48°F to 51°F [\d.]+%; 52°F to 55°F [\d.]+%; 56°F or above [\d.]+%/);
    expect(await ask('odds of more than 4 SpaceX launches this week')).toContain('[1]: **5 or more 25.0%**; 2 or fewer 42.0%; 3 12.5%; 4 38.0%. Closes 2026-11-24 15:00 UTC. “more than 4” is “5 or more”, 25.0% (21.3% normalised).');
    const atLeast3 = await ask('chance of at least 3 spacex launches');
    expect(atLeast3).toContain('“at least 3” is “3”, “4” and “5 or more”, together 75.5% (64.3% normalised).');
    expect(atLeast3).toMatch(/^Open Kalshi events matching/);
    expect(await ask('odds spacex does not launch more than 4')).toContain('“at most 4” is “2 or fewer”, “3” and “4”, together 92.5% (78.7% normalised).');
    expect(await ask('spacex 6 or more launches')).toContain('No outcome is “at least 6”: 6 falls inside “5 or more” (25.0%), so its chance is at most 25.0%.');
    expect(await ask('odds payrolls above 200k')).toContain('“above 200k” is “Above 225k”, 10.5% (8.4% normalised), and part of “150k to 225k” (20.5%), which 200k falls inside: between 10.5% (8.4% normalised) and 31.0% (24.9% normalised).');
    const below0 = await ask('odds of nonfarm payrolls below 0');
    expect(below0).toContain('[1]: **Below 0 25.0% (last trade)**; 0 to 75k');
    expect(below0).not.toContain('**0 to 75k');
    expect(await ask('chance payrolls come in negative')).toContain('[1]: **Below 0 25.0% (last trade)**; 0 to 75k');
    // Asked for an outcome not to happen: its other side.
    const notAbove = await ask('chance bitcoin does not end above 100k');
    expect(notAbove).toMatch(/^Open Kalshi events matching/);
    expect(notAbove).toContain('“not above $100,000” is the other side of “Above $100,000”: about 96.0%.');
    const noShutdown = await ask('odds there is no government shutdown');
    expect(noShutdown).toMatch(/^Open Kalshi events matching/);
    expect(noShutdown).toContain('Shutdown 58.0%. Closes 2026-12-31 15:00 UTC. Not “Shutdown”: about 42.0%.');
    expect(await ask('chance the Chiefs lose to the Bills?')).toContain('**Home team (Chiefs) 63.0%**; Away team (Bills) 38.5%. Closes 2026-11-23 15:00 UTC. Not “Home team (Chiefs)”: about 37.0% (37.9% normalised).');
    // Of exclusive outcomes: the rest, together.
    expect(await ask("what's the chance the Fed doesn't hike in December?")).toContain('Not “Hike 25bps”: about 48.5% (53.4% normalised).');
    // A range asked: exclusive ranges inside it added up; on a ladder, the lower rung less the higher.
    expect(await ask('odds the high in NYC tomorrow is between 48 and 55?')).toContain('“between 48 and 55” is “48°F to 51°F” and “52°F to 55°F”, together about 54.0% (43.4% normalised).');
    expect(await ask('odds CPI comes in between 2.8 and 3.0?')).toContain('“between 2.8 and 3.0” is “Above 2.8” less “Above 3.0”: about 9.5%.');
    // A level in the unit the labels leave out ("10 million square km" of "Above 10.0").
    const ice = await ask('odds arctic sea ice is above 10 million square km?');
    expect(ice).toContain('[1]: **Above 10.0 23.5%**');
    expect(ice).not.toContain('No outcome at');
    // Verbs of how an outcome comes about are not topics.
    expect(await ask('Is the government going to shut down?')).toMatch(/^Open Kalshi events matching[^\n]*\n\n1\. \*\*Government shutdown by December 2026\?\*\*/);
    expect(await ask("What's the chance the Lakers beat the Celtics?")).toMatch(/^Open Kalshi events matching[^\n]*\n\n1\. \*\*Lakers at Celtics/);
    // A level beside a topic word is not a topic word of its own: the Fed event is found.
    for (const q of ['Fed cut 25bps', 'odds of a 25bps cut']) expect(await ask(q), q).toContain('(KXFEDDECISION-26DEC, Economics) [1]');
    const january = await ask('fed decision in january');
    expect(january).toContain('none mentions “january”, and none settles in January 2027.');
  });

  it("answers questions about a reported event from its report (a thread's replies), not with the whole report again or the help", async () => {
    const url = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
    const payer = await svc.account({ plan: 'pro', credits: 10 });
    const report = (await new OpenAI({ baseURL: svc.baseURL, apiKey: payer.apiKey, maxRetries: 0 }).responses.create({ model: 'svc-prediction-markets-agent', input: url })).output_text;
    const row = (outcome: string) => report.split('\n').find((l) => l.startsWith(`| ${outcome} [`))!.split('|').map((c) => c.trim());
    const hike = row('Hike 25bps');
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: url }, { role: 'assistant', content: report }];
    const ask = async (question: string) => {
      messages.push({ role: 'user', content: question });
      const r = await client.chat.completions.create({ model: 'svc-agent', messages });
      const text = r.choices[0]!.message.content!;
      messages.push({ role: 'assistant', content: text });
      return { text, citations: (r.choices[0] as any).citations as { order: number; url: string }[] };
    };
    const likely = await ask('What is the most likely outcome, in one sentence?');
    expect(likely.text).toMatch(new RegExp(`^The market's favourite is \\*\\*Hike 25bps\\*\\* at ${hike[2]!.replace(/[().;]/g, '\\$&')}; the model gives it ${hike[3]} \\(gap \\${hike[4]}\\) \\[1\\]\\.`));
    expect(likely.citations.map((c) => c.order)).toEqual([1]);
    expect(likely.citations[0]!.url).toMatch(/KXFEDDECISION-26DEC/i); // that outcome's market
    // Several questions in a row, each about the same event.
    expect((await ask('Which outcome does the model favour? One sentence.')).text).toMatch(/^The model favours \*\*Hike 25bps\*\* at 50\.8%/);
    expect((await ask('when does it close?')).text).toMatch(/^- \*\*Trading closes\*\* 2026-12-15 15:00 UTC/);
    expect((await ask('how is it resolved?')).text).toMatch(/^- \*\*How it resolves\*\* \(as written for [^)]+\): “If the FOMC's target range[^\n]*\n- \*\*Resolution source:\*\* Federal Reserve \[2\]\./);
    const gap = await ask("what's the biggest mispricing?");
    // The gap is against the normalised share only; the takeaway names the trade the quotes offer.
    expect(gap.text).toMatch(/^The largest gap is \*\*Hike 25bps\*\*: the model says 50\.8%, the market 51\.5% \(mid; 46\.6% normalised\), \+4\.2 pts against its normalised share, but at its price of 51\.5% YES is no buy on the model \[1\]\. At the quoted prices the model's best buy is NO on \*\*Cut more than 25bps\*\* at \$0\.68 against its 70\.2%, \+\$0\.022 per \$1 contract before fees; NO on every outcome locks in 5¢ whatever happens \[2\]\./);
    expect(gap.text).toContain('_From the stored report on **Fed decision in December 2026?**');
    expect((await ask('thanks!')).text).toMatch(/^You're welcome\./);
    // Which way a gap goes, the other end of the prices, an outcome named, the past favourites.
    expect((await ask("what's the least likely outcome?")).text).toMatch(/^The market's least likely outcome is \*\*Cut 25bps\*\* at 10\.0%/);
    expect((await ask('which outcome is overpriced?')).text).toMatch(/^The most overpriced outcome on the model is \*\*Hold\*\*: the model gives 12\.4% against a market price of 16\.0%, 3\.6 pts below it \(gap to the normalised price −2\.1 pts\) \[1\]\./);
    // Hike 25bps is above the model only against its normalised share: at its price (51.5% > 50.8%) buying it is not favoured.
    expect((await ask('which is underpriced?')).text).toMatch(
      /^On the model, no outcome is underpriced at its price: every market price is at or above the model's probability\. \*\*Hike 25bps\*\* has the largest gap against its normalised price \(\+4\.2 pts\), but its price, 51\.5%, is above the model's 50\.8%: it is cheap only beside the other outcomes, and buying it is not favoured \[1\]\./,
    );
    const cut = (await ask('what does the model say about a cut?')).text;
    expect(cut).toMatch(/^- \*\*Cut more than 25bps\*\*: market 33\.0% .*\n- \*\*Cut 25bps\*\*: market 10\.0% \(mid; 9\.0% normalised\), model 7\.0%, gap −2\.0 pts \[2\]\n\nTogether: market 43\.0% \(their prices added up; 38\.9% normalised to 100%\), model 36\.8% \[1\]\[2\]\./);
    expect((await ask('what are the odds of a hold?')).text).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    // An amount no outcome names alone: the outcome whose range holds it, not every cut added up.
    expect((await ask("what is the market's probability of a cut of 50bps?")).text).toMatch(/^No outcome is exactly “50bps”: it falls under \*\*Cut more than 25bps\*\*, which also covers larger amounts, so its chance is at most that outcome's\.\n\n- \*\*Cut more than 25bps\*\*: market 33\.0%[^\n]*\n\n_From the stored report/);
    expect((await ask('is the favourite usually right?')).text).toMatch(/\*\*Market accuracy:\*\* the favourite 24 h before close won \d+ of \d+ events/);
  });

  it('answers questions of the rules from their quoted words, the overround, and arbitrage on the quotes', async () => {
    const thread = await reportThreads();
    const game = await thread('https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc');
    const cpi = await thread('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec');
    const btc = await thread('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20');
    // A case of the rules: the quoted clause that decides it, not the trading schedule; a tie is no outcome.
    for (const q of ['what happens if the game ends in a tie?', 'odds of a tie?']) {
      expect(await game(q), q).toMatch(/^No outcome of this event is a tie\. The market's prices add up to 101\.5%, leaving nothing priced for a result that is none of them \[1\]\[2\]\.\n\n- \*\*Could flip the outcome:\*\* “A tie resolves both markets to No\.” \[1\]\n- \*\*Full rules:\*\* the contract terms \[3\]\./);
    }
    expect(await game('what do the rules say about overtime?')).toMatch(/^- \*\*How it resolves\*\* \(as written for Home team \(Chiefs\)\): “If the home team wins the game, including overtime, then the market resolves to Yes\.” \[1\]\n- \*\*Full rules:\*\*/);
    expect(await btc('what do the rules say about the settlement time?')).toContain('(60-second average before 10:00 AM ET)');
    // Where the result is read from: the rule as written and the source.
    expect(await btc('what index is used for settlement?')).toMatch(/^- \*\*How it resolves\*\* \(as written for Above \$92,000\): “If the CF Benchmarks Bitcoin Real-Time Index[^\n]*\n- \*\*Resolution source:\*\* CF Benchmarks BRTI/);
    // A level past the ladder's ends is bounded by the nearest rung.
    expect(await cpi('is cpi under 2.5 likely')).toMatch(/^No rung is at 2\.5: it is below the event's levels, so “below 2\.5” is at most what \*\*Above 2\.6\*\* leaves: market at most 7\.5%, model at most 15\.6% \[1\]\./);
    expect(await cpi('odds cpi above 3.5?')).toMatch(/^No rung is at 3\.5: it is above the event's levels, so “above 3\.5” is at most \*\*Above 3\.2\*\*: market at most 61\.0%/);
    expect(await cpi('cpi above 2.4?')).toMatch(/“above 2\.4” is at least \*\*Above 2\.6\*\*: market at least 92\.5%/);
    expect(await cpi('when does trading stop')).toMatch(/^- \*\*Trading closes\*\* 2026-12-10 15:00 UTC/);
    expect(await cpi("when's the release?")).toMatch(/^- \*\*Trading closes\*\* 2026-12-10 15:00 UTC/);
    expect(await game('what if the stadium loses power?')).toMatch(/^The rules the report quotes say nothing about “stadium loses power”; the full terms are in the contract terms\. What it quotes:/);
    // The overround of exclusive outcomes; a ladder has none.
    expect(await game("what's the overround?")).toMatch(/^The market prices \(mids\) of the 2 outcomes add up to 101\.5%: an overround of 1\.5 points, the exchange's and market makers' edge \[1\]\[2\]\. Buying YES on every outcome at the ask costs \$1\.03 for a \$1 payout \(3\.0 points over\)\./);
    expect(await cpi("what's the vig?")).toMatch(/^These outcomes are not mutually exclusive \(each is a yes\/no of its own\), so their prices are not meant to add up to 100%/);
    // Arbitrage: a rung priced above the rung that contains it is one; exclusive outcomes whose asks add up past $1 are none.
    expect(await cpi('is there an arbitrage between 2.6 and 2.8?')).toMatch(
      /^Yes, on the report's quotes:\n\n- YES on \*\*Above 2\.6\*\* at the ask, \$0\.93 \[1\], and NO on \*\*Above 2\.8\*\* at \$0\.05 \(1 minus its \$0\.95 YES bid\) \[2\]: \$0\.98 for a pair that pays at least \$1 whatever happens \(YES on Above 2\.8 means YES on Above 2\.6\), so about 2¢ locked in per pair before fees\. The best prices are good for 493 pairs \(the thinnest leg, NO on Above 2\.8\); more fill at worse prices\.\n\nOn the report's quotes, which move; Kalshi's fees/,
    );
    // No arbitrage, and the nearest miss: the crossed rungs' pair costs a cent more than the $1 it is sure to pay.
    expect(await btc('is there an arbitrage?')).toMatch(/^No arbitrage on the report's quotes: no rung can be bought with NO on a rung inside it for less than the \$1 the pair is sure to pay; the cheapest pair, YES on \*\*Above \$100,000\*\* at \$0\.05 and NO on \*\*Above \$104,000\*\* at \$0\.96 (?:\[\d\])+, costs \$1\.01 for \$1 sure \(and \$2 if the result lands between them\), 1¢ over what it is sure to pay\./);
    // Trading figures of the contract snapshot, not surges; rankings by them; a named outcome's record.
    const fed = await thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    // One side asked ("YES on all four", a company word "profit" beside it): that side's loss first, then the side that locks one in.
    for (const q of ['if i buy yes on all four is that a guaranteed profit?', 'buy yes on every outcome, profit?']) {
      expect(await fed(q), q).toMatch(/^No: YES on every outcome at the asks costs \$1\.16 and pays exactly \$1 \(one outcome wins\), 16¢ lost whatever happens, before fees \[1\]\[2\]\[3\]\[4\]\.\n\nThe other way round there is one:\n\n- NO on every outcome at 1 minus its YES bid: \$2\.95 for at least \$3 \(every outcome but the winner pays\), 5¢ locked in before fees/);
    }
    expect(await game('no on every outcome, any arb?')).toMatch(/^No: NO on every outcome at 1 minus each YES bid costs \$1\.00 and pays exactly \$1 \(every outcome but the winner\), nothing gained, before fees/);
    // What stands out in the pricing: the ladder out of order, the overround, the largest gap, big moves, surges, wide spreads.
    const weird = await cpi('anything weird in the pricing?');
    expect(weird).toMatch(/^What stands out in the pricing:\n\n- \*\*Out of order:\*\* the market prices Above 2\.8 at 96\.0% against Above 2\.6 at 92\.5%/);
    expect(weird).toContain('- **Model against market:** **Above 3.0**, model 73.4% against market 86.5% (mid), gap −13.1 pts');
    expect(weird).toContain('- **Volume surge, Above 3.0:** 61,867 contracts in 24 hours, 13.4×');
    const off = await fed('does the market look off to you?');
    expect(off).toContain('- **Overround:** the 4 exclusive outcomes\' prices add up to 110.5%, 10.5 points over 100%');
    expect(off).toContain('- **Wide spreads:** Cut 25bps ($0.04), Hold ($0.04)');
    // A number of NO contracts: bought at 1 minus the bid, what they cost (the most they can lose) and pay.
    expect(await fed("if I buy 500 NO on hike at the ask what's my max loss and payoff?")).toContain(
      'A NO contract bought at $0.49 (1 minus the bid) pays $1.00 if it resolves NO: $0.51 profit per contract before fees, the $0.49 lost if it resolves YES. 500 NO contracts at $0.49 cost $245, the most they can lose; if it resolves NO they pay $500, a profit of $255 before fees.',
    );
    // Said other ways: "I want N NO contracts", "and if instead I buy N YES on …".
    expect(await fed("I want 1000 NO contracts on hike, what's my max loss?")).toContain('1,000 NO contracts at $0.49 cost $490, the most they can lose; if it resolves NO they pay $1,000, a profit of $510 before fees (only 699 NO are offered at $0.49, the rest filling at worse prices, so the cost would be higher).');
    expect(await fed('and if instead I buy 300 YES on hold?')).toContain('300 YES contracts at $0.18 cost $54, the most they can lose; if it resolves YES they pay $300, a profit of $246 before fees.');
    // "I mean" is no mean; "sept" is September; an outcome of the report named is this event's.
    for (const q of ['what did they do in sept', 'i mean the september meeting, what resolved']) {
      expect(await fed(q), q).toMatch(/^The September event of the series, \*\*KXFEDDECISION-26SEP\*\* \(closed 2026-09-20\): \*\*Cut 25bps\*\* resolved YES, priced at 65\.0% 24 hours before close/);
    }
    expect(await fed('the one below cut 25 i mean. hold?')).toMatch(/^(?:- \*\*Cut 25bps\*\*[^\n]*\n)?- \*\*Hold\*\*: market 16\.0% \(mid; 14\.5% normalised\), model 12\.4%/m);
    // The next one down of outcomes without levels is the next row of the table.
    const fedTalk = await reportConversation('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    expect(await fedTalk('whats outcome 2?')).toMatch(/^Outcome 2 is \*\*Cut 25bps\*\*/);
    expect(await fedTalk('and the next one down?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    // The report's sources with their addresses; a rung named by its level in a longer question; every trade ranked.
    const eth = await thread('https://kalshi.com/markets/kxethd/ethereum-price-end-of-day/kxethd-26nov20');
    const sources = await eth('where do ur numbers come from? links pls');
    expect(sources).toMatch(/^The report's figures come from these sources:\n\n- Kalshi: Ethereum price on November 20, 2026 at 10am ET\? \(event page\): https:\/\/kalshi\.com\/markets\/kxethd\/ethereum-price-end-of-day\/kxethd-26nov20 \[1\]\n/);
    expect(sources).toContain('- Kalshi contract terms: KXETHD: https://kalshi-public-docs.s3.amazonaws.com/contract_terms/KXETHD.pdf [8]');
    expect(await eth('should i buy yes on 3600 here, whats my ev')).toMatch(/^- \*\*Above \$3,600\*\* \(KXETHD-26NOV20-T3600\): bid —, ask —[^\n]*There is no ask in the order book: nothing to buy YES at now, so no expected value to give\./);
    expect(await eth('rank every trade best first. and whats the worst one')).toMatch(/^On the model, the best buy at current prices is \*\*YES on Above \$3,400\*\*[^\n]*The worst is \*\*NO on Above \$3,400\*\*/);
    // The series' last N settled events counted: an outcome named (the count no level), each one's winner, a count claimed checked.
    const approvalThread = await thread('https://kalshi.com/markets/kxapproval/presidential-approval-rating/kxapproval-26nov27');
    expect(await approvalThread('last 5 approval readings, how many came in below 41')).toMatch(/^\*\*Below 41%\*\* resolved YES in 4 of the last 5 settled events of the series \(2026-11-12, 2026-11-05, 2026-10-22, 2026-10-15\)\. \[\d\]/);
    expect(await approvalThread('last 3 weeks, which bucket won')).toMatch(/^What resolved YES in the last 3 settled events of the series, newest first [^\n]*:\n\n- KXAPPROVAL-26NOV12 \(closed 2026-11-12\): Below 41%\n- KXAPPROVAL-26NOV05 \(closed 2026-11-05\): Below 41%\n- KXAPPROVAL-26OCT29 \(closed 2026-10-29\): 42% to 43%/);
    expect(await cpi('how many times has it printed above 3.2 in the last 12')).toMatch(/^\*\*Above 3\.2\*\* resolved YES in 1 of the last 12 settled events of the series \(2026-04-23\)/);
    expect(await (await thread('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos'))('lakers won 4 of the last 5 vs boston right? so why r they only 62')).toMatch(/^\*\*No\*\*: not 4; \*\*Away team \(Lakers\)\*\* resolved YES in 1 of the last 5 settled events of the series \(2026-11-14\)/);
    expect(await cpi('how many times has it printed above 3.2 in this series')).toMatch(/^- \*\*Above 3\.2\*\* resolved YES in 1 of 12 settled events of the series \(8\.3%\)/);
    // A stake on "the dog" of a game: the side priced lower; "250 NO": that many NO contracts.
    const dog = await (await thread('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos'))('if i take 150 on the dog');
    expect(dog).toMatch(/^- \*\*Home team \(Celtics\)\*\*[^\n]*\$150 buys 384 YES contracts at \$0\.39 \(\$149\.76\)[^\n]*expected value −\$0\.058 per \$1 contract before fees \(−\$22\.27 on 384 contracts\)/);
    expect(await fed('250 NO on hike: max loss and ev')).toContain('250 NO contracts at $0.49 cost $122.50, the most they can lose');
    // A day named: the event closed that day.
    expect(await approvalThread('what did the nov 12 one settle at')).toMatch(/^The November 12 event of the series, \*\*KXAPPROVAL-26NOV12\*\* \(closed 2026-11-12\): \*\*Below 41%\*\* resolved YES/);
    // Either side asked for the value: the one the model finds cheaper, the other beside it, no Yes or No.
    expect(await (await thread('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos'))('celts or lakers, whos the value')).toMatch(/^On the model, the value is \*\*Away team \(Lakers\)\*\*, the model's 66\.8% against a market price of 62\.5% \(\+4\.3 pts\) \[\d\]; \*\*Home team \(Celtics\)\*\*, the model's 33\.2% against a market price of 38\.5% \(−5\.3 pts\)/);
    // Prices over days are moves, not the record.
    expect(await btc('price move over the last 7 days?')).toMatch(/^- \*\*Above \$92,000\*\*: 45\.0% 7 days ago/);
    // "Whos the fav and is it cheap": the favourite, then the verdict on it, each under its heading.
    const fav = await fed('so whos the fav and is it cheap');
    expect(fav).toMatch(/^### Whos the fav\n\nThe market's favourite is \*\*Hike 25bps\*\* at 51\.5%[^\n]*\n\n### Is it cheap\n\n/);
    // A point spread of a game: a winner market prices none, said before the winner contracts; the order book's spread is no point spread.
    const nba = await thread('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos');
    for (const q of ['lakers -4.5 spread, whats the price on that?', 'will the lakers cover?']) {
      expect(await nba(q), q).toMatch(/^This market prices who wins, not a point spread: a win by any margin resolves the winner's contract YES[^\n]*\n\n- \*\*Away team \(Lakers\)\*\*/);
    }
    expect(await nba('whats the spread on the lakers?')).toMatch(/^- \*\*Away team \(Lakers\)\*\* \(KXNBAGAME-26NOV21LALBOS-B\): bid \$0\.62, ask \$0\.63, spread \$0\.01/);
    // What insiders say is no source it reads, whatever word of the report ("close") the question has.
    const shutdown = await thread('https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31');
    expect(await shutdown('what are congress insiders saying, any deal close?')).toMatch(/^I cannot answer that from what I read about \*\*Government shutdown by December 2026\?\*\*/);
    // A bankroll said as "5k" or "2k to play with", and the outcome named, are what Kelly sizes.
    expect(await fed('kelly on hike with a 5k bankroll?')).toMatch(/^On the model, the trade to size is \*\*NO on Hike 25bps\*\* at \$0\.49 against the model's 49\.2%[^\n]* is \*\*0\.4%\*\* of the bankroll; half Kelly 0\.2%\. On \$5,000: \$19\.61 \(40 contracts at \$0\.49\) at full Kelly, \$9\.80 \(20 contracts at \$0\.49\) at half\./);
    const nycThread = await thread('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    for (const q of ['half kelly on the best trade with 2k', 'kelly w 2k', 'got 2k. how much do i put on the best trade']) {
      expect(await nycThread(q), q).toMatch(/^On the model, the trade to size is \*\*NO on 48°F to 51°F\*\* at \$0\.69[^\n]*On \$2,000: \$335\.48 \(486 contracts at \$0\.69\) at full Kelly/);
    }
    expect(await nycThread('got 2k to play with. best trade here and half kelly size in contracts?')).toMatch(/^On the model, the trade to size is \*\*NO on 48°F to 51°F\*\* at \$0\.69 against the model's 74\.2%[^\n]* is \*\*16\.8%\*\* of the bankroll; half Kelly 8\.4%\. On \$2,000: \$335\.48 \(486 contracts at \$0\.69\) at full Kelly, \$167\.74 \(243 contracts at \$0\.69\) at half\./);
    // A price supposed: the expected value at it, not at the quotes.
    expect(await fed('say hike dips to 40c, whats my EV buying yes there')).toMatch(/^- \*\*Hike 25bps\*\* [^\n]*Supposing YES trades at \$0\.40 \(NO at \$0\.60\), not the quotes above\. Buying YES at \$0\.40 against the model's 50\.8%: expected value \+\$0\.108 per \$1 contract before fees, favoured on the model\./);
    const supposed = await cpi('if 3.0 drops to 80c whats my ev on yes');
    expect(supposed).toMatch(/^- \*\*Above 3\.0\*\* [^\n]*Buying YES at \$0\.80 against the model's 73\.4%: expected value −\$0\.066 per \$1 contract before fees/);
    expect(supposed).not.toContain('Above 2.6');
    // Kelly at a price supposed: sized at it, of the outcome named; "and if it goes to 55c?" asks it again at that price.
    const kelly40 = 'say hike dips to 40c, how much of a 5k bankroll should i put on it (kelly)?';
    const at40 = await fed(kelly40);
    expect(at40).toMatch(/^Supposing YES on \*\*Hike 25bps\*\* trades at \$0\.40 \(NO at \$0\.60\), not the report's quotes: on the model, the trade to size is \*\*YES on Hike 25bps\*\* at \$0\.40 against the model's 50\.8%[^\n]* is \*\*18\.0%\*\* of the bankroll; half Kelly 9\.0%\. On \$5,000: \$900 \(2,250 contracts at \$0\.40\) at full Kelly/);
    const fedUrl = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
    const again = (await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: fedUrl }, { role: 'assistant', content: '(report)' }, { role: 'user', content: kelly40 }, { role: 'assistant', content: at40 }, { role: 'user', content: 'and if it goes to 55c?' }] })).choices[0]!.message.content!;
    expect(again).toMatch(/^Supposing YES on \*\*Hike 25bps\*\* trades at \$0\.55 \(NO at \$0\.45\)[^\n]*the trade to size is \*\*NO on Hike 25bps\*\* at \$0\.45 against the model's 49\.2%[^\n]* is \*\*7\.6%\*\* of the bankroll/);
    // "cut 25 yes" is Cut 25bps's YES, not 25 contracts; YES and NO of one outcome together lock in a loss of the spread.
    const cut = await fed('ev of buying cut 25 yes?');
    expect(cut).toMatch(/^- \*\*Cut 25bps\*\* \(KXFEDDECISION-26DEC-B\)[^\n]*Buying YES at \$0\.12 against the model's 7\.0%: expected value −\$0\.050 per \$1 contract before fees, not favoured/);
    expect(cut).not.toContain('25 YES contracts');
    expect(await fed('if i buy 200 pairs of yes and no on hold, what do i lock in?')).toMatch(/^No profit is locked in: YES on \*\*Hold\*\* at the ask, \$0\.18, and NO at \$0\.86 \(1 minus the \$0\.14 YES bid\) cost \$1\.04 a pair, and exactly one of the two pays \$1, so each pair loses the 4¢ spread whatever happens \[1\]\. 200 pairs cost \$208 and pay \$200: \$8 lost before fees\./);
    // The expected size of a rate move: of a cut first when a cut is asked, the expected change, then a hike.
    expect(await fed('expected extent of the cut?')).toMatch(/^A cut of any size: 43\.0% on the market's prices added up \(38\.9% normalised to 100%\), 36\.8% on the model; if there is one, about \*\*44 bps\*\* on the market and \*\*45 bps\*\* on the model\. On the market's prices, normalised to add up to 100%, the expected change in the rate is about \*\*−5\.5 bps\*\* and the median outcome \*\*Hold\*\*; on the model, about \*\*−4\.0 bps\*\* and \*\*Hike 25bps\*\* \[1\]\[2\]\[3\]\[4\]\. A hike of any size: 51\.5% on the market's prices added up \(46\.6% normalised to 100%\), 50\.8% on the model/);
    expect(await fed('expected size of a hike?')).toMatch(/^A hike of any size: 51\.5% on the market's prices added up \(46\.6% normalised to 100%\), 50\.8% on the model; if there is one, about \*\*25 bps\*\*/);
    // A side alone corrects the question before; "the other side of that one" is its NO.
    const fedTurns = async (...qs: string[]) => {
      const messages: { role: 'user' | 'assistant'; content: string }[] = [{ role: 'user', content: fedUrl }, { role: 'assistant', content: '(report)' }];
      let text = '';
      for (const q of qs) {
        messages.push({ role: 'user', content: q });
        text = (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
        messages.push({ role: 'assistant', content: text });
      }
      return text;
    };
    expect(await fedTurns('odds of a hold?', 'what do 100 of those cost', 'no i meant the NO side')).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\)[^\n]*100 NO contracts at \$0\.86 cost \$86, the most they can lose; if it resolves NO they pay \$100/);
    // Kelly again on another bankroll: the same trade (the bankroll is no level naming an outcome).
    expect(await fedTurns('kelly on NO hold with $10,000', 'what about with a 10k bankroll')).toMatch(/^On the model, the trade to size is \*\*NO on Hold\*\* at \$0\.86[^\n]* is \*\*11\.4%\*\* of the bankroll; half Kelly 5\.7%\. On \$10,000: \$1,142\.86/);
    // A chance the asker supplies is weighed instead of the model's, and is no level naming an outcome.
    expect(await fed('if i think hike is 60%, EV on 100 yes')).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\)[^\n]*Buying YES at \$0\.52 against your 60\.0%: expected value \+\$0\.080 per \$1 contract before fees \(\+\$8 on 100 contracts\), favoured on your estimate\./);
    expect(await fedTurns('if i think hike is 60%, EV on 100 yes', 'full kelly on 2500 at that 60%')).toMatch(/^On your 60\.0% for Hike 25bps, the trade to size is \*\*YES on Hike 25bps\*\* at \$0\.52 against your 60\.0%[^\n]* is \*\*16\.7%\*\* of the bankroll; half Kelly 8\.3%\. On \$2,500: \$416\.67 \(801 contracts at \$0\.52; only 493\.5 YES are offered at \$0\.52, the rest filling at worse prices\) at full Kelly/);
    expect(await fedTurns('whats the price of hike', 'kelly on that with a 10k bankroll')).toMatch(/^On the model, the trade to size is \*\*NO on Hike 25bps\*\* at \$0\.49/);
    expect(await fedTurns('whats the price of hike', 'cost of 50 yes on it and what do i net if it hits')).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\)[^\n]*50 YES contracts at \$0\.52 cost \$26, the most they can lose; if it resolves YES they pay \$50, a profit of \$24 before fees/);
    // "Coin flip?" is how likely; "sum of both cut outcomes" adds them up.
    expect(await fed('coin flip on hold?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    expect(await fed('sum of both cut outcomes')).toContain('Together: market 43.0% (their prices added up; 38.9% normalised to 100%), model 36.8% [1][2].');
    expect(await fedTurns('odds of a hold?', 'whats the other side of that one cost')).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\)[^\n]*A NO contract costs \$0\.86 \(1 minus the YES bid\) and pays \$1\.00 if it resolves NO\./);
    // How money is lost, and what a price in cents means: in plain words.
    for (const q of ['how do I lose money on this?', 'what does 16c on hold mean?']) expect(await fed(q), q).toMatch(/^\*\*Fed decision in December 2026\?\*\*, in plain words: the market lists 4 outcomes/);
    // A second part's "them" is what the first part named.
    const both = await game('bills ML in american odds? and if i throw 250 on them what do i get back');
    expect(both).toMatch(/^### Bills ML in american odds\?\n\n[^\n]*\n\n- \*\*Away team \(Bills\)\*\*: market 38\.5%[^\n]*→ \+160/);
    expect(both).toMatch(/### If i throw 250 on them what do i get back\n\n- \*\*Away team \(Bills\)\*\*[^\n]*\$250 buys 641 YES contracts at \$0\.39 \(\$249\.99\): if it resolves YES they pay \$641, a profit of \$391\.01 before fees/);
    expect(both).not.toContain('Home team (Chiefs)** (KX');
    // An outcome named in a question of the rules: the rules, not its price.
    // What qualifies is in the rule as written, whatever words it uses.
    const ai = await thread('https://kalshi.com/markets/kxaimodel/frontier-ai-model-release/kxaimodel-26dec19');
    expect(await ai('which labs count as top-3?')).toMatch(/^- \*\*How it resolves\*\* \(the rules\): “If OpenAI, Anthropic or Google DeepMind publicly releases/);
    const emergency = await fed('what exactly counts as a cut more than 25? does an emergency meeting count?');
    expect(emergency).toContain('“Resolution uses the Federal Reserve\'s statement; an unscheduled meeting before the scheduled one counts.”');
    expect(emergency).not.toMatch(/^- \*\*Cut more than 25bps\*\*: market/);
    expect(await fed('what is the volume on the hold contract?')).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\): bid \$0\.14, ask \$0\.18, spread \$0\.04, last \$0\.16; volume 111,535 \(6,998 in the last 24 hours\), open interest 73,654 \[1\]\./);
    expect(await fed('which has the most volume?')).toMatch(/^\*\*Cut 25bps\*\* has the most volume: 336,207 contracts \[1\]\.\n\n- \*\*Cut 25bps\*\*: 336,207 \[1\]\n- \*\*Hike 25bps\*\*: 113,933/);
    expect(await fed('which contract has the most open interest?')).toMatch(/^\*\*Cut 25bps\*\* has the most open interest: 220,268 contracts/);
    expect(await fed('any volume surges?')).toContain('**Volume surge, Cut 25bps:**');
    // "No change" is the hold, not a question about price moves.
    expect(await fed('odds of no change in rates')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    // A slip in an outcome's word still names it; a real word near one does not.
    expect(await fed('fed hikke odds')).toMatch(/^- \*\*Hike 25bps\*\*: market 51\.5%/);
    expect(await fed('odds of a holld?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    // A topic of the thread's own event is no other event: answered from its report, not searched.
    expect(await fed('odds the fed holds?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    expect(await fed('what did the fed do in october?')).toMatch(/^The October event of the series, \*\*KXFEDDECISION-26OCT\*\* \(closed 2026-10-20\): \*\*Cut more than 25bps\*\* resolved YES, priced at 38\.0% 24 hours before close \[\d+\]\[\d+\]\./);
    expect(await fed('what about bitcoin?')).toMatch(/^Open Kalshi events matching/);
    // A price asked in words of its own, not only "odds".
    for (const q of ["what's the price of hold?", 'what does hold trade at?', 'how much is hold?', 'what is the market saying for hold?', 'market price of hold']) {
      expect(await fed(q), q).toMatch(/^- \*\*Hold\*\*: market 16\.0% \(mid; 14\.5% normalised\), model [\d.]+%, gap /);
    }
    expect(await game("what's the spread on the favourite?")).toMatch(/^The market's favourite is \*\*Home team \(Chiefs\)\*\* at 63\.0% \(mid; 62\.1% normalised\)\.\n\n- \*\*Home team \(Chiefs\)\*\* \(KXNFLGAME-26NOV23BUFKC-A\): bid \$0\.62, ask \$0\.64, spread \$0\.02/);
    expect(await cpi('how often did above 3.0 resolve yes?')).toMatch(/^- \*\*Above 3\.0\*\* resolved YES in 5 of 12 settled events of the series \(41\.7%\); the market prices it at 86\.5% \(mid\) now, the model at [\d.]+%\. \[1\]/);
    // The series' base rates are kept by its label, "Home team", whichever team is at home.
    expect(await game('how often did the home team win before?')).toMatch(/^- \*\*Home team \(Chiefs\)\*\*: “Home team” resolved YES in \d+ of \d+ settled events of the series/);
    expect(await game('which side has more volume?')).toMatch(/^\*\*Away team \(Bills\)\*\* has more volume: [\d,]+ contracts \(against [\d,]+ for \*\*Home team \(Chiefs\)\*\*\)/);
    expect(await game('chefs odds')).toMatch(/^- \*\*Home team \(Chiefs\)\*\*: market 63\.0%/);
    // "Should I bet on …?": the arithmetic on the model, said not to be advice.
    expect(await game('should i bet on the chiefs?')).toMatch(/^- \*\*Home team \(Chiefs\)\*\* \(KXNFLGAME-26NOV23BUFKC-A\): bid \$0\.62, ask \$0\.64[^\n]*Buying YES at \$0\.64 against the model's 64\.0%: expected value \+\$0\.000 per \$1 contract before fees[\s\S]*not investment advice/);
    // A stake in dollars: whole contracts at the ask, what they pay and what is lost.
    // A point spread is no winner market: no verdict on the win contract.
    expect(await game('will KC cover?')).not.toMatch(/^\*\*(?:Yes|No|About even)\*\*/);
    expect(await game('how much would I make if I bet $100 on the Bills?')).toContain('$100 buys 256 YES contracts at $0.39 ($99.84): if it resolves YES they pay $256, a profit of $156.16 before fees; if not, the $99.84 is lost.');
    // The expected value of a stake or a number of contracts, in all as well as per contract.
    const evTotal = (text: string, held: number) => {
      const [, sign, each, sign2, all] = /expected value ([+−])\$(\d\.\d{3}) per \$1 contract before fees \(([+−])\$([\d,.]+) on [\d,]+ contracts?\)/.exec(text)!;
      expect(sign2).toBe(sign);
      expect(Math.abs(Number(all!.replace(/,/g, '')) - held * Number(each))).toBeLessThanOrEqual(0.0005 * held + 0.005);
    };
    const staked = await game('ev of $200 on the bills yes at the ask?');
    expect(staked).toContain('$200 buys 512 YES contracts at $0.39 ($199.68)');
    evTotal(staked, 512);
    const hundred = await fed('whats the EV of buying 100 NO on hike at the ask');
    expect(hundred).toContain('100 NO contracts at $0.49 cost $49');
    evTotal(hundred, 100);
    // How much to stake: the Kelly fraction of the best trade (or of the side named), in dollars and contracts on a bankroll said.
    const sized = await fed('ok how much should i size if i have 1000 bucks');
    const kelly = /^On the model, the trade to size is \*\*(YES|NO) on [^*]+\*\* at \$(\d\.\d\d) against the model's ([\d.]+)%: [^\n]*The Kelly fraction, \(p − c\)\/\(1 − c\) = [^\n]*, is \*\*([\d.]+)%\*\* of the bankroll; half Kelly ([\d.]+)%\. On \$1,000: \$([\d,.]+) \((\d+) contracts at \$\d\.\d\d\) at full Kelly/.exec(sized);
    if (kelly) {
      const [, , price, chance, fraction, half, stake, count] = kelly;
      const f = (Number(chance) / 100 - Number(price)) / (1 - Number(price));
      expect(Math.abs(Number(fraction) - 100 * f)).toBeLessThan(0.1);
      expect(Math.abs(Number(half) - 50 * f)).toBeLessThan(0.1);
      expect(Math.abs(Number(stake!.replace(/,/g, '')) - 1000 * f)).toBeLessThan(1);
      expect(Number(count)).toBe(Math.floor(Number(stake!.replace(/,/g, '')) / Number(price)));
    } else expect(sized).toMatch(/^The Kelly criterion stakes nothing here/);
    expect(sized).toContain('not investment advice');
    // The breakeven of a side is its price.
    expect(await fed('breakeven probability on yes hike?')).toMatch(/Breakeven: YES at \$(0\.\d\d) needs a [\d.]+% chance to break even before fees; the model gives [\d.]+%/);
    // Two questions of different kinds in one turn: each answered, under its own heading; fractional odds are the decimal odds less the stake.
    const two = await fed('what are the fractional odds on hike? and what would 100 yes contracts on hold cost me');
    expect(two).toMatch(/^### What are the fractional odds on hike\?\n\nAs American \(moneyline\), decimal and fractional odds[^\n]*\n\n- \*\*Hike 25bps\*\*: market 51\.5% [^\n]*fractional \d+\/\d+\b/);
    expect(two).toContain('### What would 100 yes contracts on hold cost me');
    // A source both parts cite keeps one number.
    const same = await fed('what are the fractional odds on hold? and what would 100 yes contracts on hold cost me');
    const [oddsPart, costPart] = same.split(/^### /m).slice(1);
    const refOf = (part: string) => /Hold\*\*[^\n]*?(\[\d+\])/.exec(part)?.[1];
    expect(refOf(oddsPart!)).toBeDefined();
    expect(refOf(costPart!)).toBe(refOf(oddsPart!));
    // What could move it: the report's dates, moves, surges and the rules that could flip it.
    const catalysts = await fed('what would change your mind? any catalysts before close');
    expect(catalysts).toMatch(/^What could move it before the end, from the report[^\n]*\n\n- \*\*Trading closes\*\* /);
    expect(catalysts).toContain('- **Price move, Hike 25bps:**');
    expect(catalysts).toContain('- **Could flip the outcome:**');
    // A brief asked with another question: both, each under its heading.
    for (const q of ["tl;dr? where's the edge", "where's the edge? tl;dr", "summary? and what's the best trade"]) {
      const both = await fed(q);
      expect(both.match(/^### /gm), q).toHaveLength(2);
      expect(both, q).toMatch(/On the model, the (?:best|least unfavourable)|No contract is favoured on the model/);
    }
    expect(await fed("tl;dr? where's the edge")).toMatch(/^### TL;DR\?\n\n/);
    // A remark before a question is not a question of its own.
    expect(await fed('hike never resolved yes in 10 meetings but its priced 51%?? why does the model still say 50.8')).not.toContain('###');
    expect(two).toContain('100 YES contracts at $0.18 cost $18');
    expect(await game('any arb?')).toMatch(/^No arbitrage on the report's quotes: YES on every outcome costs \$1\.03 at the asks, and NO on every outcome \$1\.00 against the \$1 it pays\./);
  });

  it('a follow-up that points back ("its price?", "and the spread?") means the outcome the turn before named, through every turn of the thread', async () => {
    const ask = await reportConversation('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    expect(await ask('What probability does the model give to Hold?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    expect(await ask('and what is the market price for it?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%[^\n]*\n\n_From the stored report/);
    expect(await ask("what's its spread?")).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\): bid \$0\.14, ask \$0\.18, spread \$0\.04[^\n]*\n\n_From the stored report/);
    // "Why?" explains the model for the outcome the thread is about: its model against its market.
    expect(await ask('why?')).toMatch(/^Why the model gives \*\*Hold\*\* 12\.4% against a market 16\.0%/);
    // A question about the whole event after one about an outcome is about the whole event.
    expect(await ask('which is the favourite?')).toMatch(/^The market's favourite is \*\*Hike 25bps\*\*/);
    // Over a week, up or down; a mover of the day; what the series' last event resolved to.
    expect(await ask('did the hike price go up or down this week?')).toMatch(/^- \*\*Hike 25bps\*\*: 59\.0% 7 days ago, −7\.5 pts since; 51\.5% now/);
    expect(await ask('what did the last one resolve to yesterday?')).toMatch(/^The previous event of the series, \*\*KXFEDDECISION-26OCT\*\*/);
  });

  it('"the no side?", then "EV on that" values the same trade: that side, that count, the outcomes "those" were', async () => {
    const ask = await reportConversation('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    expect(await ask('what would 200 yes contracts on a cut cost me')).toContain('200 YES contracts at $0.34 cost $68');
    expect(await ask('the no side?')).toContain('200 NO contracts at $0.68 cost $136');
    const ev = await ask('EV on that');
    expect(ev).toContain("Buying NO at $0.68 against the model's 70.2%: expected value +$0.022 per $1 contract before fees (+$4.40 on 200 contracts)");
    expect(ev).toContain("Buying NO at $0.92 against the model's 93.0%: expected value +$0.010 per $1 contract before fees (+$2 on 200 contracts)");
    expect(ev).not.toContain('**Hold**');
    // A chance of one's own, then another: the same Kelly question again.
    expect(await ask("kelly on hold if i think it's 25%, 2k bankroll")).toMatch(/^On your 25\.0% for Hold, the trade to size is \*\*YES on Hold\*\* at \$0\.18/);
    expect(await ask('and at 10%?')).toMatch(/^On your 10\.0% for Hold, the trade to size is \*\*NO on Hold\*\* at \$0\.86 against your 90\.0%[^\n]*is \*\*28\.6%\*\* of the bankroll/);
  });

  it('in a report\'s thread: "is NO there a buy" values NO, "kelly on the dog" backs the dog, "no i meant hold." is a correction, "most OI", "the last outcome, 300 YES"', async () => {
    const ice = await reportConversation('https://kalshi.com/markets/kxseaice/sea-ice/kxseaice-26dec');
    expect(await ice("what's the spread on 11.0 and is NO there a buy")).toContain("Buying NO at $0.92 against the model's 93.4%: expected value +$0.014 per $1 contract before fees, favoured on the model.");
    const nfl = await reportConversation('https://kalshi.com/markets/kxnflgame/nfl/kxnflgame-26nov23bufkc');
    expect(await nfl('kelly on the dog w 2k')).toMatch(/^The Kelly criterion stakes nothing here: on the model, \*\*YES on Away team \(Bills\)\*\* at \$0\.39 against the model's 36\.0%/);
    const fed = await reportConversation('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    await fed('whats the model say on hike');
    expect(await fed('no i meant hold.')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    const btc = await reportConversation('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20');
    expect(await btc('which rung has the most OI')).toMatch(/^\*\*Above \$100,000\*\* has the most open interest: 191,591 contracts/);
    const film = await reportConversation('https://kalshi.com/markets/kxboxoffice/box-office/kxboxoffice-26nov22');
    expect(await film('the last outcome, what do 300 YES cost and pay')).toMatch(/^- \*\*Above \$80M\*\* \(KXBOXOFFICE-26NOV22-E\)[^\n]*300 YES contracts at \$0\.22 cost \$66, the most they can lose; if it resolves YES they pay \$300/);
  });

  it('after a weighing of the week\'s events: "what do 250 of it cost" is the trade it led with, "which of those closes last?" the events listed, and naming other events is no question of the one discussed', async () => {
    const turns = ['whats closing this week', 'which of these is the best bet?'];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
    const say = async (content: string) => {
      messages.push({ role: 'user', content });
      const text = (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
      messages.push({ role: 'assistant', content: text });
      return text;
    };
    for (const t of turns) await say(t);
    const best = messages.at(-1)!.content as string;
    const lead = /\*\*(YES|NO) on ([^*]+)\*\* at \$(0\.\d\d)/.exec(best);
    // (Which event leads depends on the reports other tests stored; the follow-up prices that one's trade.)
    if (lead) expect(await say('ok for that one, what do 250 of it cost')).toContain(`250 ${lead[1]} contracts at $${lead[3]}`);
    expect(await say('which of those closes last?')).toMatch(/^Of the \d+ events listed, \*\*[^*]+\*\* closes last/);
    expect(await say('rank the nyc temp, payrolls and approval markets by how overpriced they are')).not.toContain('From the stored report');
  });

  it('through the prediction-markets agent, a trade with "profit" in it stays with the event, and NO on every bucket is an arbitrage counted in sets', async () => {
    const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 30 })).apiKey, maxRetries: 0 });
    const url = 'https://kalshi.com/markets/kxboxoffice/box-office/kxboxoffice-26nov22';
    const report = (await payer.responses.create({ model: 'svc-prediction-markets-agent', input: url })).output_text;
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: url }, { role: 'assistant', content: report }];
    const say = async (content: string) => {
      messages.push({ role: 'user', content });
      const text = (await payer.chat.completions.create({ model: 'svc-prediction-markets-agent', messages })).choices[0]!.message.content!;
      messages.push({ role: 'assistant', content: text });
      return text;
    };
    expect(await say('no on every bucket, 100 sets: cost, payout, locked profit?')).toMatch(/^Yes, on the report's quotes:\n\n- NO on every outcome at 1 minus its YES bid: \$3\.88 for at least \$4[^\n]*100 sets cost \$388 and pay \$400: \$12 locked in before fees\./);
    // The thread carries on with the event, not the filings agent.
    expect(await say('EV of 300 NO on above 80M')).toContain('300 NO contracts at $0.80 cost $240');
  });

  it('"quarter kelly" is no fiscal quarter; "long 500 bills … P&L?" is that many contracts; "4k roll" a bankroll', async () => {
    const shutdown = await reportConversation('https://kalshi.com/markets/kxshutdown/shutdown/kxshutdown-26dec31');
    expect(await shutdown('so is NO the value side? quarter kelly on 1k')).toMatch(/^The Kelly criterion stakes nothing here: on the model, \*\*NO on Shutdown\*\* at \$0\.44/);
    expect(await shutdown('how often has it hit in the last 9')).toMatch(/^\*\*Shutdown\*\* resolved YES in 3 of the last 9 settled events/);
    const nfl = await reportConversation('https://kalshi.com/markets/kxnflgame/nfl/kxnflgame-26nov23bufkc');
    expect(await nfl('quarter kelly on whichever side the model likes, 4k roll')).toContain('half Kelly 2.6%, quarter Kelly 1.3%. On $4,000: $210.53 (339 contracts at $0.62) at full Kelly, $105.26 (169 contracts at $0.62) at half, $52.63 (84 contracts at $0.62) at a quarter.');
    expect(await nfl('if im long 500 bills and they lose, P&L?')).toContain('500 YES contracts at $0.39 cost $195, the most they can lose');
  });

  it('a position held ("i bought 100 hold yes at 12c last week, where am i now?") is marked at the book: what selling fetches, its profit, what it pays at the end, and holding weighed on the model', async () => {
    const ask = await reportConversation('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    const held = await ask('i bought 100 hold yes at 12c last week, where am i now?');
    expect(held).toContain(
      '**Your 100 YES at $0.12** cost $12; sold now at the bid, $0.14, fetch $14, **+$2 (+16.7%)** before fees; at the mid, $0.16, worth $16 (+$4). Held to the end they pay $100 if it resolves YES (+$88) and nothing if not (−$12). The model\'s 12.4% values holding them to the end at $12.40, less than the $14 selling now fetches: on the model, selling now is worth more.',
    );
    expect(held).not.toMatch(/7 days ago|Supposing/);
    // Marked at a price supposed, the same position.
    expect(await ask('and if it goes to 20c?')).toContain('If YES goes to $0.20, they are worth $20, **+$8** on what they cost');
    // NO is sold into 1 minus the YES ask; YES sold short is NO bought.
    expect(await ask('i have 200 no on hike at 40c, should i sell?')).toContain('**Your 200 NO at $0.40** cost $80; sold now at the NO bid (1 minus the YES ask), $0.48, fetch $96, **+$16 (+20.0%)** before fees');
    expect(await ask('short 50 cut 25bps at 8c, pnl?')).toContain('**Your 50 NO at $0.92** (YES sold short at $0.08 is NO bought at $0.92) cost $46; sold now at the NO bid (1 minus the YES ask), $0.88, fetch $44, **−$2 (−4.3%)** before fees');
    // Without the price paid, what it is worth, and how to get the profit; "worth" is no company's market value.
    expect(await ask("i'm long 300 hold, what's it worth?")).toContain('**Your 300 YES**; sold now at the bid, $0.14, fetch $42; at the mid, $0.16, worth $48. Held to the end they pay $300 if it resolves YES and nothing if not; say what you paid ("bought at 12c") for your profit.');
    // Naming no outcome, the one the thread was about.
    expect(await ask('i bought 100 yes at 12c')).toContain('- **Hold** (KXFEDDECISION-26DEC-C): bid $0.14');
  });

  it('after a search answered from a stored report ("fed model vs market?"), short follow-ups stay on its event: "best bet?", "kelly on that, 3k", "how confident are you?"; a bankroll after a level is no level', async () => {
    await reportConversation('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    const first = await chain('fed december model vs market?');
    expect(first).toContain('_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC), as of 2026-11-19 15:00 UTC');
    expect(await chain('fed december model vs market?', 'best bet?')).toMatch(/^On the model, the best buy at current prices is \*\*NO on Cut more than 25bps\*\* at \$0\.68/);
    expect(await chain('fed december model vs market?', 'best bet?', 'kelly on that, 3k')).toMatch(/^On the model, the trade to size is \*\*NO on Cut more than 25bps\*\* at \$0\.68[^\n]*On \$3,000: /);
    expect(await chain('fed december model vs market?', 'how confident are you?')).toMatch(/^Confidence, outcome by outcome/);
    // "44+" is the level, "1k" the bankroll (live quotes: approval has no report here).
    expect(await chain('approval rating odds for nov 27', 'kelly on 44+ if i think 50%, 1k')).toContain('On $1,000: $74.07 (161 contracts at $0.46) at full Kelly');
  });

  it('in a thread on one event, a question naming another one by two words of its title or its topic is about that one; "model vs market" names no event about a model', async () => {
    expect(await chain('eth above 3200 tomorrow?', "what's the spread?", 'and nyc high above 52?')).toMatch(/^Open Kalshi events matching “and nyc high above 52\?”[^\n]*\n\n1\. \*\*Highest temperature in NYC on November 20, 2026\?\*\*/);
    // (Its prices, or, once a report on it is stored, the model on its one contract: the AI event's either way.)
    const ai = await chain('shutdown odds', 'and the AI model release market?');
    expect(ai).toMatch(/New frontier model from a top-3 lab by December 2026\?|\*\*Release\*\*/);
    expect(ai).not.toContain('Shutdown');
    expect(await chain('shutdown odds, model vs market?')).not.toContain('KXAIMODEL');
    // Its own words stay with it: "when's the release?" of a CPI thread is its release.
    expect(await chain('cpi december odds', "when's the release?")).toMatch(/^- \*\*Trading closes\*\* 2026-12-10 15:00 UTC/);
  });

  it("a chance of one's own as a trader says it: 'if my fair is 90%', 'kelly at 80% with 2.5k' of the outcome discussed, 'what if i think 0.4', 'what if i think lakers are 70%' after a Kelly", async () => {
    await reportConversation('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec');
    expect(await chain('cpi december odds', 'EV of buying 100 yes on above 3.0 at the ask if my fair is 90%?')).toContain('Buying YES at $0.87 against your 90.0%: expected value +$0.030 per $1 contract before fees (+$3 on 100 contracts)');
    expect(await chain('cpi december odds', 'EV of buying 100 yes on above 3.0 at the ask if my fair is 90%?', 'kelly at 80% with 2.5k')).toMatch(
      /^On your 80\.0% for Above 3\.0, the trade to size is \*\*NO on Above 3\.0\*\* at \$0\.14 against your 20\.0%[^\n]*is \*\*7\.0%\*\* of the bankroll[^\n]*On \$2,500: \$174\.42/,
    );
    await reportConversation('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos');
    const lakers = ['lakers celtics odds', 'kelly on lakers, 1k'];
    expect(await chain(...lakers, 'what if i think lakers are 70%')).toMatch(/^On your 70\.0% for Away team \(Lakers\)[^\n]*is \*\*18\.9%\*\* of the bankroll[^\n]*On \$1,000: \$189\.19/);
    expect(await chain(...lakers, 'what if i think lakers are 70%', 'what if i think 0.4')).toMatch(/^On your 40\.0% for Away team \(Lakers\), the trade to size is \*\*NO on Away team \(Lakers\)\*\*/);
  });

  it('trading follow-ups keep the trade: Kelly after an EV on one\'s own chance, a chance said at length, a price said to drop, a count before a level, a stake in dollars', async () => {
    await reportConversation('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    // The chance and outcome of the EV before: (30% − $0.18) / (1 − $0.18) = 14.6%.
    const ev = ['fed odds?', 'ev of 200 yes on hold if my fair is 30%'];
    expect(await chain(...ev, 'kelly on that with 4k')).toMatch(/^On your 30\.0% for Hold, the trade to size is \*\*YES on Hold\*\* at \$0\.18[^\n]*is \*\*14\.6%\*\* of the bankroll[^\n]*On \$4,000: \$585\.37/);
    expect(await chain(...ev, 'kelly on that with 4k', 'and at 25%?')).toMatch(/^On your 25\.0% for Hold[^\n]*is \*\*8\.5%\*\* of the bankroll/);
    await reportConversation('https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31');
    // "The shutdown chance is 45%" is the asker's chance: NO at $0.44 against 55%, (55% − $0.44) / (1 − $0.44) = 19.6%.
    const shutdown = ['government shutdown market: model vs market', 'kelly at 2k if i think the shutdown chance is 45%'];
    expect(await chain(...shutdown)).toMatch(/^On your 45\.0% for Shutdown, the trade to size is \*\*NO on Shutdown\*\* at \$0\.44[^\n]*is \*\*19\.6%\*\*[^\n]*On \$2,000: \$392\.86/);
    // A price said to drop is the same sizing at that price: NO at $0.50 against 55%, 10.0%.
    expect(await chain(...shutdown, 'and if the price drops to 50c?')).toMatch(/^Supposing YES on \*\*Shutdown\*\* trades at \$0\.50 \(NO at \$0\.50\)[^\n]*is \*\*10\.0%\*\* of the bankroll/);
    await reportConversation('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec');
    // 400 contracts, not the "2" of "3.2".
    expect(await chain('cpi december', "what's my max loss on 400 CPI above 3.2 YES at the ask?")).toContain('400 YES contracts at $0.62 cost $248, the most they can lose');
    // A stake in dollars buys whole contracts at the ask: $20 at $0.63 is 31 ($19.53).
    expect(await chain('lakers or celtics who wins sat', 'how much for 20 bucks on lakers')).toContain('$20 buys 31 YES contracts at $0.63 ($19.53): if it resolves YES they pay $31, a profit of $11.47 before fees');
  });

  it('short follow-ups stay on the event: "half that" and "quarter of that" after a Kelly, the model misspelt, "should i buy" of the outcome discussed, "NO" as a side, the station and corrections', async () => {
    await reportConversation('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    // The same Kelly, on the bankroll said before.
    expect(await chain("fed december: model vs market, where's the edge?", 'EV per contract on NO on cut more than 25bps?', 'kelly on that with a 10k bankroll', 'half that')).toMatch(/^On the model, the trade to size is \*\*NO on Cut more than 25bps\*\*[^\n]*On \$10,000: \$687\.50 \(1,011 contracts at \$0\.68\) at full Kelly, \$343\.75/);
    await reportConversation('https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31');
    expect(await chain('shutdown odds, model vs market?', "what's the best trade?", 'kelly on it with 2k', 'quarter of that')).toMatch(/^The Kelly criterion stakes nothing here/);
    await reportConversation('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20');
    // "Modle" is svc's model, of the level asked, not the event about AI models.
    const btc = ['bitcon gonna be over 100k tmrw??', 'wat does the modle say'];
    expect(await chain(...btc)).toMatch(/^- \*\*Above \$100,000\*\*: market 4\.0% \(mid\), model 2\.9%, gap −1\.1 pts/);
    expect(await chain(...btc, 'ok so shud i buy')).toMatch(/^- \*\*Above \$100,000\*\*[^\n]*Buying YES at \$0\.05 against the model's 2\.9%: expected value −\$0\.021 per \$1 contract before fees, not favoured on the model/);
    await reportConversation('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec');
    // Among trading words "NO" is a side, not New Orleans.
    expect(await chain('is there an arbitrage on the cpi ladder?', 'should I buy NO on above 3.0?')).toContain("Buying NO at $0.14 against the model's 26.6%: expected value +$0.126 per $1 contract before fees");
    await reportConversation('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    const nyc = ['how hot will it get in new york tomorrow', 'whats the most likely'];
    expect(await chain(...nyc, 'which weather station do they use')).toContain('**Resolution source:** National Weather Service, Central Park');
    expect(await chain(...nyc, 'wat if the report gets corrected later')).toContain('“The first published report is final.”');
  });

  it('the NO side asked "of NO" is NO\'s, and trading words are never a company\'s profit', async () => {
    await reportConversation('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    const nyc = ['nyc high temp tomorrow odds', 'ev of NO on 48 to 51 at 1 minus the bid?'];
    // NO at 1 − $0.31 = $0.69 against the model's 74.2%: +$0.052.
    expect(await chain(...nyc)).toContain("Buying NO at $0.69 against the model's 74.2%: expected value +$0.052 per $1 contract before fees, favoured on the model.");
    expect(await chain(...nyc, "what do 300 of those cost and what's the breakeven prob?")).toContain('300 NO contracts at $0.69 cost $207');
    await reportConversation('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec');
    const sets = await chain('is there an arbitrage on the cpi ladder?', "how many sets can i do and what's the locked profit on 100?");
    expect(sets).not.toMatch(/company called/);
    expect(sets).toContain('The best prices are good for 493 pairs');
  });

  it('a side or an outcome alone keeps the trade or conversion before it: "the no side?" keeps the count, "and hold?" after a moneyline conversion is Hold\'s', async () => {
    await reportConversation('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    // 300 NO at 1 − $0.14 = $0.86: $258.
    expect(await chain('odds fed hikes in december?', 'what do 300 hold yes cost', 'the no side?')).toContain('300 NO contracts at $0.86 cost $258, the most they can lose');
    // Hold at 16.0%: +525.
    expect(await chain('odds fed hikes in december?', 'convert that to moneyline', 'and hold?')).toMatch(/^As American \(moneyline\), decimal and fractional odds[^\n]*\n\n- \*\*Hold\*\*: market 16\.0% \(mid; 14\.5% normalised\) → \+525/);
  });

  it('what the best prices are good for: "how much hold can i buy at the ask before the price moves?" gives the sizes at the bid and ask', async () => {
    await reportConversation('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    const depth = await chain('fed december odds', 'how much hold can i buy at the ask before the price moves?');
    expect(depth).toContain('1,323.5 YES contracts are offered at the ask, $0.18 ($238.23 in all); 1,558 NO contracts at $0.86, the other side of the 1,558 YES bid at $0.14 ($1,339.88 in all): beyond that, orders fill at worse prices further into the book');
    expect(depth).not.toMatch(/7 days ago|Price move/);
  });

  it('a NO price said is NO\'s ("EV of 100 NO … at 0.77"); "fade" is NO; an arbitrage asked with its size is the arbitrage; "get filled" is the book, no filing; "what do 300 of them cost" after a Kelly is its trade', async () => {
    await reportConversation('https://kalshi.com/markets/kxseaice/arctic-sea-ice-extent/kxseaice-26dec');
    expect(await chain('arctic sea ice above 10 million sq km, model vs market?', 'EV of 100 NO on 10.0 at 0.77?')).toContain('Buying NO at $0.77 against the model\'s 79.3%: expected value +$0.023 per $1 contract before fees (+$2.30 on 100 contracts)');
    await reportConversation('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos');
    expect(await chain('lakers celtics odds', 'fade the celtics?')).toMatch(/^- \*\*Home team \(Celtics\)\*\* \(KXNBAGAME-26NOV21LALBOS-A\)[^\n]*Buying NO at \$0\.62 against the model's 66\.8%/);
    expect(await chain('lakers celtics odds', 'how much can i get filled at 62c?')).toContain('562 NO contracts at $0.38, the other side of the 562 YES bid at $0.62');
    await reportConversation('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20');
    expect(await chain('btc above 96k tmrw odds?', 'is there an arb between 100k and 104k? how big can i go?')).toMatch(/^No arbitrage on the report's quotes: [^\n]*the cheapest pair, YES on \*\*Above \$100,000\*\* at \$0\.05 and NO on \*\*Above \$104,000\*\* at \$0\.96/);
    await reportConversation('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec');
    expect(await chain('cpi model vs market?', 'best bet?', 'kelly on that, 3k', 'what do 300 of them cost and pay?')).toMatch(/^- \*\*Above 3\.0\*\*[^\n]*300 NO contracts at \$0\.14 cost \$42/);
  });

  it('"next one up?" after Kelly on the best trade sizes the next trade of the ranking, each step from the last; a summary for a headline or twitter is a summary', async () => {
    await reportConversation('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    const kelly = ['fed december model vs market?', 'rank every trade best first', 'kelly on the top one, $5,000'];
    expect(await chain(...kelly)).toMatch(/^On the model, the trade to size is \*\*NO on Cut more than 25bps\*\* at \$0\.68/);
    expect(await chain(...kelly, 'next one up?')).toMatch(/^On the model, the trade to size is \*\*NO on Hold\*\* at \$0\.86 against the model's 87\.6%[^\n]*On \$5,000: \$571\.43/);
    expect(await chain(...kelly, 'next one up?', 'next one up?')).toMatch(/^On the model, the trade to size is \*\*NO on Cut 25bps\*\* at \$0\.92/);
    expect(await chain('fed december model vs market?', 'Summarize in one line for a headline.')).toMatch(/^Fed decision in December 2026: traders favour “Hike 25bps”, at 47%\n/);
  });

  it('a trade naming no outcome is of the one discussed ("EV on 100 yes at the ask" after "btc above 92k?"); "no, 200 of them" is that trade again, of this many', async () => {
    await reportConversation('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20');
    const ev = await chain('btc above 92k tomorrow? model vs market', 'EV on 100 yes at the ask');
    expect(ev).toMatch(/^- \*\*Above \$92,000\*\* \(KXBTCD-26NOV20-T92000\)/);
    expect(ev).not.toContain('Above $96,000');
    expect(await chain('btc above 92k tomorrow? model vs market', 'EV on 100 yes at the ask', 'no, 200 of them')).toContain('200 YES contracts at $0.44 cost $88, the most they can lose; if it resolves YES they pay $200, a profit of $112 before fees. Buying YES at $0.44 against the model\'s 43.0%: expected value −$0.010 per $1 contract before fees (−$2 on 200 contracts)');
  });

  it('a price supposed as traders write it: "45¢", "0.35", "$.6"', async () => {
    await reportConversation('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
    const kelly = ['fed december odds', 'say hike dips to 40c, how much of a 5k bankroll (kelly)?'];
    expect(await chain(...kelly, 'and if it goes to 45¢?')).toMatch(/^Supposing YES on \*\*Hike 25bps\*\* trades at \$0\.45 \(NO at \$0\.55\)/);
    expect(await chain(...kelly, 'what about at 0.35')).toMatch(/^Supposing YES on \*\*Hike 25bps\*\* trades at \$0\.35 \(NO at \$0\.65\)/);
    expect(await chain(...kelly, 'and if it goes to $.6?')).toMatch(/^Supposing YES on \*\*Hike 25bps\*\* trades at \$0\.60 \(NO at \$0\.40\)/);
  });

  it('"the next one up" and "the one below" step from the level the thread was last about, each step from the last', async () => {
    const ask = await reportConversation('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20');
    expect(await ask('is 100k likely?')).toMatch(/^\*\*No\*\*: \*\*Above \$100,000\*\* is at 4\.0%[^\n]*, less likely than not on the market's price; the model agrees/);
    expect(await ask('and its spread?')).toMatch(/^- \*\*Above \$100,000\*\* \(KXBTCD-26NOV20-T100000\): bid \$0\.03/);
    expect(await ask('what about the next one up?')).toMatch(/^- \*\*Above \$104,000\*\*: market 5\.0%/);
    expect(await ask('and the one below?')).toMatch(/^- \*\*Above \$100,000\*\*: market 4\.0%/);
    expect(await ask('and the higher one?')).toMatch(/^- \*\*Above \$104,000\*\*: market 5\.0%/);
  });

  it('"the other one" of a game is the other team; a single contract says which side the model leans to', async () => {
    const thread = await reportThreads();
    const game = await thread('https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc');
    expect(await game('biggest mover today?')).toMatch(/^The biggest mover over the last 24 hours is /);
    const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 30 })).apiKey, maxRetries: 0 });
    const url = 'https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc';
    const report = (await payer.responses.create({ model: 'svc-prediction-markets-agent', input: url })).output_text;
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: url }, { role: 'assistant', content: report }, { role: 'user', content: 'odds the bills win?' }, { role: 'assistant', content: '(Bills)' }, { role: 'user', content: 'and the other one?' }];
    expect((await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content).toMatch(/^- \*\*Home team \(Chiefs\)\*\*: market 63\.0%/);
    const release = await thread('https://kalshi.com/markets/kxaimodel/frontier-ai-model-release/kxaimodel-26dec19');
    // Its one contract's price, however asked.
    for (const q of ['yes price', 'odds it happens?']) expect(await release(q), q).toMatch(/^This event has one yes\/no contract, \*\*Release\*\*: the market gives it 37\.0% \(mid\)/);
    // The closing time with the rule that can end trading early.
    expect(await release('can it close early?')).toMatch(/^- \*\*Trading closes\*\*[^\n]*\n- \*\*Trading may close early:\*\* “This market closes early once the outcome is determined\.”/);
    // "Really?" is asked of the model: its account of itself.
    expect(await release('really?')).toMatch(/^- \*\*Model probability\.\*\*/);
    expect(await release('does the model agree with the market?')).toMatch(/^This event has one yes\/no contract, \*\*Release\*\*: the market gives it 37\.0% \(mid\)[^\n]*, so the model, like the market, leans that it does not \(−0\.9 pts from the market\)\./);
    // Asked how often it resolved YES, the series' base rates; "is yes cheap?" a verdict on its one contract.
    expect(await release('how often does it resolve yes?')).toMatch(/\*\*Base rates\*\*/);
    expect(await release('is yes cheap?')).toMatch(/^\*\*No\*\*: on the model, \*\*Release\*\* is dear/);
  });

  it('answers by the shape of the event: a team of a game, ranges of a temperature, a single yes/no; says when an outcome or level asked does not exist', async () => {
    const thread = await reportThreads();
    const game = await thread('https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc');
    // "Bills at Chiefs": the Bills are the away team, whatever the favourite.
    expect(await game('odds the Bills win?')).toMatch(/^- \*\*Away team \(Bills\)\*\*: market 38\.5%/);
    const temperature = await thread('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    expect(await temperature('which station is used?')).toMatch(/^- \*\*How it resolves\*\*[^\n]*Central Park[^\n]*\n- \*\*Resolution source:\*\* National Weather Service, Central Park/);
    // "In the 50s": 50 to 59.
    expect(await temperature('will it be in the 50s?')).toMatch(/^“in the 50s” is \*\*52°F to 55°F\*\* \(market 17\.7% normalised, model 16\.7%\) and part of \*\*48°F to 51°F\*\* and \*\*56°F or above\*\*/);
    // "56+" is 56 or more.
    expect(await temperature('what does the model think about 56+?')).toMatch(/^- \*\*56°F or above\*\*: market 43\.0%/);
    // "Colder than" is below, "warmer than" above, "hits" at least.
    expect(await temperature('will it be colder than 44?')).toMatch(/^\*\*No\*\*: \*\*Below 44°F\*\* is at 17\.5% \(mid; 14\.1% normalised\), less likely than not on the market's price; the model agrees, at 13\.0%/);
    expect(await temperature('colder than 48?')).toMatch(/^“below 48” is \*\*Below 44°F\*\* and \*\*44°F to 47°F\*\*: together market 22\.1% normalised, model 20\.5%/);
    expect(await temperature('warmer than 55?')).toMatch(/^“above 55” is \*\*56°F or above\*\*: market 34\.5% normalised, model 37\.0%/);
    expect(await temperature('odds it hits 50?')).toMatch(/^“above 50” is \*\*52°F to 55°F\*\* and \*\*56°F or above\*\* \(market 52\.2% normalised, model 53\.7%\) and part of \*\*48°F to 51°F\*\*/);
    // Exclusive ranges: one of them wins, so there is a favourite; a level falls in one range.
    expect(await temperature("what's the favourite?")).toMatch(/^The market's favourite is \*\*56°F or above\*\* at 43\.0%/);
    expect(await temperature('58 degrees?')).toMatch(/^- \*\*56°F or above\*\*: market 43\.0%/);
    // "Below 44°F" does not hold 44, "44°F to 47°F" does; "below 44" is the range open below it.
    expect(await temperature('44 degrees?')).toMatch(/^- \*\*44°F to 47°F\*\*: market [\d.]+%[^\n]*\n\n_From the stored report/);
    expect(await temperature('odds it stays below 44 degrees?')).toMatch(/^- \*\*Below 44°F\*\*: market [\d.]+%[^\n]*\n\n_From the stored report/);
    expect(await temperature('above 56 degrees?')).toMatch(/^- \*\*56°F or above\*\*: market 43\.0%[^\n]*\n\n_From the stored report/);
    // A side of a level inside a range: bounded by that range, not answered with it; a side covering several ranges adds them up.
    expect(await temperature('odds it is above 60?')).toMatch(/^No outcome is “above 60”: 60 falls inside \*\*56°F or above\*\* \(market 34\.5% normalised, model 37\.0%\), so its chance is at most that \[1\]\.\n\n- \*\*56°F or above\*\*/);
    expect(await temperature('below 50 degrees?')).toMatch(
      /^“below 50°” is \*\*Below 44°F\*\* and \*\*44°F to 47°F\*\* \(market 22\.1% normalised, model 20\.5%\) and part of \*\*48°F to 51°F\*\*, which 50° falls inside: market between 22\.1% and 47\.8% normalised, model between 20\.5% and 46\.3% \[1\]\[2\]\[3\]\.\n\n- \*\*Below 44°F\*\*[^\n]*\n- \*\*44°F to 47°F\*\*[^\n]*\n- \*\*48°F to 51°F\*\*/,
    );
    // Whole degrees: "not above 56" is at most 56, and "56°F or above" holds 56.
    expect(await temperature('not above 56 degrees?')).toMatch(/^“not above 56°” is \*\*Below 44°F\*\*, \*\*44°F to 47°F\*\*, \*\*48°F to 51°F\*\* and \*\*52°F to 55°F\*\* \(market 65\.5% normalised, model 63\.0%\) and part of \*\*56°F or above\*\*/);
    expect(await temperature('not above 55 degrees?')).toMatch(/^“not above 55°” is \*\*Below 44°F\*\*, \*\*44°F to 47°F\*\*, \*\*48°F to 51°F\*\* and \*\*52°F to 55°F\*\*: together market 65\.5% normalised, model 63\.0%/);
    const release = await thread('https://kalshi.com/markets/kxaimodel/frontier-ai-model-release/kxaimodel-26dec19');
    for (const q of ["what's the favourite?", "odds it doesn't happen?"]) {
      expect(await release(q), q).toMatch(/^This event has one yes\/no contract, \*\*Release\*\*: the market gives it 37\.0% \(mid\) \(so about 63\.0% that it does not happen\)/);
    }
    const fed = await thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    // An outcome asked not to happen: its other side.
    expect(await fed("what's the chance they don't hike?")).toMatch(/^Not \*\*Hike 25bps\*\*: market about 48\.5% \(53\.4% normalised\), model 49\.2% \[1\]\n\n- \*\*Hike 25bps\*\*: market 51\.5%/);
    expect(await fed('odds of no cut?')).toMatch(/^Not \*\*Cut more than 25bps\*\* or \*\*Cut 25bps\*\*: market about 57\.0% \(61\.1% normalised\), model 63\.2% \[1\]\[2\]/);
    expect(await fed('odds of a rate hike of 50bps?')).toMatch(/^No outcome is “50bps”; the nearest named:\n\n- \*\*Hike 25bps\*\*/);
    const cpi = await thread('https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec');
    expect(await cpi('above 2.9%?')).toMatch(/^No rung is at 2\.9%: it falls between \*\*Above 2\.8\*\* and \*\*Above 3\.0\*\*, so “above 2\.9%” is between their prices: market 86\.5% to 96\.0%/);
    expect(await cpi('below 2.9%?')).toMatch(/^No rung is at 2\.9%: it falls between \*\*Above 2\.8\*\* and \*\*Above 3\.0\*\*, so “below 2\.9%” is between what their prices leave: market 4\.0% to 13\.5%/);
    expect(await cpi('above 3.5%?')).toMatch(/^No rung is at 3\.5%: it is above the event's levels, so “above 3\.5%” is at most \*\*Above 3\.2\*\*/);
    // No side asked: the levels it has.
    expect(await cpi('3.5%?')).toMatch(/^No outcome is at 3\.5%: the event's levels run from “Above 2\.6” to “Above 3\.2”\./);
    // The other side of a rung: its complement, said as such (it gave the rung's own price).
    const below = await cpi('odds CPI comes in below 3%?');
    const [market, model] = [/Above 3\.0\*\*: market ([\d.]+)%/.exec(await cpi('odds CPI comes in above 3%?'))![1], /model ([\d.]+)%/.exec(await cpi('odds CPI comes in above 3%?'))![1]];
    expect(below).toMatch(/^- “below 3%” is the other side of \*\*Above 3\.0\*\*: market about ([\d.]+)%, model ([\d.]+)%, gap [+−]?[\d.]+ pts \[1\]\n/);
    const m = /market about ([\d.]+)%, model ([\d.]+)%/.exec(below)!;
    expect(Number(m[1]) + Number(market)).toBeCloseTo(100, 5);
    expect(Number(m[2]) + Number(model)).toBeCloseTo(100, 5);
    // A bare level in a short reply names the rung at it.
    expect(await cpi('what about 2.8?')).toMatch(/^- \*\*Above 2\.8\*\*: market [\d.]+%/);
  });

  it('on a ladder of price levels, names the level asked, and reads the likeliest result as a range between rungs', async () => {
    const url = 'https://kalshi.com/markets/kxbtcd/bitcoin/kxbtcd-26nov20';
    const payer = await svc.account({ plan: 'pro', credits: 10 });
    const report = (await new OpenAI({ baseURL: svc.baseURL, apiKey: payer.apiKey, maxRetries: 0 }).responses.create({ model: 'svc-prediction-markets-agent', input: url })).output_text;
    const ask = async (question: string) =>
      (await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: url }, { role: 'assistant', content: report }, { role: 'user', content: question }] })).choices[0]!.message.content!;
    expect(await ask('what are the odds it ends the day above 96k?')).toMatch(/^- \*\*Above \$96,000\*\*: market 14\.5% \(mid\), model \d+\.\d%, gap [+−]\d+\.\d pts \[1\]\n/);
    expect(await ask('odds it ends above 98k?')).toMatch(/^No rung is at \$98,000: it falls between \*\*Above \$96,000\*\* and \*\*Above \$100,000\*\*, so “above \$98,000” is between their prices: market 4\.0% to 14\.5%/);
    expect(await ask('odds it does not end above 96k?')).toMatch(/^- “not above \$96,000” is the other side of \*\*Above \$96,000\*\*: market about 85\.5%/);
    // The likeliest result of a ladder is a range between rungs: each band is one rung less the next, and the bands add up.
    for (const q of ['what is the most likely outcome?', "what's the most probable range?"]) {
      const likely = await ask(q);
      expect(likely, q).toMatch(/^The (?:most likely range is \*\*up to \$92,000\*\*: market 57\.0%|market's most likely range is \*\*up to \$92,000\*\* \(57\.0%\))/);
      const bands = [...likely.matchAll(/^\| (up to \$92,000|\$[\d,]+ to \$[\d,]+|above \$104,000) \| ([\d.]+)% \| ([\d.]+)% \|$/gm)];
      expect(bands.map((b) => b[1])).toEqual(['up to $92,000', '$92,000 to $96,000', '$96,000 to $100,000', '$100,000 to $104,000', 'above $104,000']);
      expect(bands.reduce((sum, b) => sum + Number(b[2]), 0)).toBeCloseTo(100, 0);
      expect(bands.reduce((sum, b) => sum + Number(b[3]), 0)).toBeCloseTo(100, 0);
      // Above $104,000 is priced over Above $100,000: the two are pooled, not a negative band.
      expect(likely).toContain("the market's crossed prices pooled to their average first");
      expect(likely).not.toMatch(/\| -/);
    }
  });

  it('a report in brief ("tl;dr", "in one sentence", "bottom line?"): what market and model expect, the takeaway, the largest move, the close', async () => {
    const thread = await reportThreads();
    const fed = await thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    // (A TL;DR is one sentence: see pm-gaps8.)
    for (const q of ['bottom line?', 'give me the key points']) {
      const brief = await fed(q);
      expect(brief, q).toMatch(/^\*\*Fed decision in December 2026\?\*\*: the market's favourite is \*\*Hike 25bps\*\* at 51\.5% \(mid; 46\.6% normalised\), model [\d.]+%/);
      expect(brief, q).toContain('The largest gap is');
      expect(brief, q).toMatch(/The largest price move of the week: [^\n]+ pts over 7 days \[\d\]\. Trading closes 2026-12-15 15:00 UTC \(in 26 days\) \[\d\]\./);
      // Not the report whole.
      expect(brief, q).not.toContain('## Outcomes');
    }
    // Two sentences asked: the lead and the close, nothing between.
    expect(await fed('summarize the report in 2 sentences')).toMatch(/^\*\*Fed decision in December 2026\?\*\*: the market's favourite is \*\*Hike 25bps\*\*[^\n]*\[\d\]\. Trading closes 2026-12-15 15:00 UTC \(in 26 days\) \[\d\]\.\n/);
    // One sentence is in plain words (no mids, normalised shares or points); a trader's one line keeps them.
    const one = await fed('in one sentence');
    expect(one).toMatch(/^On Kalshi's “Fed decision in December 2026\?” market, traders see “Hike 25bps” as the likeliest result, at about 47%/);
    expect(one).not.toMatch(/normalised|\bmid\b|\bpts\b|overround/);
    expect(await fed('in one sentence for a trader')).toMatch(/^\*\*Fed decision in December 2026\?\*\*: the market's favourite is \*\*Hike 25bps\*\* at 51\.5% \(mid; 46\.6% normalised\), model [\d.]+%[^\n]*; trading closes 2026-12-15 15:00 UTC \(in 26 days\) \[\d\]\.\n\n_From the stored report/);
    // A ladder's expectation is its likeliest range; one contract's, its price.
    expect(await (await thread('https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec'))('bottom line?')).toMatch(/^\*\*CPI year-over-year in December 2026\?\*\*: the most likely range is \*\*above 3\.2\*\*: market 61\.0%, model [\d.]+%/);
    const shutdown = await thread('https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31');
    expect(await shutdown('bottom line?')).toMatch(/^\*\*Government shutdown by December 2026\?\*\*: the market gives \*\*Shutdown\*\* 58\.0% \(mid\), the model [\d.]+% \[1\]\./);
    // A company named is asked about, thread or not.
    expect(await shutdown("what's apple's bottom line?")).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: net income/);
  });

  it('the trade the model favours ("which outcome would you buy?"), one named ("would you buy …?"), and what a contract costs and wins', async () => {
    const thread = await reportThreads();
    const approval = await thread('https://kalshi.com/markets/kxapproval/presidential-approval-rating/kxapproval-26nov27');
    for (const q of ['which outcome would you buy and at what price?', "what's the best trade here?", "where's the edge?"]) {
      const best = await approval(q);
      expect(best, q).toMatch(/^(?:On the model, the best buy at current prices is|No contract is favoured on the model at current prices: the least unfavourable is) \*\*(?:YES|NO) on [^*]+\*\* at \$0\.\d\d against the model's [\d.]+%: expected value [+−]\$0\.\d{3} per \$1 contract \[\d\]/);
      // Best first: every expected value listed is no larger than the one before.
      const values = [...best.matchAll(/expected value ([+−])\$(\d\.\d{3})/g)].map((m) => (m[1] === '−' ? -1 : 1) * Number(m[2]));
      expect(values.length, q).toBeGreaterThan(2);
      expect([...values].sort((a, b) => b - a)).toEqual(values);
      expect(best, q).toContain('not investment advice');
    }
    expect(await approval('would you buy 44% or above?')).toMatch(/^- \*\*44% or above\*\* \(KXAPPROVAL-26NOV27-E\): bid \$0\.42, ask \$0\.46[^\n]*Buying YES at \$0\.46 against the model's [\d.]+%: expected value −\$0\.\d{3} per \$1 contract before fees, not favoured on the model\./);
    expect(await approval('how much does a yes contract on 44% or above cost and what do i win?')).toContain('A YES contract bought at the ask, $0.46, pays $1.00 if it resolves YES: $0.54 profit per contract before fees');
  });

  it('"why is Below 41% only 16%?": the price, the model, the record in the series (a claimed record checked), the move, and what the report cannot know', async () => {
    const thread = await reportThreads();
    const approval = await thread('https://kalshi.com/markets/kxapproval/presidential-approval-rating/kxapproval-26nov27');
    const report = (await new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 5 })).apiKey, maxRetries: 0 }).responses.create({ model: 'svc-prediction-markets-agent:cache', input: 'https://kalshi.com/markets/kxapproval/presidential-approval-rating/kxapproval-26nov27' })).output_text;
    // The record counted from the report's own history table, newest first.
    const won = report.split('\n').filter((l) => /^\| KXAPPROVAL-\w+ \| \d{4}-\d\d-\d\d \|/.test(l)).map((l) => l.split('|')[3]!.split(',').map((x) => x.trim()).includes('Below 41%'));
    const recent = won.slice(0, 5).filter(Boolean).length;
    const why = await approval('why is below 41% only 16%?');
    expect(why).toMatch(/^\*\*Below 41%\*\* is priced at 16\.0% \(mid; 12\.6% normalised\); the model, which weighs the series' record against the price, gives [\d.]+% \(gap [+−][\d.]+ pts\) \[1\]\./);
    expect(why).toContain(`It resolved YES in ${recent} of the last 5 settled events of the series`);
    expect(why).toContain(`and in ${won.filter(Boolean).length} of the ${won.length} in the report's history.`);
    expect(why).toContain('it cannot say why traders price an outcome as they do');
    const claimed = await approval(`below 41 won ${recent} of the last 5 weeks. why is it only 16%?`);
    expect(claimed).toContain(`Yes, it resolved YES in ${recent} of the last 5 settled events of the series`);
    expect(await approval(`below 41 won ${recent + 1} of the last 5 weeks. why is it only 16%?`)).toContain(`The report's history has it resolving YES in ${recent} of the last 5, not ${recent + 1}`);
    // A long challenge in a thread is about the event; the percentage questioned is a price, not a level naming an outcome.
    const fed = await thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    const crazy = await fed("but hikes resolved yes 0 of 10 times. why is the market at 51%? isn't that crazy?");
    expect(crazy).toMatch(/^\*\*Hike 25bps\*\* is priced at 51\.5% \(mid; 46\.6% normalised\)/);
    expect(crazy).not.toContain('Cut more than 25bps');
    expect(crazy).toMatch(/resolved YES in \d+ of the last 10 settled events/);
  });

  it('"why did it drop this week?": the outcome that moved most that way over the span asked, the others beside it, then what the report can say of it', async () => {
    const fed = await (await reportThreads())('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    // Prices a week ago in the demo report: Hike 25bps 59.0% (now 51.5%), Cut 25bps 8.0% (now 10.0%).
    const dropped = await fed('why did it drop this week?');
    expect(dropped).toMatch(/^Over the last 7 days, \*\*Hike 25bps\*\* fell the most: from 59\.0% to 51\.5% \(−7\.5 pts\) \[1\]\./);
    expect(dropped).toContain('The others over the same 7 days: Cut more than 25bps 32.0% to 33.0% (+1.0 pts); Cut 25bps 8.0% to 10.0% (+2.0 pts)');
    expect(dropped).toContain('it cannot say why traders price an outcome as they do');
    expect(await fed('how come it went up today?')).toMatch(/^Over the last 24 hours, \*\*Cut 25bps\*\* rose the most: from 9\.0% to 10\.0% \(\+1\.0 pts\)/);
    // An outcome named, which did not move that way, is said not to have.
    expect(await fed('why did hold rise today?')).toMatch(/^\*\*Hold\*\* did not rise over the last 24 hours: 16\.0% to 16\.0% \(unchanged\)/);
    // No outcome and no move: the market's favourite, explained.
    const gloomy = await fed('why is the market so pessimistic?');
    expect(gloomy).toMatch(/^No outcome was named, so here is the market's favourite, \*\*Hike 25bps\*\* at 51\.5%/);
    expect(gloomy).not.toContain('## Outcomes');
  });

  it('a trade asked in words the rules take for stock advice is the event\'s; the worst trade, worst first', async () => {
    const thread = await reportThreads();
    const nyc = await thread('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    expect(await nyc('should i buy 48-51 at the ask? whats my EV')).toMatch(/^- \*\*48°F to 51°F\*\* \(KXHIGHNY-26NOV20-C\): bid \$0\.\d\d, ask \$0\.\d\d[^\n]*Buying YES at \$0\.\d\d against the model's [\d.]+%: expected value [+−]\$0\.\d{3} per \$1 contract/);
    expect(await nyc('should I buy apple stock?')).not.toContain('From the stored report');
    const worst = await (await thread('https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec'))('which is the worst trade on the model?');
    expect(worst).toMatch(/^On the model, the worst buy at current prices is \*\*(?:YES|NO) on [^*]+\*\*/);
    const values = [...worst.matchAll(/expected value ([+−])\$(\d\.\d{3})/g)].map((m) => (m[1] === '−' ? -1 : 1) * Number(m[2]));
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    // Both ends asked: the best, and the worst beside it.
    const ice = await thread('https://kalshi.com/markets/kxseaice/arctic-sea-ice-extent/kxseaice-26dec');
    expect(await ice('which threshold has the best value on the model, and which is the worst?')).toMatch(/^On the model, the best buy at current prices is \*\*[^*]+\*\*[^\n]*The worst is \*\*(?:YES|NO) on [^*]+\*\* at \$0\.\d\d[^\n]*expected value −\$/);
    // "Why is a hike priced so high?" right after a search is the first event's, from its report.
    await thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    expect(await chain('fed decision odds', 'why is a hike priced so high?')).toMatch(/^\*\*Hike 25bps\*\* is priced at 51\.5%/);
    const picked = await chain('pick the fed one - odds of a hold?');
    expect(picked).toContain('**Hold 16.0%**');
    expect(picked).not.toContain('“pick”');
  });

  it("a report's implied level (mean, median) and its prices as bookmakers' odds", async () => {
    const thread = await reportThreads();
    const nyc = await thread('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    expect(await nyc('expected high?')).toMatch(/^On the market's prices, normalised to add up to 100%, the expected value is about \*\*5\d\.\d°F\*\* and the median outcome \*\*52°F to 55°F\*\*; on the model, about \*\*5\d\.\d°F\*\*/);
    // A ladder's median comes with its ranges; outcomes that are no levels have none.
    expect(await (await thread('https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec'))("what's the median?")).toContain('The median is above 3.2 on both.');
    const fedMedian = await (await thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec'))('median?');
    // A rate decision's outcomes are moves in basis points: their mean and median.
    expect(fedMedian).toMatch(/^On the market's prices, normalised to add up to 100%, the expected change in the rate is about \*\*−5\.5 bps\*\* and the median outcome \*\*Hold\*\*; on the model, about \*\*−4\.0 bps\*\* and \*\*Hike 25bps\*\* /);
    expect(await (await thread('https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31'))('median?')).not.toContain('expected change in the rate');
    expect(await (await thread('https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22'))('expected opening weekend?')).toMatch(/^On the market's prices, normalised to add up to 100%, the expected value is about \*\*\$\d+\.\dM\*\* and the median outcome \*\*/);
    const game = await thread('https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos');
    // The underdog, and how far behind the favourite.
    expect(await game("who's the underdog and by how much?")).toMatch(/^The market's least likely outcome is \*\*Home team \(Celtics\)\*\* at 38\.5%[^\n]*\. The favourite, \*\*Away team \(Lakers\)\*\*, is at 62\.5%[^:]*: 24\.0 points apart \(23\.8 on the normalised prices\)/);
    const odds = await game('convert to american odds');
    expect(odds).toContain('- **Away team (Lakers)**: market 62.5% (mid; 61.9% normalised) → −167 (decimal 1.60, fractional 3/5); model');
    expect(odds).toContain('- **Home team (Celtics)**: market 38.5%');
    // A trade's expected value stays a trade's.
    expect(await nyc('expected value of buying the favourite?')).toContain('expected value −$');
  });

  it('an outcome named whole, a range of levels, an outcome by its place; a claim about it checked', async () => {
    const thread = await reportThreads();
    const fed = await thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    // "Cut 25bps" named whole is that outcome, not also "Cut more than 25bps" (and their sum).
    for (const q of ['odds of Cut 25bps?', 'odds of a 25bps cut?']) expect(await fed(q), q).toMatch(/^- \*\*Cut 25bps\*\*: market 10\.0% \(mid; 9\.0% normalised\), model 7\.0%, gap −2\.0 pts \[1\]\n\n_From/);
    expect(await fed('odds of a cut of more than 25bps?')).toMatch(/^- \*\*Cut more than 25bps\*\*: market 33\.0%[^\n]*\n\n_From/);
    expect(await fed('why is the model higher than the market on outcome 2?')).toMatch(
      /^Outcome 2 is \*\*Cut 25bps\*\*: market 10\.0% \(mid; 9\.0% normalised\), model 7\.0%, gap −2\.0 pts \[1\]\. The model is below the market here, not above it\./,
    );
    expect(await fed('and the last outcome?')).toMatch(/^Outcome 4 is \*\*Hike 25bps\*\*/);
    expect(await fed('outcome 9?')).toMatch(/^The report lists 4 outcomes; there is no outcome 9\./);
    // The order book of a contract, from the report's contract snapshot; what buying it is worth on the model.
    expect(await fed("what's the spread on the hike contract?")).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\): bid \$0\.51, ask \$0\.52, spread \$0\.01, last \$0\.51; volume 113,933 \(2,232 in the last 24 hours\), open interest 70,442 \[1\]\.\n\n_From/);
    expect(await fed('expected value of buying Cut 25bps at the ask?')).toContain("Buying YES at $0.12 against the model's 7.0%: expected value −$0.050 per $1 contract before fees, not favoured on the model.");
    // NO is bought at 1 minus the YES bid ($0.14) and pays when Hold does not happen (87.6% on the model).
    expect(await fed('should I buy NO on Hold?')).toContain("Buying NO at $0.86 against the model's 87.6%: expected value +$0.016 per $1 contract before fees, favoured on the model.");
    // A move asked of one outcome: its own line of the report.
    expect(await fed('how has the hike price moved this week?')).toMatch(/^- \*\*Price move, Hike 25bps:\*\* −0\.5 pts over 24 hours, −7\.5 pts over 7 days \[1\]\.\n\n_From/);
    // A filter on prices, not a level of the event.
    expect(await fed('outcomes priced above 20%?')).toMatch(/^Priced above 20\.0%: 2 of the 4 outcomes, \*\*Cut more than 25bps\*\* and \*\*Hike 25bps\*\*; together market 84\.5% \(76\.5% normalised\), model 80\.6% \[1\]\[2\]\./);
    expect(await fed('odds above 4%?')).toMatch(/^No outcome is at 4%\.\n/);
    const temperature = await thread('https://kalshi.com/markets/kxhighny/highest-temperature-in-nyc/kxhighny-26nov20');
    // Ranges wholly inside the range asked add up; one it cuts through bounds the answer.
    expect(await temperature('what is the chance it is between 44 and 51?')).toMatch(/^“between 44 and 51” is \*\*44°F to 47°F\*\* and \*\*48°F to 51°F\*\*: together market 33\.7% normalised, model 33\.3% \[1\]\[2\]\./);
    expect(await temperature('between 45 and 50?')).toMatch(/^No outcome lies wholly in “between 45 and 50”: it is part of \*\*44°F to 47°F\*\* and \*\*48°F to 51°F\*\*/);
    // Whole degrees: "above 55" starts at 56.
    expect(await temperature('odds it is above 55?')).toMatch(/^“above 55” is \*\*56°F or above\*\*: market 34\.5% normalised, model 37\.0% \[1\]\./);
    // "48°F to 51°F" holds 51: "above 50" takes part of it, however the side is said.
    for (const q of ["what's the implied probability of over 50?", 'chance the high is 50°F or higher?', 'odds of 51 degrees or more?']) {
      expect(await temperature(q), q).toMatch(/” is \*\*52°F to 55°F\*\* and \*\*56°F or above\*\* \(market 52\.2% normalised, model [\d.]+%\) and part of \*\*48°F to 51°F\*\*, which 5[01]°? falls inside: market between 52\.2% and 77\.9% normalised/);
    }
    const approval = await thread('https://kalshi.com/markets/kxapproval/approval/kxapproval-26nov27');
    // Ranges that only touch at a bound are not part of the one asked.
    expect(await approval('odds of 41% to 42%?')).toMatch(/^- \*\*41% to 42%\*\*: market 24\.0% \(mid; 18\.9% normalised\), model 15\.2%, gap −3\.7 pts \[1\]/);
    const cpi = await thread('https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec');
    // On a ladder: the lower rung less the higher.
    expect(await cpi("what's the probability CPI lands between 2.8 and 3.0?")).toMatch(/^“between 2\.8 and 3\.0” is \*\*Above 2\.8\*\* less \*\*Above 3\.0\*\*: market 9\.5%, model 11\.0% \[1\]\[2\]\./);
    // Not in a range: the rest; on a ladder, what the span leaves.
    expect(await temperature("chance it isn't between 48 and 51?")).toMatch(/^Not “between 48 and 51” is \*\*Below 44°F\*\*, \*\*44°F to 47°F\*\*, \*\*52°F to 55°F\*\* and \*\*56°F or above\*\*: together market 74\.3% normalised/);
    expect(await cpi("chance it's not between 2.8 and 3.0?")).toMatch(/^Not “between 2\.8 and 3\.0” is everything but \*\*Above 2\.8\*\* less \*\*Above 3\.0\*\*: market 90\.5%, model 89\.0%/);
    // A bare level inside a range, or between two rungs.
    expect(await temperature('what about 53?')).toMatch(/^- \*\*52°F to 55°F\*\*: market 22\.0%/);
    expect(await cpi('what about 2.9?')).toMatch(/^No rung is at 2\.9: it falls between \*\*Above 2\.8\*\* and \*\*Above 3\.0\*\*, so “above 2\.9” is between their prices: market 86\.5% to 96\.0%/);
    // A level said in the unit the labels leave out ("9.5 million" square km of "Above 9.5").
    const ice = await thread('https://kalshi.com/markets/kxseaice/arctic-sea-ice-extent/kxseaice-26dec');
    expect(await ice("what's the chance it's below 9.5 million?")).toMatch(/^- “below 9\.5” is the other side of \*\*Above 9\.5\*\*/);
    expect(await ice("odds it's above 10 million square kilometers?")).toMatch(/^- \*\*Above 10\.0\*\*: market 23\.5%/);
  });

  it('outcomes named with "or" are each kept and added up; "lose" is the other side; a sum of prices above a level is a filter, not the overround', async () => {
    const thread = await reportThreads();
    const fed = await thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    const either = await fed('chance of a cut or a hold?');
    expect(either).toMatch(/^- \*\*Cut more than 25bps\*\*[^\n]*\n- \*\*Cut 25bps\*\*[^\n]*\n- \*\*Hold\*\*[^\n]*\n\nTogether: market 59\.0% \(their prices added up; 53\.4% normalised to 100%\), model [\d.]+%/);
    expect(await fed('odds of hold or hike?')).toMatch(/\nTogether: market 67\.5% \(their prices added up; 61\.1% normalised to 100%\)/);
    // A bare choice, no odds word: still about the event's outcomes.
    expect(await fed('cut 25bps or hold?')).toMatch(/^- \*\*Cut 25bps\*\*[^\n]*\n- \*\*Hold\*\*[^\n]*\n\nTogether: market 26\.0% \(their prices added up; 23\.5% normalised to 100%\)/);
    expect(await fed('will they hold or cut?')).toMatch(/\nTogether: market 59\.0% \(their prices added up; 53\.4% normalised to 100%\)/);
    // Ranges on either side of "or" ("44% or above" is one side).
    const approval = await thread('https://kalshi.com/markets/kxapproval/approval/kxapproval-26nov27');
    expect(await approval('below 41% or 41% to 42%?')).toMatch(/\nTogether: market [\d.]+% \(their prices added up; 31\.5% normalised to 100%\)/);
    expect(await approval('Below 41% or 44% or above?')).toMatch(/^- \*\*Below 41%\*\*[^\n]*\n- \*\*44% or above\*\*[^\n]*\n\nTogether: market [\d.]+% \(their prices added up; 47\.2% normalised to 100%\)/);
    // "a 25bps cut" is still the one cut.
    expect(await fed('odds of a 25bps cut?')).toMatch(/^- \*\*Cut 25bps\*\*: market 10\.0%[^\n]*\n\n_From/);
    expect(await fed('sum of probabilities above 15%?')).toMatch(/^Priced above 15\.0%: 3 of the 4 outcomes/);
    // Prices in the past, from the report's line of them: the window asked, or the biggest mover.
    expect(await fed('what was the hike price a week ago?')).toMatch(/^- \*\*Hike 25bps\*\*: 59\.0% 7 days ago, −7\.5 pts since; 51\.5% now \[1\]/);
    expect(await fed('hike a day ago?')).toMatch(/^- \*\*Hike 25bps\*\*: 52\.0% 24 hours ago, −0\.5 pts since; 51\.5% now/);
    expect(await fed('biggest mover?')).toMatch(/^The biggest mover over the last 7 days is \*\*Hike 25bps\*\*: 59\.0% then, 51\.5% now, −7\.5 pts \[1\]\./);
    expect(await fed('what were the prices yesterday?')).toMatch(/^- \*\*Cut more than 25bps\*\*: 33\.0% 24 hours ago, unchanged since; 33\.0% now\n- \*\*Cut 25bps\*\*: 9\.0% 24 hours ago, \+1\.0 pts since/);
    // An earlier event of the series, from the report's history table.
    expect(await fed('what did the previous event resolve to?')).toMatch(/^The previous event of the series, \*\*KXFEDDECISION-26OCT\*\* \(closed 2026-10-20\): \*\*Cut more than 25bps\*\* resolved YES, priced at 38\.0% 24 hours before close/);
    expect(await fed('what did the September meeting resolve to?')).toMatch(/^The September event of the series, \*\*KXFEDDECISION-26SEP\*\* \(closed 2026-09-20\): \*\*Cut 25bps\*\* resolved YES, priced at 65\.0%/);
    // Of a ladder, where the result fell: above the highest rung to resolve YES, or below them all.
    const cpiThread = await thread('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec');
    expect(await cpiThread('where did oct CPI land?')).toMatch(/^The October event of the series, \*\*KXCPIYOY-26OCT\*\* \(closed 2026-10-20\): every outcome resolved NO, so the result was not above any of its levels \(this event's lowest rung is Above 2\.6\)/);
    expect(await cpiThread('what did the september one resolve to?')).toContain('Above 3.0 (88.0% before close) resolved YES, so the result was above 3.0 (the highest of its rungs to resolve YES)');
    // How the model works, how far to trust it; outcome words that are not labels; a verdict on "cheap".
    expect(await fed('explain the model')).toMatch(/^- \*\*Model probability\.\*\* [^\n]* b = 1\.16 \(prices in this series have been too close to 50%, so the model pushes them outwards\)/);
    expect(await fed('how confident is the model on hold?')).toMatch(/^Confidence, outcome by outcome [^\n]*\n\n- \*\*Hold\*\*: medium \(\d+ settled markets in the fit, wide \$0\.04 spread\)/);
    expect(await fed('chance rates go up?')).toMatch(/^- \*\*Hike 25bps\*\*: market 51\.5%/);
    expect(await fed('chance rates stay unchanged?')).toMatch(/^- \*\*Hold\*\*: market 16\.0%/);
    expect(await fed('is hold cheap?')).toMatch(/^\*\*No\*\*: on the model, \*\*Hold\*\* is dear: the model gives 12\.4% against a market price of 16\.0%/);
    // Basis points said or not: "25bp", "25 basis points", "cut 25" are "Cut 25bps"; "cut more than 25" the other.
    for (const q of ['odds of a 25bp cut', 'odds of a 25 basis point cut', 'cut 25 odds?']) expect(await fed(q), q).toMatch(/^- \*\*Cut 25bps\*\*: market 10\.0%[^\n]*\n\n_From the stored report/);
    expect(await fed('cut more than 25?')).toMatch(/^- \*\*Cut more than 25bps\*\*: market 33\.0%[^\n]*\n\n_From the stored report/);
    expect(await fed('is cut 25 cheap?')).toMatch(/^\*\*No\*\*: on the model, \*\*Cut 25bps\*\* is dear/);
    // What a contract pays: $1 on YES, bought at the ask.
    for (const q of ["what's the payout on hold?", 'how much would I make if hold hits?']) {
      expect(await fed(q), q).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\): bid \$0\.14, ask \$0\.18[^\n]*\. A YES contract bought at the ask, \$0\.18, pays \$1\.00 if it resolves YES: \$0\.82 profit per contract before fees, the \$0\.18 lost if it resolves NO\./);
    }
    // "Is X the favourite?" is answered Yes or No first.
    expect(await fed('is hike the favorite?')).toMatch(/^\*\*Yes\*\*: the market's favourite is \*\*Hike 25bps\*\* at 51\.5%/);
    expect(await fed('is hold the favourite?')).toMatch(/^\*\*No\*\*: \*\*Hold\*\* is at 16\.0% \(mid; 14\.5% normalised\)\. The market's favourite is \*\*Hike 25bps\*\*/);
    // Sides set against each other are compared, not added up ("or" alone still adds them).
    expect(await fed('hold vs hike')).toMatch(/^On the market's prices, \*\*Hike 25bps\*\* \(51\.5%; model 50\.8%\) is likelier than \*\*Hold\*\* \(16\.0%; model 12\.4%\) \[1\]\[2\]\.\n\n- \*\*Hike 25bps\*\*/);
    // Likely is more likely than not, on the price normalised; not whether it is the favourite.
    expect(await fed('is a hike likely?')).toMatch(/^\*\*About even\*\*: \*\*Hike 25bps\*\* is at 51\.5% \(mid; 46\.6% normalised\), close to even on the market's price; the model agrees, at 50\.8% \[1\]\./);
    expect(await fed('is a hold unlikely?')).toMatch(/^\*\*Yes\*\*: \*\*Hold\*\* is at 16\.0% \(mid; 14\.5% normalised\), less likely than not/);
    expect(await fed('are they likely to cut?')).toMatch(/^\*\*No\*\*: \*\*Cut more than 25bps\*\* and \*\*Cut 25bps\*\* together are at 38\.9% \(normalised\), less likely than not on the market's price; the model agrees, at 36\.8% \[1\]\[2\]\./);
    // "Will they …?": whether it happens, not who is favoured; a choice ("hold or cut?") lists both.
    expect(await fed('will they hike?')).toMatch(/^\*\*About even\*\*: \*\*Hike 25bps\*\* is at 51\.5%/);
    expect(await fed('so will the fed hold?')).toMatch(/^\*\*No\*\*: \*\*Hold\*\* is at 16\.0%/);
    expect(await fed('is hike the most likely?')).toMatch(/^\*\*Yes\*\*: the market's favourite is \*\*Hike 25bps\*\*/);
    expect(await fed('cut vs hike, which is more likely?')).toMatch(/^On the market's prices, \*\*Hike 25bps\*\* \(51\.5%; model 50\.8%\) is likelier than \*\*Cut more than 25bps\*\* and \*\*Cut 25bps\*\* \(together 43\.0%; model 36\.8%\)/);
    expect(await fed('which is cheaper, hold or a 25bp cut?')).toMatch(/^On the market's prices, \*\*Cut 25bps\*\* \(10\.0%; model 7\.0%\) is cheaper than \*\*Hold\*\* \(16\.0%; model 12\.4%\)/);
    expect(await fed('a cut or a hold?')).toMatch(/^- \*\*Cut more than 25bps\*\*[^\n]*\n- \*\*Cut 25bps\*\*[^\n]*\n- \*\*Hold\*\*/);
    // A case the rules decide in other words than the question's: "a few hours" is a lapse "shorter than one business day".
    const shutdown = await thread('https://kalshi.com/markets/kxshutdown/shutdown/kxshutdown-26dec31');
    expect(await shutdown('what if the shutdown only lasts a few hours?')).toMatch(/^- \*\*Could flip the outcome:\*\* “A lapse shorter than one business day that OPM does not announce does not count\.” \[1\]\n- \*\*Full rules:\*\*/);
    // One contract: whether it happens is a verdict on it, named or not.
    expect(await shutdown('so will the government shut down?')).toMatch(/^\*\*Yes\*\*: \*\*Shutdown\*\* is at 58\.0% \(mid\), more likely than not on the market's price; the model agrees, at 56\.1% \[1\]\./);
    expect(await shutdown('is it unlikely?')).toMatch(/^\*\*No\*\*: \*\*Shutdown\*\* is at 58\.0%/);
    // An outcome without quotes: no arbitrage can be told, no expected value given.
    expect(await approval('is there an arbitrage?')).toMatch(/^Cannot tell on the report's quotes: YES on every outcome costs an unknown amount \(an outcome has no ask\)/);
    const eth = await thread('https://kalshi.com/markets/kxethd/ethereum/kxethd-26nov20');
    expect(await eth('expected value of buying above 3600 at the ask?')).toMatch(/^- \*\*Above \$3,600\*\* \(KXETHD-26NOV20-T3600\): bid —, ask —[^\n]*There is no ask in the order book: nothing to buy YES at now, so no expected value to give\./);
    // Asked beside the address, in one message: answered from the stored report, not the report again.
    const beside = await client.responses.create({ model: 'svc-agent', input: "what's the spread on the hold contract at https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec ?" });
    expect(beside.output_text).toMatch(/^- \*\*Hold\*\* \(KXFEDDECISION-26DEC-C\): bid \$0\.14, ask \$0\.18, spread \$0\.04/);
    expect((await client.responses.create({ model: 'svc-agent', input: 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec which is overpriced?' })).output_text).toMatch(/^(?:The most overpriced outcome on the model is|On the model, no outcome is overpriced)/);
    expect((await client.responses.create({ model: 'svc-agent', input: 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec report please' })).output_text).toMatch(/^# Fed decision in December 2026\?\n/);
    const game = await thread('https://kalshi.com/markets/kxnflgame/nfl-game-winner/kxnflgame-26nov23bufkc');
    expect(await game('chance the Chiefs lose?')).toMatch(/^Not \*\*Home team \(Chiefs\)\*\*: market about 37\.0%/);
    // Both teams named: the one the question is about.
    expect(await game('chance the Chiefs lose to the Bills?')).toMatch(/^Not \*\*Home team \(Chiefs\)\*\*: market about 37\.0%/);
    // Teams by their places and abbreviations.
    expect(await game('what about Buffalo?')).toMatch(/^- \*\*Away team \(Bills\)\*\*: market 38\.5%/);
    expect(await game('and Kansas City?')).toMatch(/^- \*\*Home team \(Chiefs\)\*\*: market 63\.0%/);
    expect(await game('odds BUF beats KC?')).toMatch(/^- \*\*Away team \(Bills\)\*\*: market 38\.5%/);
    expect(await game('chance kc loses to buffalo?')).toMatch(/^Not \*\*Home team \(Chiefs\)\*\*: market about 37\.0%/);
  });

  it('an event ticker alone is its event; a filings follow-up after a Kalshi address reads no company from the address', async () => {
    const ticker = (await client.responses.create({ model: 'svc-agent', input: 'KXFEDDECISION-26DEC' })).output_text;
    // The stored report of the event (one was generated above), as for its address.
    expect(ticker).toMatch(/^# Fed decision in December 2026\?\n/);
    const url = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
    const r = await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: url }, { role: 'assistant', content: '(prices)' }, { role: 'user', content: 'and Apple revenue last quarter?' }] });
    const text = r.choices[0]!.message.content!;
    expect(text).toContain('Apple Inc. (AAPL)');
    expect(text).not.toMatch(/company called "(?:https|kalshi|markets|kxfeddecision)/);
  });

  it('asked about the model of an event with no stored report, says there is none yet, with the live prices', async () => {
    const url = 'https://kalshi.com/markets/kxspacex/spacex-launches/kxspacex-26nov24';
    const r = await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: url }, { role: 'assistant', content: '(prices)' }, { role: 'user', content: 'which outcome does the model favour?' }] });
    expect(r.choices[0]!.message.content).toMatch(/^No report is stored for KXSPACEX-26NOV24 yet, so there is no model probability or resolution history to quote/);
    // An outcome asked of live prices: those outcomes first, in bold, not the list again.
    const odds = await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: url }, { role: 'assistant', content: '(prices)' }, { role: 'user', content: 'what are the odds of exactly 3 launches?' }] });
    expect(odds.choices[0]!.message.content).toMatch(/^On its live prices \(no report is stored for KXSPACEX-26NOV24, so there is no model probability yet; `svc-prediction-markets-agent` generates one, 3 credits\): \*\*SpaceX orbital launches[^\n]*\(KXSPACEX-26NOV24, [^)]*\) \[1\]: \*\*3 12\.5%\*\*;/);
    expect(odds.choices[0]!.message.content).not.toContain('[2]');
    // Whether it happens, of one yes/no contract: which way its price leans ("model" being the event's subject here).
    const ai = (await client.responses.create({ model: 'svc-agent', input: 'https://kalshi.com/markets/kxaimodel/ai-model/kxaimodel-26dec19 is a new frontier model going to be released by then?' })).output_text;
    // (Another test may have stored its report by now: then the report's answer.)
    expect(ai).toMatch(/^On its live prices \(no report is stored for KXAIMODEL-26DEC19[^\n]*On the market's price, “Release” is less likely than not: 37\.0%\.|^(?:\*\*No\*\*: \*\*Release\*\*|This event has one yes\/no contract, \*\*Release\*\*)/);
    expect(await chain('will the government shut down?')).toContain('On the market\'s price, “Shutdown” is more likely than not: 58.0%.');
    expect(await chain('what about lakers celtics, whos the fav')).toContain('The market\'s favourite is “Away team (Lakers)” at 62.5%.');
    // "Closes above 100k" is a level, not the close of trading; "convert that" is the contract just asked about.
    const btc = 'https://kalshi.com/markets/kxbtcd/bitcoin/kxbtcd-26nov20';
    const btcAsk = async (...turns: string[]) => {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: btc }, { role: 'assistant', content: '(prices)' }];
      for (const t of turns.slice(0, -1)) messages.push({ role: 'user', content: t }, { role: 'assistant', content: '(answer)' });
      messages.push({ role: 'user', content: turns.at(-1)! });
      return (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
    };
    // (Another test may have stored its report by now: from the report or from live prices, the same contract.)
    expect(await btcAsk('and odds it closes above 100k?')).toMatch(/\[1\]: \*\*Above \$100,000 4\.0%\*\*;|^- \*\*Above \$100,000\*\*: market 4\.0%/);
    const american = await btcAsk('and odds it closes above 100k?', 'convert that to american odds pls');
    expect(american).toMatch(/on each price alone \(no margin removed\): “Above \$100,000” \+2400 \(decimal 25\.00, fractional 24\/1\)\.|\n\n- \*\*Above \$100,000\*\*: market 4\.0% \(mid\) → \+2400 \(decimal 25\.00, fractional 24\/1\)/);
    // (Only that contract converted: on live prices the others are listed, not converted.)
    expect(american).not.toMatch(/Above \$92,000(?:\*\*: market [\d.]+% \(mid\)|”) (?:→ )?[+-]\d/);
    // What the prices add up to, and each normalised; a "why" is said to be beyond prices.
    const jobs = 'https://kalshi.com/markets/kxpayrolls/nonfarm-payrolls/kxpayrolls-26dec';
    const ask = async (content: string) => (await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: jobs }, { role: 'assistant', content: '(prices)' }, { role: 'user', content }] })).choices[0]!.message.content!;
    const sum = await ask('those add up to more than 100% - normalised?');
    expect(sum).toMatch(/The 5 outcomes' prices add up to [\d.]+%, [\d.]+ points over 100% \(the overround[^)]*\)\. Normalised to add up to 100%: “[^”]+” [\d.]+%/);
    // No outcome is meant by "more than 100%": none is put first in bold.
    expect(sum).not.toMatch(/\*\*[^*]*\d%\*\*/);
    expect(await ask('why is 0 to 75k priced so high?')).toContain('Prices say what traders pay, not why');
    // The model asked of an outcome: none yet, and that outcome's live price first, in bold.
    expect(await ask('whats the model say vs the market on 0 to 75k?')).toMatch(/^No report is stored for KXPAYROLLS-26DEC yet[^\n]*Its live prices meanwhile: \*\*Jobs added in December 2026\?\*\* \(KXPAYROLLS-26DEC, Economics\) \[1\]: \*\*0 to 75k 41\.0% \(last trade\)\*\*;/);
  });

  it('names the teams of an open game without an odds word; says what no event shown mentions', async () => {
    expect((await client.responses.create({ model: 'svc-agent', input: 'Chiefs vs Bills' })).output_text).toContain('**Bills at Chiefs on November 23, 2026: winner?**');
    // By place or abbreviation, and the team the question is about picked out.
    expect((await client.responses.create({ model: 'svc-agent', input: 'will KC beat Buffalo?' })).output_text).toContain('**Home team (Chiefs) 63.0%**; Away team (Bills) 38.5%');
    expect((await client.responses.create({ model: 'svc-agent', input: 'will LA beat Boston?' })).output_text).toContain('**Away team (Lakers) 62.5%**; Home team (Celtics) 38.5%');
    const paris = (await client.responses.create({ model: 'svc-agent', input: "What's the weather in Paris today?" })).output_text;
    // The demo's clock reads 2026-11-19; its NYC temperature event is for the 20th.
    expect(paris).toMatch(/^No open Kalshi event matches all of “What's the weather in Paris today\?”: none mentions “paris”, and none settles today \(2026-11-19\)\. The closest/);
    // "raises rates" is a hike: the Fed's event is found.
    expect((await client.responses.create({ model: 'svc-agent', input: 'odds the fed raises rates' })).output_text).toMatch(/^Open Kalshi events matching “odds the fed raises rates”[^\n]*\n\n1\. \*\*Fed decision in December 2026\?\*\*/);
    // Marks the caller typed are quoted as typed, escaped: they do not make the service's answer bold.
    const marked = (await client.responses.create({ model: 'svc-agent', input: 'odds of **snow** in _Paris_ today?' })).output_text;
    expect(marked).toContain('“odds of \\*\\*snow\\*\\* in \\_Paris\\_ today?”');
    // "cut" is an outcome of the Fed decision, not missing from it.
    expect((await client.responses.create({ model: 'svc-agent', input: 'odds of a Fed cut' })).output_text).toMatch(/^Open Kalshi events matching/);
  });

  it('reads a count\'s outcomes ("2 or fewer", "3", "4", "5 or more") as whole numbers: "more than 4" starts at 5, "at least 3" adds up three', async () => {
    // After the test above, which needs SpaceX without a stored report.
    const url = 'https://kalshi.com/markets/kxspacex/spacex-launches/kxspacex-26nov24';
    const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 10 })).apiKey, maxRetries: 0 });
    const report = (await payer.responses.create({ model: 'svc-prediction-markets-agent', input: url })).output_text;
    const ask = async (question: string) =>
      (await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: url }, { role: 'assistant', content: report }, { role: 'user', content: question }] })).choices[0]!.message.content!;
    expect(await ask('what is the chance of more than 4 launches?')).toMatch(/^“more than 4” is \*\*5 or more\*\*: market 21\.3% normalised, model 22\.6% \[1\]\.\n\n- \*\*5 or more\*\*/);
    // A case named without "what if" ("a failed launch"), and the event's own word ("launches") picking out no rule.
    expect(await ask('what about a failed launch?')).toMatch(/^- \*\*Could flip the outcome:\*\* “A scrubbed launch does not count; a launch that fails after liftoff counts\.” \[1\]\n- \*\*Full rules:\*\* the contract terms \[2\]\./);
    expect(await ask('and at least 3?')).toMatch(/^“at least 3” is \*\*3\*\*, \*\*4\*\* and \*\*5 or more\*\*: together market 64\.2% normalised, model 68\.0% \[1\]\[2\]\[3\]\./);
    expect(await ask('fewer than 3?')).toMatch(/^“fewer than 3” is \*\*2 or fewer\*\*: market 35\.8% normalised/);
    for (const q of ['no more than 3?', 'chance it is not above 3']) expect(await ask(q), q).toMatch(/^“at most 3” is \*\*2 or fewer\*\* and \*\*3\*\*: together market 46\.4% normalised, model 47\.1%/);
    expect(await ask('probability of exactly 4 launches')).toMatch(/^- \*\*4\*\*: market 38\.0% \(mid; 32\.3% normalised\), model 30\.3%/);
    expect(await ask('what about 6 or more?')).toMatch(/^No outcome is “at least 6”: 6 falls inside \*\*5 or more\*\* \(market 21\.3% normalised, model 22\.6%\), so its chance is at most that \[1\]\./);
  });

  // Last in the file: it stores the payrolls and SpaceX reports, which tests above ask about without one.
  it('a range said end to end ("150-225", "150k to 225k.") is that outcome, and "is it cheap" after it that one too; a rule\'s case in other words', async () => {
    // A case the rules put in other words: a launch that "blows up" is one that fails.
    const spacex = await (await reportThreads())('https://kalshi.com/markets/kxspacex/spacex-launches/kxspacex-26nov24');
    expect(await spacex('what if one blows up mid flight')).toMatch(/^- \*\*Could flip the outcome:\*\* “A scrubbed launch does not count; a launch that fails after liftoff counts\.”/);
    const payrolls = await (await reportThreads())('https://kalshi.com/markets/kxpayrolls/nonfarm-payrolls/kxpayrolls-26dec');
    for (const q of ['how often does 150-225 hit? is it cheap rn', 'no i meant 150k to 225k. how often has that hit and is it cheap']) {
      const both = await payrolls(q);
      expect(both, q).toMatch(/^### [^\n]*\n\n- \*\*150k to 225k\*\* resolved YES in 4 of 12 settled events of the series \(33\.3%\)/);
      expect(both, q).toMatch(/### Is it cheap[^\n]*\n\n\*\*No\*\*: on the model, \*\*150k to 225k\*\* is dear: the model gives 15\.9% against a market price of 20\.5%/);
    }
  });
});
