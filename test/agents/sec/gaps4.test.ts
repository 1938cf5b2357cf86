import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';
import { MARGIN_NAMES, RATIOS, hasTwelveMonths } from '../../../src/data/sec/ratios.js';

/** Follow-ups a probe found answered badly, on the shipped demo snapshot, offline: through both agents, both APIs. */
const DEMO = path.join(PACKAGE_ROOT, 'snapshots', 'sec');
let svc: TestService;
let apiKey: string;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: DEMO, SVC_SEC_API_URL: 'http://127.0.0.1:9', SVC_SEC_WWW_URL: 'http://127.0.0.1:9' } });
  ({ apiKey } = await svc.account({ plan: 'pro', credits: 1000 }));
  client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
});
afterAll(() => svc?.close());

interface Said {
  text: string;
  citations: { order: number; name: string; url: string }[];
}

/** A Chat Completions conversation, each answer kept in it; the last answer. */
async function chat(model: string, ...turns: string[]): Promise<Said> {
  const messages: { role: string; content: string }[] = [];
  let last: Said = { text: '', citations: [] };
  for (const content of turns) {
    messages.push({ role: 'user', content });
    const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model, messages });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    last = { text: body.choices[0].message.content, citations: body.choices[0].citations ?? [] };
    messages.push({ role: 'assistant', content: last.text });
  }
  return last;
}

/** A Responses thread through previous_response_id; the last answer, its citations from the output's annotations. */
async function thread(model: string, ...turns: string[]): Promise<Said> {
  let previous: string | undefined;
  let last: Said = { text: '', citations: [] };
  for (const input of turns) {
    const r = await client.responses.create({ model, input, ...(previous ? { previous_response_id: previous } : {}) });
    previous = r.id;
    const annotations = (r.output as any[]).flatMap((o) => (o.content ?? []).flatMap((c: any) => c.annotations ?? []));
    last = { text: r.output_text, citations: annotations.map((a: any, i: number) => ({ order: i + 1, name: a.title, url: a.url })) };
  }
  return last;
}

/** Every [n] in the text has a citation n, and every citation is used. */
function consistent(a: Said): void {
  const markers = [...new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((x, y) => x - y);
  expect(markers).toEqual(a.citations.map((c) => c.order).sort((x, y) => x - y));
}

describe('the fiscal year asked through svc-agent', () => {
  it.each(['svc-agent', 'svc-sec-agent'])('"what is Apple\'s fiscal year?" through %s: when it ends, the day it moves by, each year\'s end, cited', async (model) => {
    for (const a of [await chat(model, "what is Apple's fiscal year?"), await thread(model, "what is Apple's fiscal year?")]) {
      expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its fiscal year ends in late September, so it is not the calendar year/);
      expect(a.text).toMatch(/Its latest fiscal year in the filings, fiscal year 2024, ran from 2023-10-01 to 2024-09-28 \[1\]\./);
      // 2024-09-28, 2023-09-30 and 2022-09-24 are each the last Saturday of September.
      expect(a.text).toContain('It keeps a 52/53-week year ending on the last Saturday of September, so the day moves: fiscal year 2024 on 2024-09-28 [1], fiscal year 2023 on 2023-09-30 [3], fiscal year 2022 on 2022-09-24 [3] (fiscal year 2023 had 53 weeks).');
      expect(a.citations.map((c) => c.name)).toEqual(['Apple Inc. Form 10-K, fiscal year ended 2024-09-28, page 3', 'Apple Inc. Form 10-Q, quarter ended 2025-03-29, page 3', 'Apple Inc. Form 10-K, fiscal year ended 2023-09-30, page 3']);
      consistent(a);
    }
  });

  it('"and Microsoft\'s?", then "what about googl", keep asking the fiscal calendar, not key figures; a figure asked after it is the figure', async () => {
    const turns = ["what is Apple's fiscal year?", "and Microsoft's?"];
    for (const a of [await chat('svc-agent', ...turns), await thread('svc-agent', ...turns)]) {
      expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its fiscal year ends on June 30, so it is not the calendar year/);
      expect(a.text).not.toContain('Key figures');
      expect(a.text).not.toContain('52/53-week');
    }
    const googl = await chat('svc-agent', ...turns, 'what about googl');
    expect(googl.text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: its fiscal year is the calendar year: it ends on December 31/);
    const revenue = await chat('svc-agent', ...turns, 'and its revenue?');
    expect(revenue.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q3 2025/);
  });
});

