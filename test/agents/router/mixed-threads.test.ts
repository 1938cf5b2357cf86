import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesChain } from '../../helpers/chain.js';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Threads of a newcomer that go between companies (the SEC demo snapshot) and markets (the Kalshi
// demo snapshot, with reports stored for the Fed, CPI, payrolls and shutdown events): restating an
// answer simply, questions joining a company and a market, and switching from one to the other.

let demo: DemoThreads;
let client: OpenAI;

beforeAll(async () => {
  demo = await startDemoThreads();
  client = demo.client;
  for (const ticker of ['KXFEDDECISION-26DEC', 'KXCPIYOY-26DEC', 'KXPAYROLLS-26DEC', 'KXSHUTDOWN-26DEC31']) await demo.reportOf(ticker);
}, 120_000);
afterAll(() => demo.svc.close());

/** Asks a model each question in turn in one chat thread, every answer kept in it; returns every answer. */
async function thread(questions: string[], model = 'svc-agent'): Promise<string[]> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
  const answers: string[] = [];
  for (const content of questions) {
    messages.push({ role: 'user', content });
    const text = (await client.chat.completions.create({ model, messages })).choices[0]!.message.content!;
    messages.push({ role: 'assistant', content: text });
    answers.push(text);
  }
  return answers;
}

const NO_LINK = /othing I read links /;
const SEARCH_MISS = /No open Kalshi event matches/;

