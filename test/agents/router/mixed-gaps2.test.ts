import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// More threads of a newcomer between companies (the SEC demo snapshot) and markets (the Kalshi demo
// snapshot, with reports stored for the Fed, CPI, payrolls and shutdown events): two companies weighed
// by price, "explain like I'm 5" of a market answer, interest rates and a company's debt, a
// restatement that names a company once, and "what would make you wrong?" of company figures.

let demo: DemoThreads;
let client: OpenAI;

beforeAll(async () => {
  demo = await startDemoThreads();
  client = demo.client;
  for (const ticker of ['KXFEDDECISION-26DEC', 'KXCPIYOY-26DEC', 'KXPAYROLLS-26DEC', 'KXSHUTDOWN-26DEC31']) await demo.reportOf(ticker);
}, 120_000);
afterAll(() => demo.svc.close());

interface Said {
  text: string;
  sources: { order: number; title: string; url: string }[];
}

/** Asks svc-agent each input in turn through /v1/responses, each continuing the one before; returns every answer with its sources. */
async function thread(inputs: string[]): Promise<Said[]> {
  let previous: string | undefined;
  const out: Said[] = [];
  for (const input of inputs) {
    const r = await client.responses.create({ model: 'svc-agent', input, ...(previous ? { previous_response_id: previous } : {}) });
    previous = r.id;
    const annotations = ((r.output[0] as any).content[0].annotations ?? []) as { order: number; title: string; url: string }[];
    out.push({ text: r.output_text, sources: annotations });
  }
  return out;
}