describe('the ratios offered come from the table that defines them', () => {
  /** The part of the text after `from` up to the next sentence that starts with `to`. */
  const between = (text: string, from: string, to: string) => {
    const at = text.indexOf(from);
    expect(at, from).toBeGreaterThanOrEqual(0);
    return text.slice(at, text.indexOf(to, at + from.length));
  };

  it('"what ratios can you compute?" (svc-agent and svc-sec-agent) lists every ratio of RATIOS with how it is computed, every margin, and those asked over the trailing twelve months', async () => {
    for (const [model, q] of [['svc-agent', 'what ratios can you compute?'], ['svc-sec-agent', 'which ratios do you support?'], ['svc-sec-agent', 'list the ratios you have for Apple']] as const) {
      const a = await chat(model, q);
      expect(a.text, q).toMatch(/^I compute these from the figures companies file with the SEC/);
      for (const r of RATIOS) expect(a.text, `${q}: ${r.label}`).toContain(`- **${r.label.charAt(0).toUpperCase()}${r.label.slice(1)}**: ${r.describe}.`);
      for (const m of Object.values(MARGIN_NAMES)) expect(a.text, m).toContain(m!);
      const twelve = between(a.text, 'Over the trailing twelve months', '. Any of them');
      // The ones added lately: TTM margins, TTM ROE, FCF conversion; revenue per share is listed, a trend offered.
      for (const label of ['operating margin', 'return on equity', 'free cash flow conversion']) expect(twelve).toContain(label);
      for (const r of RATIOS) expect(twelve.includes(r.label), r.label).toBe(hasTwelveMonths(r));
      expect(a.text).toContain('- **Revenue per share**');
      expect(a.text).toContain('debt-to-equity trend over the last 3 years');
      expect(a.citations).toEqual([]);
    }
  });

  it('the help text and a ratio not computed ("Apple ROIC") list the same ratios', async () => {
    const help = await chat('svc-sec-agent', 'help');
    const rosic = await chat('svc-sec-agent', 'Apple ROIC');
    expect(rosic.text).toMatch(/^I do not have a figure called "ROIC": it is a ratio of figures I do not read .*\. What I compute from the figures I read: Margins/);
    for (const a of [help, rosic]) {
      const ratios = between(a.text, 'Ratios: ', '. Over the trailing');
      expect(ratios).toBe(`Ratios: ${RATIOS.slice(0, -1).map((r) => r.label).join(', ')} and ${RATIOS.at(-1)!.label}`);
      expect(between(a.text, 'Over the trailing twelve months', '. Any of them')).toContain('return on equity');
    }
  });
});