describe('an answer restated simply, whatever answered it', () => {
  it('"explain that simply" after a company-and-market answer: a few plain sentences, the same whatever the order of the thread', async () => {
    const a = await thread(['is apple profitable?', 'what does the market think about the fed?', 'so should I buy apple before the fed meeting?', 'explain that simply']);
    const b = await thread(['what does the market think about the fed?', 'is apple profitable?', 'so should I buy apple before the fed meeting?', 'explain that simply']);
    expect(a[3]).toMatch(/^Put simply: I do not give investment advice, and nothing I read links “Fed decision in December 2026\?” to Apple Inc\./);
    expect(a[3]).toContain("to Apple Inc. Its net margin for fiscal Q2 2025 was 26%: net income of $24.8 billion [1]");
    expect(a[3]).toContain("On Kalshi's “Fed decision in December 2026?” market, traders favour “Hike 25bps” at about 52%");
    expect(a[3].length).toBeLessThan(800);
    expect(b[3]).toBe(a[3]);
  });

  it('the same through /v1/responses (previous_response_id), streamed or not', async () => {
    const [, , , simple] = await responsesChain(client)('what does the market think about the fed?', 'is apple profitable?', 'so should I buy apple before the fed meeting?', 'explain that simply');
    expect(simple).toMatch(/^Put simply: I do not give investment advice, and nothing I read links “Fed decision in December 2026\?” to Apple Inc\./);
    const first = await client.responses.create({ model: 'svc-agent', input: 'Would a shutdown hurt Apple?' });
    let streamed = '';
    for await (const e of await client.responses.create({ model: 'svc-agent', input: 'explain that simply', previous_response_id: first.id, stream: true })) if (e.type === 'response.output_text.delta') streamed += e.delta;
    expect(first.output_text).toMatch(/^Nothing I read links “Government shutdown by December 2026\?” to Apple Inc\. \(AAPL\)/);
    expect(streamed).toMatch(/^Put simply: nothing I read links “Government shutdown by December 2026\?” to Apple Inc\. Its net margin for fiscal Q2 2025 was 26%/);
  });

  it('"explain that simply" after a table of quarters: each figure\'s range and its latest, in billions', async () => {
    const [, simple] = await thread(['Apple revenue and net income for the last 4 quarters', 'explain that simply']);
    expect(simple).toMatch(/^Put simply: Apple Inc\.'s revenue ran from \$85\.8 billion in Q3 FY2024 \[1\] to \$124\.3 billion in Q1 FY2025 \[2\] over these 4 periods; the latest, Q2 FY2025, was \$95\.4 billion \(\+5\.1% on a year before\)\./);
    expect(simple).toContain("Apple Inc.'s net income ran from $14.7 billion in Q4 FY2024");
    expect(simple).not.toMatch(/figure called/);
  });

  it('"explain that simply" after one outcome\'s chance, and "explain like I\'m 12" after a market listing', async () => {
    const fed = await thread(["what's apple's debt?", 'what does the market think about the fed?', 'what is the probability of a rate cut in december?', 'and of no change?', 'explain that simply']);
    expect(fed[4]).toMatch(/^Put simply: on Kalshi's “Fed decision in December 2026\?” market, traders put about 16% on “Hold” \[1\]\.\n\n_Kalshi prices as of 2026-11-19 15:00 UTC\._\n$/);
    // After the report's own line for the outcome, the model's chance beside the market's.
    const held = await thread(["what's apple's debt?", 'what does the market think about the fed?', 'will higher rates hurt apple because of its debt?', 'what is the probability of a rate cut in december?', 'and of no change?', 'explain that simply']);
    expect(held[5]).toMatch(/^Put simply: traders put about 16% on “Hold”; the svc model, which also weighs how past events resolved, says about 12% \[1\]\.\n\n_From the stored report on \*\*Fed decision in December 2026\?\*\* \(KXFEDDECISION-26DEC\), as of 2026-11-19 15:00 UTC\._\n$/);
    const jobs = await thread(['I have $1000. Is Tesla a good company?', "and Amazon's?", 'what about jobs numbers, what do traders expect?', "ok explain like I'm 12"]);
    expect(jobs[2]).toMatch(/\*\*Jobs added in December 2026\?\*\* \(KXPAYROLLS-26DEC, Economics\) \[1\]: Below 0 25\.0%/);
    expect(jobs[2]).toContain('A report is stored for KXPAYROLLS-26DEC');
    expect(jobs[3]).toMatch(/^Put simply: on Kalshi's “Jobs added in December 2026\?” market, traders see “0 to 75k” as the likeliest result, at about 41%, ahead of “75k to 150k” at about 28% \[1\]\./);
  });

  it('"summarize everything we talked about": each question of the thread with its answer\'s headline, a ladder\'s levels each a yes-or-no', async () => {
    const answers = await thread(["what is nvidia's revenue?", 'how fast is it growing?', 'what are prediction markets?', 'what does the CPI market say?', 'does inflation matter for nvidia?', 'thanks! summarize everything we talked about']);
    const summary = answers[5]!;
    // (Two questions with one answer: the second says so rather than repeat it.)
    expect(summary).toContain('\n- **how fast is it growing?**: the same answer as above.\n');
    expect(summary).toMatch(/^What we talked about, in brief:\n\n- \*\*what is nvidia's revenue\?\*\*: Nvidia Corp\. \(NVDA\) is not in this snapshot/);
    expect(summary).toMatch(/\n- \*\*what are prediction markets\?\*\*: Prediction market: An exchange/);
    expect(summary).toMatch(/\n- \*\*what does the CPI market say\?\*\*: On Kalshi's “CPI year-over-year in December 2026\?” market, each level is its own yes-or-no: traders put “Above 2\.6” at about 93% and “Above 3\.2” at about 61% \[\d+\]\./);
    expect(summary).toMatch(/\n- \*\*does inflation matter for nvidia\?\*\*: Nothing I read links “CPI year-over-year in December 2026\?” to Nvidia Corp\./);
  });

  it('svc-sec-agent: "summarize in one sentence" after how old the data is: one sentence, no table', async () => {
    const answers = await thread(['Alphabet revenue trailing twelve months', 'how old is this data?', 'summarize in one sentence'], 'svc-sec-agent');
    expect(answers[2]).not.toContain('|');
    // (Counted to today, UTC: the latest period in the snapshot ended on 2024-12-31.)
    const days = Math.round((Date.parse(new Date().toISOString().slice(0, 10)) - Date.parse('2024-12-31')) / 86_400_000);
    expect(answers[2]).toContain(`the latest of those periods ended ${days} days ago`);
    // (One sentence, the note on its data under it.)
    expect(answers[2].trim().split('\n\n')[0]!.split('\n')).toHaveLength(1);
  });

  it('"what does 58% mean here?" is the price in words, not a mean; "what\'s a basis point?" is the glossary\'s, worked on the Fed', async () => {
    const [, , meant] = await thread(['Will there be a government shutdown?', 'Would a shutdown hurt Apple?', 'what does 58% mean here, is that likely?']);
    expect(meant).toMatch(/^58% is the market's price for “Shutdown” on \*\*Government shutdown by December 2026\?\*\*: a contract paying \$1 if it happens costs about 58¢, so traders see it as more likely than not, about 58 in 100; the svc model, [^;]+, says 56\.1% \[1\]\./);
    const [, bp] = await thread(['what does the market think about the fed?', "what's a basis point?"]);
    expect(bp).toMatch(/^\*\*Basis point \(bp\)\*\*: A basis point is one hundredth of a percentage point: 1 bp = 0\.01 percentage point/);
    expect(bp).toContain('**Hike 25bps** [3] is a move of 25 bps (0.25 percentage point), priced at 51.5%');
    expect(bp).not.toMatch(SEARCH_MISS);
  });
});

describe('money on an outcome', () => {
  it('"what happens to my money if the fed hikes?" is what a contract on that outcome pays, not the rules', async () => {
    const [, money] = await thread(['what does the market think about the fed?', 'what happens to my money if the fed hikes?']);
    expect(money).toMatch(/^- \*\*Hike 25bps\*\* \(KXFEDDECISION-26DEC-D\): bid \$0\.51, ask \$0\.52/);
    expect(money).toContain('A YES contract bought at the ask, $0.52, pays $1.00 if it resolves YES: $0.48 profit per contract before fees, the $0.52 lost if it resolves NO.');
    expect(money).not.toContain('say nothing about');
  });
});

describe('a company and a market joined', () => {
  it('"so should I buy apple before the fed meeting?": no advice, no link in the data, Apple\'s figures and the Fed\'s prices', async () => {
    const [, , buy] = await thread(['is apple profitable?', 'what does the market think about the fed?', 'so should I buy apple before the fed meeting?']);
    expect(buy).toMatch(/^I do not give investment advice \(whether to buy or sell is yours to weigh, ideally with an adviser\), and nothing I read links “Fed decision in December 2026\?” to Apple Inc\. \(AAPL\): I have no model of how an event's outcome moves a company's results or its share price/);
    expect(buy).toMatch(/\n\*\*Apple Inc\. \(AAPL\)\*\* \(SEC filings\): net margin for fiscal Q2 2025 \(quarter ended 2025-03-29\) was \*\*26\.0%\*\*/);
    expect(buy).toMatch(/\n\*\*Fed decision in December 2026\?\*\* \(Kalshi\): the market's favourite is \*\*Hike 25bps\*\* at 51\.5%/);
    expect(buy).not.toMatch(/best buy/);
  });

  it.each([
    [['How much cash does Apple have?', 'Will there be a government shutdown?', 'Would a shutdown hurt Apple?'], /links “Government shutdown by December 2026\?” to Apple Inc\. \(AAPL\)/],
    [['what is nvidia\'s revenue?', 'is there a market on inflation?', 'does inflation matter for nvidia?'], /links “CPI year-over-year in December 2026\?” to Nvidia Corp\. \(NVDA\)[^]*Nvidia Corp\. \(NVDA\) is not in this snapshot/],
    [['Apple revenue and net income for the last 4 quarters', 'what does the market think about the fed?', "which one matters more for apple's stock?"], /links “Fed decision in December 2026\?” to Apple Inc\. \(AAPL\)/],
    [["what's apple's debt?", 'what does the market think about the fed?', 'will higher rates hurt apple because of its debt?'], /links “Fed decision in December 2026\?” to Apple Inc\. \(AAPL\)[^]*long-term debt/],
    [['Microsoft diluted EPS for fiscal 2024', 'what is the market saying about inflation?', "how does inflation affect microsoft's margins?"], /links “CPI year-over-year in December 2026\?” to Microsoft Corp\. \(MSFT\)[^]*\n\| Microsoft Corp\. \(MSFT\) \| Gross profit \| fiscal Q3 2025/],
    [['If the Fed hikes, what does that mean for the CPI market?'], /links these events[^]*\*\*Fed decision in December 2026\?\*\* \(Kalshi\)[^]*\*\*CPI year-over-year in December 2026\?\*\* \(Kalshi\)/],
    [['is google making money?', 'what is the market saying about bitcoin tomorrow?', 'should I buy bitcoin or google?'], /^I do not give investment advice[^]*links “Bitcoin price on November 20, 2026 at 10am ET\?” to Alphabet Inc\. \(GOOGL\)/],
  ])('%j: no model links the two, then what each side has', async (questions, said) => {
    const last = (await thread(questions)).at(-1)!;
    expect(last).toMatch(NO_LINK);
    expect(last).toMatch(said);
    expect(last).not.toMatch(SEARCH_MISS);
  });
});

describe('from a market back to a company, and from companies to a market', () => {
  it('"what about apple?" and "and apple\'s earnings per share?" after the Fed are Apple\'s figures', async () => {
    const answers = await thread(['Apple revenue 2024', 'What does the market think about the Fed?', 'what about apple?', "go back to the fed one - what's the most likely outcome?", "and apple's earnings per share?"]);
    expect(answers[2]).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
    expect(answers[3]).toContain('The market\'s favourite is “Hike 25bps” at 51.5%');
    expect(answers[4]).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: diluted EPS for fiscal Q2 2025 \(quarter ended 2025-03-29\) was \*\*\$1\.65 per diluted share\*\*/);
  });

  it('"I have $1000. Is Tesla a good company?": no advice, and Tesla named as outside the snapshot, with how to see the companies it has', async () => {
    const [tesla] = await thread(['I have $1000. Is Tesla a good company?']);
    // Tesla is a listed company (EDGAR's tickers file has it), so the filings agent names it as outside the snapshot.
    expect(tesla).toMatch(/^I do not give investment advice: whether to buy is yours to weigh\./);
    expect(tesla).toContain('Tesla, Inc. (TSLA) is not in this snapshot of SEC data, so I have no figures for it: ask “which companies do you cover?” for those it has');
  });
});

describe('more threads of a newcomer between companies and markets', () => {
  it('"which is safer, apple or the fed bet?" joins the two; "explain like I\'m 5" then restates that answer', async () => {
    const [, safer, five] = await thread(['what do prediction markets say about the fed?', 'which is safer, apple or the fed bet?', "explain like I'm 5"]);
    expect(safer).toMatch(/^I do not give investment advice[^\n]*nothing I read links “Fed decision in December 2026\?” to Apple Inc\. \(AAPL\)/);
    expect(safer).toMatch(/\n\*\*Apple Inc\. \(AAPL\)\*\* \(SEC filings\):\n\n\| Company \| Figure/);
    expect(five).toMatch(/^Put simply: I do not give investment advice, and nothing I read links/);
    expect(five).not.toMatch(SEARCH_MISS);
  });

  it('"is apple\'s cash enough to survive a shutdown?" and "would that be good for microsoft?" (a market with no report: no model quoted)', async () => {
    const [, , survive] = await thread(['apple\'s cash?', 'Will there be a government shutdown?', "is apple's cash enough to survive a shutdown?"]);
    expect(survive).toMatch(/^Nothing I read links “Government shutdown by December 2026\?” to Apple Inc\. \(AAPL\)/);
    expect(survive).toContain('cash and cash equivalents at the end of fiscal Q2 2025 (2025-03-29) were **$28,162 million**');
    const [, good] = await thread(['what are the odds bitcoin goes above 100k?', 'would that be good for microsoft?']);
    expect(good).toMatch(/^Nothing I read links “Bitcoin price on November 20, 2026 at 10am ET\?” to Microsoft Corp\. \(MSFT\)/);
    expect(good).toContain('(live prices; no report is stored, so no model).');
    expect(good).not.toContain('NaN');
  });

  it('"what does above 3.0 mean?" is what that contract pays and its price in words, not the ladder\'s mean', async () => {
    const [, meant] = await thread(["what's the inflation market saying?", 'what does above 3.0 mean?']);
    expect(meant).toMatch(/^“Above 3\.0” is one outcome of \*\*CPI year-over-year in December 2026\?\*\*, a contract that pays \$1 if the result is above 3\.0 \(as the event's rules define it\) and nothing otherwise; it trades at about 87¢, so traders see it as very likely, about 87 in 100; the svc model, [^;]+, says 73\.4% \[1\]\./);
    expect(meant).not.toMatch(/median/);
  });

  it('"Is Amazon a good stock to buy?": no advice, then what the filings say; "should I buy apple stock?" joins no market', async () => {
    const [amazon] = await thread(['Is Amazon a good stock to buy?']);
    expect(amazon).toMatch(/^I do not give investment advice: whether to buy is yours to weigh\. What the filings say:\n\nAmazon Com Inc\. \(AMZN\) is not in this snapshot/);
    const [, apple] = await thread(['what does the market think about the fed?', 'should I buy apple stock?']);
    expect(apple).not.toMatch(NO_LINK);
  });
});