/** Every [n] of the text is a source listed, and the sources are numbered 1..N. */
function citesItsSources(said: Said) {
  const refs = [...new Set([...said.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const orders = [...new Set(said.sources.map((s) => s.order))].sort((a, b) => a - b);
  expect(refs).toEqual(orders);
  expect(orders).toEqual(orders.map((_, i) => i + 1));
}

describe('two companies discussed in turn, then "which one is cheaper?"', () => {
  it('"which one is cheaper to buy?" after Tesla and Amazon answers both: neither is in the snapshot, and a price comparison needs share prices', async () => {
    const [, , cheaper] = await thread(["what's tesla's revenue?", "and amazon's?", 'which one is cheaper to buy?']);
    expect(cheaper!.text).toMatch(/^Whether a stock is cheap or dear is a judgement of its price against what the company earns, and I give no investment advice\. Which of them is cheaper needs each one's share price/);
    expect(cheaper!.text).toContain('SEC filings hold no share price (this service has no stock quotes)');
    expect(cheaper!.text).toContain('- **Tesla, Inc. (TSLA)**: not in this snapshot of SEC data, so no figures to value it on.');
    expect(cheaper!.text).toContain('- **Amazon Com Inc. (AMZN)**: not in this snapshot of SEC data, so no figures to value it on.');
  });

  it('of Apple and Microsoft: each one\'s twelve-month diluted EPS and shares outstanding, cited in order; so do "which is the better value?" and "is either of them cheap?"', async () => {
    const answers = await thread(['apple revenue 2024', "and microsoft's?", 'which one is cheaper?', 'which is the better value?', 'is either of them cheap?']);
    for (const said of answers.slice(2)) {
      expect(said.text).toContain("Which of them is cheaper needs each one's share price");
      // Apple: 1.40 + 0.97 + 2.40 + 1.65 over its four quarters to fiscal Q2 2025; Microsoft: fiscal 2024 less nine months, then three quarters.
      expect(said.text).toContain('- **Apple Inc. (AAPL)**: diluted EPS of $6.42 over the four quarters to fiscal Q2 2025 [1][2][3][4]; 14,939 million shares outstanding at 2025-03-29 [5].');
      expect(said.text).toContain('- **Microsoft Corp. (MSFT)**: diluted EPS of $12.93 over the four quarters to fiscal Q3 2025 [6][7][8][9][10]; 7,434 million shares outstanding at 2025-03-31 [11].');
      citesItsSources(said);
      expect(said.sources[0]!.title).toMatch(/^Apple Inc\. Form 10-Q/);
      expect(said.sources[5]!.title).toMatch(/^Microsoft Corp\. Form 10-Q/);
    }
  });

  it('"which one should I buy?" after the two: no advice, and the key figures of both', async () => {
    const [, , pick] = await thread(['apple revenue 2024', "and microsoft's?", 'which one should I buy?']);
    expect(pick!.text).toMatch(/^I do not give investment advice/);
    expect(pick!.text).toContain('| Apple Inc. (AAPL) | Revenue | fiscal year 2024 (year ended 2024-09-28) | $391,035 million [1] |');
    expect(pick!.text).toContain('| Microsoft Corp. (MSFT) | Revenue | fiscal year 2024 (year ended 2024-06-30) | $245,122 million [2] |');
    citesItsSources(pick!);
  });
});

describe('"explain like I\'m 5" right after an answer about one event', () => {
  it('after a search\'s listing or an outcome\'s price: that answer in plain words, not how prediction markets work', async () => {
    const [, five] = await thread(['what are the odds of a fed cut in december?', "explain like I'm 5"]);
    // (The time of the prices kept under it.)
    expect(five!.text).toBe("Put simply: on Kalshi's “Fed decision in December 2026?” market, traders put about 33% on “Cut more than 25bps” and about 10% on “Cut 25bps” [1].\n\n_Kalshi prices as of 2026-11-19 15:00 UTC._\n");
    expect(five!.sources.map((s) => s.url)).toEqual(['https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec']);
    const [, , hike] = await thread(['what does the market think about the fed?', "what's the price of hike?", 'eli5']);
    expect(hike!.text.split('\n\n')[0]).toBe("Put simply: on Kalshi's “Fed decision in December 2026?” market, traders put about 52% on “Hike 25bps” [1].");
    // A part of a report: that part, plainly (no gap left that was taken against a share no longer said).
    const [, , favourite] = await thread(['what does the market think about the fed?', "what's the model's favourite?", "explain like I'm 5"]);
    expect(favourite!.text.split('\n\n')[0]).toBe('Put simply: the model favours Hike 25bps at 51%; the market prices it at 52% [1].');
    const [, shutdown] = await thread(['Will there be a government shutdown?', 'ok explain it like im 5']);
    expect(shutdown!.text).toMatch(/^Put simply: on Kalshi's “Government shutdown by December 2026\?” market, traders put the chance of “Shutdown” at about 58% \[1\]\.\n(?:\n_[^\n]+_\n)*$/);
    expect(shutdown!.text).not.toMatch(/in plain words: the market lists/);
  });

  it('after a whole report: still how its market works, worked on that event', async () => {
    const [, five] = await thread(['https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec', "explain like I'm 5"]);
    expect(five!.text).toMatch(/^\*\*Fed decision in December 2026\?\*\*, in plain words: the market lists 4 outcomes/);
  });
});

describe('interest rates and a company\'s debt', () => {
  it('"will higher rates hurt apple because of its debt?": its debt, that the data has no interest expense for it, no model linking rates to it, and the Fed market\'s facts', async () => {
    const [, , hurt, simple] = await thread(["what's apple's debt?", 'what does the market think about the fed?', 'will higher rates hurt apple because of its debt?', 'explain that simply']);
    expect(hurt!.text).toMatch(/^Nothing I read links “Fed decision in December 2026\?” to Apple Inc\. \(AAPL\): no model here links interest rates to its results \(what higher rates would cost it depends on terms the figures here do not give/);
    expect(hurt!.text).toContain('**Apple Inc. (AAPL)** (SEC filings): long-term debt at the end of fiscal Q2 2025 (2025-03-29) was **$78,566 million** (about $78.6 billion) [1]. The XBRL financial data recorded for Apple Inc. in this snapshot has no interest expense figure, so I cannot give it.');
    expect(hurt!.text).toMatch(/\n\*\*Fed decision in December 2026\?\*\* \(Kalshi\): the market's favourite is \*\*Hike 25bps\*\* at 51\.5% \(mid; [\d.]+% normalised\), model 50\.8% \[2\]/);
    citesItsSources(hurt!);
    expect(simple!.text).toMatch(/^Put simply: nothing I read links “Fed decision in December 2026\?” to Apple Inc\. Its long-term debt at the end of fiscal Q2 2025 was about \$78\.6 billion \[1\]\./);
  });

  it('"how exposed is microsoft to interest rates?" in a new thread: its debt and interest expense, each cited, beside the Fed market whose report is stored', async () => {
    const [exposed] = await thread(['how exposed is microsoft to interest rates?']);
    expect(exposed!.text).toMatch(/^Nothing I read links “Fed decision in December 2026\?” to Microsoft Corp\. \(MSFT\): no model here links interest rates to its results/);
    expect(exposed!.text).toContain('**Microsoft Corp. (MSFT)** (SEC filings): long-term debt at the end of fiscal Q3 2025 (2025-03-31) was **$40,152 million** (about $40.2 billion) [1]. Interest expense for fiscal Q3 2025 (quarter ended 2025-03-31) was **$734 million** [2].');
    citesItsSources(exposed!);
    expect(exposed!.sources[1]!.title).toMatch(/^Microsoft Corp\. Form 10-Q, quarter ended 2025-03-31/);
    const [vulnerable] = await thread(["does apple's debt make it vulnerable to rising interest rates?"]);
    expect(vulnerable!.text).toMatch(/^Nothing I read links “Fed decision in December 2026\?” to Apple Inc\. \(AAPL\): no model here links interest rates/);
    expect(vulnerable!.text).toContain('has no interest expense figure');
    const [hike] = await thread(["would a rate hike hurt alphabet's earnings?"]);
    expect(hike!.text).toMatch(/\*\*Alphabet Inc\. \(GOOGL\)\*\* \(SEC filings\): net income for Q4 2024 [^\n]+ Long-term debt at the end of Q4 2024 \(2024-12-31\) was \*\*\$10,883 million\*\*[^\n]+ Interest expense for Q4 2024/);
    citesItsSources(hike!);
    // A figure asked beside the rates comes first (a table on lines of its own), then the debt and its cost.
    const [margins] = await thread(["will the fed raising rates affect apple's margins?"]);
    expect(margins!.text).toMatch(/\*\*Apple Inc\. \(AAPL\)\*\* \(SEC filings\):\n\n\| Company \| Figure \|[^]*\| Apple Inc\. \(AAPL\) \| Net income \|[^\n]*\|\n\nLong-term debt at the end of fiscal Q2 2025 \(2025-03-29\) was \*\*\$78,566 million\*\* \(about \$78\.6 billion\) \[2\]\. The XBRL financial data recorded for Apple Inc\. in this snapshot has no interest expense figure/);
    citesItsSources(margins!);
  });

  it('an advice question before the Fed meeting is not one of rates: whether Apple makes money, as before', async () => {
    const [buy] = await thread(['so should I buy apple before the fed meeting?']);
    expect(buy!.text).toMatch(/\n\*\*Apple Inc\. \(AAPL\)\*\* \(SEC filings\): net margin for fiscal Q2 2025/);
    expect(buy!.text).not.toContain('interest expense');
  });
});

describe('a restatement names a company once in a row', () => {
  it('"… links “Shutdown?” to Apple Inc. Its net margin …"; with two companies named, each by name', async () => {
    const [, simple] = await thread(['Would a shutdown hurt Apple?', 'explain that simply']);
    expect(simple!.text).toMatch(/^Put simply: nothing I read links “Government shutdown by December 2026\?” to Apple Inc\. Its net margin for fiscal Q2 2025 was 26%/);
    expect(simple!.text).not.toMatch(/Apple Inc\. Apple Inc\./);
    const [, both] = await thread(['would a shutdown hurt apple or microsoft?', 'explain that simply']);
    expect(both!.text).toContain("to Apple Inc. and Microsoft Corp. Apple Inc.'s net margin");
  });
});

describe('"what would make you wrong?" right after company figures', () => {
  it('is of those figures (the filing and period, restatements, derived inputs, fiscal year), not of the market report discussed before', async () => {
    const answers = await thread(['what does the market think about the fed?', 'what would make you wrong?', "what was apple's revenue in q1 2025?", 'what would make you wrong?']);
    expect(answers[1]!.text).toMatch(/^What would have to be true for the model's view on \*\*Fed decision in December 2026\?\*\*/);
    const wrong = answers[3]!;
    expect(wrong.text).toMatch(/^That figure is read from SEC filings, not forecast, so no later event proves it wrong/);
    expect(wrong.text).toContain('- **The filing and the period:** the figure is read for its period from the company\'s XBRL data in the filing named: Apple Inc.\'s revenue for fiscal Q1 2025 (quarter ended 2024-12-28): Form 10-Q filed 2025-01-31 as "Total net sales" on page 3 [1].');
    expect(wrong.text).toContain('- **Restatements and amendments:** no later filing in the data changed it;');
    expect(wrong.text).toContain('- **Derived figures:** none here');
    expect(wrong.text).toContain("- **Fiscal year and calendar:** Apple's fiscal year ends in late September: fiscal Q1 2025 ran from 2024-09-29 to 2024-12-28.");
    expect(wrong.text).toContain("- **The data's date:** demo snapshot recorded 2025-05-15");
    expect(wrong.text).not.toMatch(/Fed decision|model's view/);
    citesItsSources(wrong);
    expect(wrong.sources[0]!.title).toMatch(/^Apple Inc\. Form 10-Q, quarter ended 2024-12-28/);
  });

  it('of a derived figure, its inputs; of two companies compared, each filing and how far apart their periods end; of a margin, its parts', async () => {
    const [, derived] = await thread(['alphabet net income q4 2024', 'how reliable are these numbers?']);
    expect(derived!.text).toContain("Alphabet Inc.'s net income for Q4 2024 (quarter ended 2024-12-31): derived from the filings below [1][2]");
    expect(derived!.text).toContain('- **Derived figures:** Derived as fiscal year 2024 $100,118 million (Form 10-K filed 2025-02-05) [1] minus nine months ended September 30, 2024 $73,582 million (Form 10-Q filed 2024-10-30) [2]');
    expect(derived!.text).toContain('its period is a calendar one');
    citesItsSources(derived!);
    const [, , compared] = await thread(['what does the market think about the fed?', 'apple vs microsoft revenue 2024', 'how could you be wrong?']);
    expect(compared!.text).toMatch(/^Those figures are read from SEC filings/);
    expect(compared!.text).toContain("Apple Inc.'s revenue for fiscal year 2024 (year ended 2024-09-28): Form 10-K filed 2024-11-01 [1]; Microsoft Corp.'s revenue for fiscal year 2024 (year ended 2024-06-30): Form 10-K filed 2024-07-30 [2].");
    expect(compared!.text).toContain('The periods compared end 3 months apart.');
    citesItsSources(compared!);
    // A table of quarters: each quarter's filing by its form, the derived fourth quarter, the rows computed under each figure.
    const [, quarters] = await thread(['Apple revenue and net income for the last 4 quarters', 'what would make you wrong?']);
    expect(quarters!.text).toMatch(/^Those figures are read from SEC filings/);
    expect(quarters!.text).toContain("Apple Inc.'s revenue and net income for Q3 FY2024 (Form 10-Q) [1], Q4 FY2024 (Form 10-K) [2][1], Q1 FY2025 (Form 10-Q) [3], Q2 FY2025 (Form 10-Q) [4].");
    expect(quarters!.text).toContain('The figures marked † (Q4 FY2024 [2][1]) are derived, not reported as such: a fourth quarter is the fiscal year minus the first nine months');
    expect(quarters!.text).toContain('The rows under a figure (year over year; quarter over quarter) are computed from filed figures');
    expect(quarters!.text).toContain("Apple Inc.'s fiscal year ends in late September");
    citesItsSources(quarters!);
    const [, right] = await thread(["what's microsoft's net income for fiscal 2024?", 'are these numbers right?']);
    expect(right!.text).toMatch(/^That figure is read from SEC filings/);
    expect(right!.text).toContain('Microsoft Corp.\'s net income for fiscal year 2024 (year ended 2024-06-30): Form 10-K filed 2024-07-30 as "Net income" on page 3 [1].');
    const [, margin] = await thread(['apple gross margin fiscal 2024', 'can I trust that?']);
    expect(margin!.text).toContain("- **Derived figures:** Apple Inc.'s gross margin for fiscal year 2024 is computed from gross profit of $180,683 million [1] over revenue of $391,035 million [1].");
  });
});