describe('"biggest QoQ jump?": the quarter of the largest move across the quarters held', () => {
  it('after a revenue answer (both APIs): the quarter with its end, the figure, the change, both quarters cited', async () => {
    const turns = ['Apple revenue last quarter', 'biggest QoQ jump?'];
    for (const a of [await chat('svc-sec-agent', ...turns), await thread('svc-agent', ...turns)]) {
      // 119,575 - 89,498 (fiscal 2023 less its nine months) = +30,077: fiscal Q1 2024 against fiscal Q4 2023.
      expect(a.text).toMatch(/^\*\*Apple's biggest quarter-over-quarter jump in revenue\*\* across the 13 changes the data holds \(fiscal Q2 2022 to fiscal Q2 2025\) was in \*\*fiscal Q1 2024 \(quarter ended 2023-12-30\)\*\*: revenue of \$119,575 million \[1\], \*\*\+\$30,077 million \(\+33\.6%\)\*\* from the quarter before, fiscal Q4 2023 \(quarter ended 2023-09-30\): \$89,498 million \(derived\) \[2\]\[3\]\./);
      expect(a.citations.slice(0, 3).map((c) => c.name)).toEqual(['Apple Inc. Form 10-Q, quarter ended 2023-12-30, page 3', 'Apple Inc. Form 10-K, fiscal year ended 2023-09-30, page 3', 'Apple Inc. Form 10-Q, quarter ended 2023-07-01, page 3']);
      consistent(a);
    }
  });

  it('naming the figure and a direction ("biggest sequential drop in net income"), then "and the biggest yoy jump?"', async () => {
    const drop = await chat('svc-agent', "Microsoft's biggest sequential drop in net income?");
    expect(drop.text).toMatch(/^\*\*Microsoft's biggest quarter-over-quarter drop in net income\*\* across the 14 changes the data holds \(fiscal Q2 2022 to fiscal Q3 2025\) was in \*\*fiscal Q3 2022 \(quarter ended 2022-03-31\)\*\*: net income of \$16,728 million \[1\], \*\*-\$2,037 million \(-10\.9%\)\*\* from the quarter before, fiscal Q2 2022 \(quarter ended 2021-12-31\): \$18,765 million \[2\]\./);
    consistent(drop);
    const yoy = await chat('svc-agent', "Microsoft's biggest sequential drop in net income?", 'and the biggest yoy jump?');
    expect(yoy.text).toMatch(/^\*\*Microsoft's biggest year-over-year jump in net income\*\* .* was in \*\*fiscal Q2 2024 \(quarter ended 2023-12-31\)\*\*: net income of \$21,870 million \[1\], \*\*\+\$5,445 million \(\+33\.2%\)\*\* from the same quarter a year before, fiscal Q2 2023 \(quarter ended 2022-12-31\): \$16,425 million \[2\]\./);
    consistent(yoy);
    // ("Quarterly" is no table of quarters here, through svc-agent too.)
    const quarterly = await chat('svc-agent', 'Apple revenue last quarter', 'whats the biggest quarterly jump in revenue?');
    expect(quarterly.text).toMatch(/^\*\*Apple's biggest quarter-over-quarter jump in revenue\*\* .* was in \*\*fiscal Q1 2024 \(quarter ended 2023-12-30\)\*\*/);
  });
});

describe('"vs operating cash flow" right after capex', () => {
  it('of one period (both APIs, both agents): capex against operating cash flow of the same period, the share, cited', async () => {
    const turns = ['Microsoft capex FY2024', 'vs operating cash flow'];
    for (const a of [await chat('svc-sec-agent', ...turns), await thread('svc-agent', ...turns)]) {
      // 44,477 / 118,548 = 37.5%.
      expect(a.text).toMatch(/^Microsoft's capital expenditure for fiscal year 2024 \(year ended 2024-06-30\), \$44,477 million \[1\], was \*\*\$74,071 million\*\* \(62\.5%\) less than its operating cash flow, \$118,548 million \[1\]; 0\.38 times as much: capital expenditure was \*\*37\.5%\*\* of operating cash flow\./);
      expect(a.citations[0]!.name).toBe('Microsoft Corp. Form 10-K, fiscal year ended 2024-06-30, page 5');
      consistent(a);
    }
    // ("versus its cash" kept its meaning; a company named after "vs" is still that company.)
    const other = await chat('svc-sec-agent', 'Microsoft capex FY2024', 'vs Apple');
    expect(other.text).not.toMatch(/less than its|more than its/);
  });

  it('of a table of quarters: the share for each quarter and over them together, the table gaining the operating cash flow row', async () => {
    const a = await chat('svc-sec-agent', 'Apple capex last 4 quarters', 'vs operating cash flow');
    // 2,151 / 28,858; 2,908 / 26,811; 2,940 / 29,935; 3,071 / 23,952; 11,070 / 109,556.
    expect(a.text).toContain('**Capital expenditure as a share of operating cash flow** (derived, each period\'s figures cited in its column): Q3 FY2024 7.5%, Q4 FY2024 10.8%, Q1 FY2025 9.8%, Q2 FY2025 12.8%; over the 4 together, **10.1%**.');
    expect(a.text).toMatch(/\| \*\*Capital expenditure\*\* \(\$ million\) \| 2,151† \| 2,908† \| 2,940 \| 3,071† \|/);
    expect(a.text).toMatch(/\| \*\*Operating cash flow\*\* \(\$ million\) \| 28,858† \| 26,811† \| 29,935 \| 23,952† \|/);
    consistent(a);
  });
});

describe('"which grew faster over the period?" after two companies compared', () => {
  it('over the latest quarters: first to last quarter shown, per company, the span named, the faster first, seasons said', async () => {
    const turns = ['compare Apple and Microsoft revenue over the last 4 quarters', 'which grew faster over the period?'];
    for (const a of [await chat('svc-sec-agent', ...turns), await thread('svc-agent', ...turns)]) {
      // Apple 85,777 → 95,359 (+11.2%); Microsoft 64,727 → 70,066 (+8.2%).
      expect(a.text).toMatch(/^\*\*Apple\*\* grew revenue faster over the period shown\. \*\*Revenue\*\*, change over the periods shown, largest first: \*\*Apple\*\* \+11\.2% \(Q3 FY2024 to Q2 FY2025\), \*\*Microsoft\*\* \+8\.2% \(Q4 FY2024 to Q3 FY2025\) \(each company over its own fiscal quarters\)\.\nThe first and last quarters shown are different quarters of the year/);
    }
    // Asked without "over the period", the latest quarter's growth is still what the tables lead with.
    const plain = await chat('svc-sec-agent', turns[0]!, 'which grew faster?');
    expect(plain.text).not.toContain('grew revenue faster over the period shown');
  });

  it('over years: from the first year to the last', async () => {
    const a = await chat('svc-agent', 'compare Apple and Microsoft revenue FY2022 to FY2024', 'which grew faster over the whole period?');
    expect(a.text).toMatch(/^\*\*Microsoft\*\* grew revenue faster over the period shown\. \*\*Revenue\*\*, change over the periods shown, largest first: \*\*Microsoft\*\* \+23\.6% \(FY2022 to FY2024\), \*\*Apple\*\* −0\.8% \(FY2022 to FY2024\)/);
    expect(a.text).not.toContain('different quarters of the year');
  });
});

describe('"what filing is the latest quarter from?"', () => {
  it('after a table of quarters (both APIs): the form, the period, the filing date, the accession, cited to the filing\'s signed PDF and the figure\'s page', async () => {
    const turns = ['Apple revenue last 4 quarters', 'what filing is the latest quarter from?'];
    for (const a of [await chat('svc-sec-agent', ...turns), await thread('svc-agent', ...turns)]) {
      expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: fiscal Q2 2025 \(quarter ended 2025-03-29\) is from its \*\*Form 10-Q\*\* filed \*\*2025-05-02\*\* \(34 days after the period it reports ended, 2025-03-29\), accession number \*\*0000320193-25-000057\*\* \[1\]; revenue for it, \$95,359 million, is on page 3 \[2\]\./);
      expect(a.citations.map((c) => c.name)).toEqual(['Apple Inc. Form 10-Q, quarter ended 2025-03-29, filed 2025-05-02, page 1', 'Apple Inc. Form 10-Q, quarter ended 2025-03-29, page 3']);
      expect(a.citations[0]!.url).toMatch(/\/v1\/documents\/sec-[\w-]+-320193-000032019325000057\.pdf\?expires=\d+&signature=[0-9a-f]{64}#page=1$/);
      consistent(a);
    }
  });

  it('"which filing is that from?" of a derived fourth quarter names both filings it is derived from', async () => {
    const a = await chat('svc-agent', 'Microsoft net income Q4 FY2024', 'which filing is that from?');
    expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: fiscal Q4 2024 \(quarter ended 2024-06-30\) is not filed on its own: its net income is derived \(fiscal year 2024 minus nine months ended March 31, 2024\) from \*\*Form 10-K\*\* filed \*\*2024-07-30\*\* .*accession number \*\*0000950170-24-087843\*\* \[1\] and \*\*Form 10-Q\*\* filed \*\*2024-04-25\*\* .*accession number \*\*0000950170-24-048288\*\* \[2\]\./);
    consistent(a);
  });
});
