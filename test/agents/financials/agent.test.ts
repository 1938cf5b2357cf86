import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spanOf } from '../../../src/agents/financials/agent.js';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { pdfPageTexts } from '../../helpers/pdf-text.js';
import { startService, type TestService } from '../../helpers/service.js';

let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'sec') } });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
});
afterAll(() => svc.close());

/** The Markdown table: header cells and body rows, split into cells. */
function table(text: string) {
  const rows = text.split('\n').filter((l) => l.startsWith('|') && !l.startsWith('|---'));
  const cells = (l: string) => l.split('|').slice(1, -1).map((c) => c.trim());
  return { header: cells(rows[0]!).slice(1), body: rows.slice(1).map(cells) };
}

describe('svc-financials-agent', () => {
  it('tabulates several quarters with growth rates, every column cited, citations in reading order', async () => {
    const r = await client.responses.create({ model: 'svc-financials-agent', input: 'Apple revenue and net income for the last 8 quarters' });
    const text = r.output_text;
    expect(text).toMatch(/^### Apple Inc\. \(AAPL\), by fiscal quarter \(its fiscal year ends in late September\)/);
    const { header, body } = table(text);
    expect(header).toHaveLength(8);
    for (const h of header) expect(h).toMatch(/^Q[1-4] FY20\d\d (\[\d+\])+$/);
    const markers = [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect([...new Set(markers)]).toEqual([...new Set(markers)].map((_, i) => i + 1));
    const annotations = (r.output[0] as any).content[0].annotations as any[];
    expect(annotations).toHaveLength(new Set(markers).size);
    const revenue = body.find((row) => row[0]!.startsWith('**Revenue**'))!;
    const yoy = body[body.indexOf(revenue) + 1]!;
    expect(yoy[0]).toBe('↳ year over year');
    // Growth is computed from the figures: Q3 FY2024 against Q3 FY2023, both in the table.
    const at = (label: string) => header.findIndex((h) => h.startsWith(label)) + 1;
    const num = (s: string) => Number(s.replace(/[,†]/g, ''));
    const growth = num(revenue[at('Q3 FY2024')]!) / num(revenue[at('Q3 FY2023')]!) - 1;
    expect(yoy[at('Q3 FY2024')]).toBe(`+${(growth * 100).toFixed(1)}%`);
    expect(text).toContain('† Derived, not reported as such');
    expect(body.some((row) => row[0]!.startsWith('**Net income**'))).toBe(true);
  });

  it('asked for a margin, adds it under the figure as a share of that column\'s revenue', async () => {
    const r = await client.responses.create({ model: 'svc-financials-agent', input: 'Apple gross margin for the last 4 quarters' });
    const { header, body } = table(r.output_text);
    const gross = body.find((row) => row[0]!.startsWith('**Gross profit**'))!;
    const margin = body[body.indexOf(gross) + 1]!;
    expect(margin[0]).toBe('↳ gross margin (% of revenue)');
    // The growth rows under it are the figure's, and say so.
    expect(body[body.indexOf(gross) + 2]![0]).toBe('↳ gross profit year over year');
    // Recomputed from the same quarters' revenue, asked for separately.
    const rev = await client.responses.create({ model: 'svc-financials-agent', input: 'Apple revenue for the last 4 quarters' });
    const revenue = table(rev.output_text).body.find((row) => row[0]!.startsWith('**Revenue**'))!;
    const num = (x: string) => Number(x.replace(/[,†]/g, ''));
    header.forEach((_, i) => expect(margin[i + 1]).toBe(`${((100 * num(gross[i + 1]!)) / num(revenue[i + 1]!)).toFixed(1)}%`));
    expect(table((await client.responses.create({ model: 'svc-financials-agent', input: 'Apple gross profit for the last 4 quarters' })).output_text).body.some((row) => row[0]!.includes('margin'))).toBe(false);
  });

  it("a column's citation opens the filing's PDF at a page that shows the figure", async () => {
    const r = await client.responses.create({ model: 'svc-financials-agent', input: 'Apple revenue for the last 4 quarters' });
    const { header, body } = table(r.output_text);
    const column = header.findIndex((h) => h.startsWith('Q3 FY2024'));
    const order = Number(/\[(\d+)\]/.exec(header[column]!)![1]);
    const citation = ((r as any).citations as { order: number; url: string }[]).find((c) => c.order === order)!;
    const page = Number(/#page=(\d+)$/.exec(citation.url)![1]);
    const pdf = await fetch(citation.url.replace(/#.*/, ''));
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const pages = await pdfPageTexts(new Uint8Array(await pdf.arrayBuffer()));
    expect(pages[page - 1]).toContain(body[0]![column + 1]!.replace('†', ''));
  });

  it('goes by fiscal year, says when fewer periods exist, and carries the span into a follow-up', async () => {
    const years = await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: 'msft revenue over the past 5 years' }] });
    const text = years.choices[0]!.message.content!;
    expect(text).toMatch(/^### Microsoft Corp\. \(MSFT\), by fiscal year \(its fiscal year ends on June 30\)/);
    expect(table(text).header.every((h) => /^FY20\d\d/.test(h))).toBe(true);
    expect(text).toMatch(/Only \d fiscal years have figures in the filings available; all are shown\./);
    const next = await client.chat.completions.create({
      model: 'svc-agent',
      messages: [
        { role: 'user', content: 'msft revenue over the past 5 years' },
        { role: 'assistant', content: text },
        { role: 'user', content: 'and for apple?' },
      ],
    });
    expect(next.choices[0]!.message.content).toMatch(/^### Apple Inc\. \(AAPL\), by fiscal year/);
  });

  it('says which figures asked for it does not know, beside the table of those it does', async () => {
    const r = await client.responses.create({ model: 'svc-financials-agent', input: 'Apple revenue and EBITDA for the last 4 quarters' });
    expect(r.output_text).toMatch(/^I do not have a figure called "EBITDA": EBITDA is not a GAAP figure/);
    expect(table(r.output_text).body.some((row) => row[0]!.startsWith('**Revenue**'))).toBe(true);
  });

  it('explains a company it cannot find instead of inventing a table', async () => {
    const r = await client.responses.create({ model: 'svc-financials-agent', input: 'Zzyzx Widgets revenue for the last 8 quarters' });
    expect(r.output_text).toMatch(/could not find a company/i);
    expect(r.output_text).not.toContain('|---');
  });

  it('tables the companies it has beside one it cannot find, and says a company missing from the snapshot is missing from it', async () => {
    const r = await client.responses.create({ model: 'svc-financials-agent', input: 'Apple and Zorblax revenue last 4 quarters' });
    expect(table(r.output_text).header).toHaveLength(4);
    expect(r.output_text).toContain('I could not find a company called "Zorblax" in this snapshot of SEC data');
    const amazon = await client.responses.create({ model: 'svc-financials-agent', input: 'Apple and Amazon revenue last 4 quarters' });
    expect(amazon.output_text).toMatch(/\*\*Amazon[^*]* \(AMZN\)\*\* is not in this snapshot of SEC data, so there are no figures to tabulate/);
    expect(amazon.output_text).not.toContain('files no XBRL');
  });

  it('shows the fiscal years asked for: the quarters of one, or a range of years, saying what is missing', async () => {
    const fy = await client.responses.create({ model: 'svc-agent', input: 'Microsoft revenue each quarter of fiscal 2024' });
    expect(table(fy.output_text).header.map((h) => h.replace(/ \[.*$/, ''))).toEqual(['Q1 FY2024', 'Q2 FY2024', 'Q3 FY2024', 'Q4 FY2024']);
    const two = await client.responses.create({ model: 'svc-agent', input: 'Apple net income each quarter of fiscal 2023 and fiscal 2024' });
    expect(table(two.output_text).header.map((h) => h.replace(/ \[.*$/, ''))).toEqual(['Q1 FY2023', 'Q2 FY2023', 'Q3 FY2023', 'Q4 FY2023', 'Q1 FY2024', 'Q2 FY2024', 'Q3 FY2024', 'Q4 FY2024']);
    // One change between two years asked for: the change, not a table.
    const change = await client.responses.create({ model: 'svc-agent', input: "By how much did Microsoft's net income increase between FY2022 and FY2024?" });
    expect(change.output_text).toMatch(/- Compared with: fiscal year 2022 \(year ended 2022-06-30\) was \$72,738 million .*; change \+\$15,398 million \(\+21\.2%\)/);
    const years = await client.responses.create({ model: 'svc-agent', input: 'Apple annual revenue 2021 to 2024' });
    expect(table(years.output_text).header.map((h) => h.replace(/ \[.*$/, ''))).toEqual(['FY2022', 'FY2023', 'FY2024']);
    expect(years.output_text).toContain('Only 3 of the 4 fiscal years from fiscal 2021 to 2024 have figures in the filings available; all are shown.');
  });

  it('adds the periods up when asked ("combined", "in total", "sum of"): a Total column of the figures that add up, the others said not to', async () => {
    const num = (x: string) => Number(x.replace(/[,†*]/g, ''));
    const two = await client.responses.create({ model: 'svc-sec-agent', input: 'Apple combined revenue and net income for FY2023 and FY2024' });
    const t = table(two.output_text);
    expect(t.header.map((h) => h.replace(/\s*\[\d+\]/g, ''))).toEqual(['FY2023', 'FY2024', 'Total']);
    // Every row has a cell per column (the separator too: a Total column outside it would not render).
    expect(two.output_text).toContain('|---|---:|---:|---:|');
    for (const row of t.body) expect(row).toHaveLength(4);
    for (const label of ['**Revenue**', '**Net income**']) {
      const row = t.body.find((r) => r[0]!.startsWith(label))!;
      expect(num(row[3]!)).toBe(num(row[1]!) + num(row[2]!));
    }
    expect(two.output_text).toContain('Total: revenue, net income added up over the 2 fiscal years shown (FY2023, FY2024).');
    // A range in total is each of its years; years named one by one are only those.
    const range = table((await client.responses.create({ model: 'svc-sec-agent', input: "What was Apple's revenue in total from 2022 to 2024?" })).output_text);
    expect(range.header.map((h) => h.replace(/\s*\[\d+\]/g, ''))).toEqual(['FY2022', 'FY2023', 'FY2024', 'Total']);
    const named = await client.responses.create({ model: 'svc-sec-agent', input: 'Apple revenue and cash FY2022 and FY2024 combined' });
    expect(table(named.output_text).header.map((h) => h.replace(/\s*\[\d+\]/g, ''))).toEqual(['FY2022', 'FY2024', 'Total']);
    expect(named.output_text).not.toContain('No figures for FY2023');
    expect(named.output_text).toContain('Cash and cash equivalents is a balance at each period\'s end, which does not add up over time, so it has no total.');
    // Quarters add up the same way; a margin over the total is the total over the summed revenue.
    const quarters = table((await client.responses.create({ model: 'svc-sec-agent', input: 'sum of Apple net income in the last four quarters' })).output_text);
    expect(quarters.header).toHaveLength(5);
    const income = quarters.body.find((r) => r[0]!.startsWith('**Net income**'))!;
    expect(num(income[5]!)).toBe([1, 2, 3, 4].reduce((sum, i) => sum + num(income[i]!), 0));
    const margin = await client.responses.create({ model: 'svc-sec-agent', input: 'Apple gross margin last three years combined' });
    const gross = table(margin.output_text).body.find((r) => r[0]!.startsWith('**Gross profit**'))!;
    expect(gross[4]).toBe('**520,613**');
    expect(table(margin.output_text).body[1]![4]).toBe('44.5%');
    // "Total revenue" is a figure, not a sum of periods.
    expect((await client.responses.create({ model: 'svc-sec-agent', input: 'Apple total revenue last 2 years' })).output_text).not.toContain('Total');
  });

  it('"combined?" after single figures says there is nothing to add up; years named one by one are named so when some have no figures', async () => {
    const r = await client.chat.completions.create({
      model: 'svc-agent',
      messages: [
        { role: 'user', content: 'Apple revenue Q3 2024' },
        { role: 'assistant', content: '(one figure)' },
        { role: 'user', content: 'and the quarter before?' },
        { role: 'assistant', content: '(one figure)' },
        { role: 'user', content: 'combined?' },
      ],
    });
    expect(r.choices[0]!.message.content).toMatch(/^There is no table of periods here to add up: each answer so far was one figure\./);
    const named = (await client.responses.create({ model: 'svc-financials-agent', input: 'Apple revenue FY2019 and FY2024 combined' })).output_text;
    expect(named).toContain('Total: no total is given: only 1 of the 2 fiscal years asked for has figures in the filings available.');
    expect(named).toContain('Only 1 of the 2 fiscal years named (fiscal 2019 and 2024) has figures in the filings available; all are shown.');
  });

  it('a follow-up naming a period of its own answers that period, not the earlier table\'s', async () => {
    const after = async (followUp: string) =>
      (await client.chat.completions.create({ model: 'svc-financials-agent', messages: [{ role: 'user', content: 'Apple revenue last 4 quarters' }, { role: 'assistant', content: '(the table)' }, { role: 'user', content: followUp }] })).choices[0]!.message.content!;
    expect(await after('Microsoft net income FY2023')).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: net income for fiscal year 2023 \(year ended 2023-06-30\) was \*\*\$72,361 million\*\*/);
    expect(await after('Apple total revenue FY2024')).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
    expect(table(await after('and net income?')).header).toHaveLength(4);
  });

  it('a follow-up moving the table ("and the year before?", "the quarter before?") shows the same span that much earlier', async () => {
    const after = async (model: string, first: string, followUp: string) =>
      table((await client.chat.completions.create({ model, messages: [{ role: 'user', content: first }, { role: 'assistant', content: '(the table)' }, { role: 'user', content: followUp }] })).choices[0]!.message.content!).header.map((h) => h.replace(/\s*\[\d+\]/g, ''));
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      expect(await after(model, 'Apple revenue for the last 4 quarters', 'and the year before?')).toEqual(['Q3 FY2023', 'Q4 FY2023', 'Q1 FY2024', 'Q2 FY2024']);
      expect(await after(model, 'Apple revenue for the last 4 quarters', 'and the quarter before?')).toEqual(['Q2 FY2024', 'Q3 FY2024', 'Q4 FY2024', 'Q1 FY2025']);
      expect(await after(model, 'Apple revenue for the past 2 years', 'and the year before?')).toEqual(['FY2022', 'FY2023']);
    }
    expect(await after('svc-agent', 'Apple revenue 2023 to 2024', 'and the year before?')).toEqual(['FY2022', 'FY2023']);
  });

  it('two quarters added up, and a follow-up asking for the total of the table just shown', async () => {
    const num = (x: string) => Number(x.replace(/[,†*]/g, ''));
    const two = table((await client.responses.create({ model: 'svc-sec-agent', input: 'Apple revenue Q1 2024 and Q2 2024 combined' })).output_text);
    expect(two.header.map((h) => h.replace(/\s*\[\d+\]/g, ''))).toEqual(['Q1 FY2024', 'Q2 FY2024', 'Total']);
    const revenue = two.body.find((r) => r[0]!.startsWith('**Revenue**'))!;
    expect(num(revenue[3]!)).toBe(num(revenue[1]!) + num(revenue[2]!));
    const turns: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Apple revenue for the last 4 quarters' }];
    for (const model of ['svc-sec-agent', 'svc-financials-agent', 'svc-agent']) {
      for (const followUp of ['combined?', "what's the total?"]) {
        const r = await client.chat.completions.create({ model, messages: [...turns, { role: 'assistant', content: '(the table)' }, { role: 'user', content: followUp }] });
        const t = table(r.choices[0]!.message.content!);
        expect(t.header.at(-1), `${model}: ${followUp}`).toBe('Total');
        const row = t.body.find((x) => x[0]!.startsWith('**Revenue**'))!;
        expect(num(row[5]!)).toBe([1, 2, 3, 4].reduce((sum, i) => sum + num(row[i]!), 0));
      }
    }
  });

  it('a follow-up adding a figure ("add net income") keeps the table\'s rows and adds its own', async () => {
    const r = await client.chat.completions.create({
      model: 'svc-sec-agent',
      messages: [
        { role: 'user', content: 'Apple revenue for the last 4 quarters' },
        { role: 'assistant', content: '(the table)' },
        { role: 'user', content: 'add net income' },
      ],
    });
    const rows = table(r.choices[0]!.message.content!).body.map((row) => row[0]);
    expect(rows.filter((label) => label!.startsWith('**'))).toEqual(['**Revenue** ($ million)', '**Net income** ($ million)']);
  });

  it('reads the span of a question', () => {
    expect(spanOf('last 8 quarters')).toEqual({ kind: 'quarter', count: 8, latest: true });
    expect(spanOf('past five years')).toEqual({ kind: 'year', count: 5, latest: true });
    expect(spanOf('quarter by quarter')).toEqual({ kind: 'quarter', count: 8 });
    expect(spanOf('annual revenue')).toEqual({ kind: 'year', count: 5 });
    expect(spanOf('last 40 quarters')).toEqual({ kind: 'quarter', count: 12, latest: true });
    expect(spanOf('revenue in Q3 2024')).toBeNull();
    expect(spanOf('quarterly revenue in 2024')).toEqual({ kind: 'quarter', count: 4, years: { from: 2024, to: 2024 } });
    expect(spanOf('revenue each quarter of fiscal 2024')).toEqual({ kind: 'quarter', count: 4, years: { from: 2024, to: 2024 } });
    // FY2023 written together; two fiscal years' quarters.
    expect(spanOf('revenue quarterly FY2023')).toEqual({ kind: 'quarter', count: 4, years: { from: 2023, to: 2023 } });
    expect(spanOf("revenue quarterly FY'23")).toEqual({ kind: 'quarter', count: 4, years: { from: 2023, to: 2023 } });
    expect(spanOf('net income each quarter of fiscal 2023 and fiscal 2024')).toEqual({ kind: 'quarter', count: 8, years: { from: 2023, to: 2024 } });
    expect(spanOf('EPS by quarter FY2023 and FY2024')).toEqual({ kind: 'quarter', count: 8, years: { from: 2023, to: 2024 } });
    expect(spanOf('annual revenue 2021 to 2024')).toEqual({ kind: 'year', count: 12, years: { from: 2021, to: 2024 } });
    expect(spanOf('net income between FY2022 and FY2024')).toEqual({ kind: 'year', count: 12, years: { from: 2022, to: 2024 } });
    expect(spanOf('quarterly revenue 2023-2024')).toEqual({ kind: 'quarter', count: 12, years: { from: 2023, to: 2024 } });
    expect(spanOf('revenue since 2023')).toEqual({ kind: 'quarter', count: 12, years: { from: 2023 } });
    // (A trend asked is the change over the periods, said above the table.)
    expect(spanOf('net income trend')).toEqual({ kind: 'quarter', count: 8, latest: true, summaries: ['change'] });
    expect(spanOf('operating margin trend over 5 years')).toEqual({ kind: 'year', count: 5, latest: true, summaries: ['change'] });
    expect(spanOf('revenue history by year')).toEqual({ kind: 'year', count: 5, latest: true });
    expect(spanOf('revenue last two fiscal years combined')).toEqual({ kind: 'year', count: 2, latest: true, total: true });
    expect(spanOf('revenue FY2022 and FY2024 combined')).toEqual({ kind: 'year', count: 2, years: { from: 2022, to: 2024 }, only: [2022, 2024], total: true });
    expect(spanOf('revenue in total from 2022 to 2024')).toEqual({ kind: 'year', count: 12, years: { from: 2022, to: 2024 }, total: true });
    expect(spanOf('revenue FY2022 and FY2024')).toBeNull();
    expect(spanOf('the latest quarterly report')).toBeNull();
    // More quarters than a year's, from one to another: those quarters (a quarter index is fiscal year × 4 + quarter).
    expect(spanOf('revenue Q3 2022 through Q2 2024')).toEqual({ kind: 'quarter', count: 8, years: { from: 2022, to: 2024 }, quarters: { from: 2022 * 4 + 3, to: 2024 * 4 + 2 } });
    expect(spanOf('revenue Q1-Q3 2024')).toBeNull();
    expect(spanOf('revenue FY2022, FY2023 and FY2024')).toEqual({ kind: 'year', count: 3, years: { from: 2022, to: 2024 } });
    expect(spanOf('revenue Q3 FY24 vs Q3 FY23 vs Q3 FY22')).toEqual({ kind: 'quarter', count: 9, years: { from: 2022, to: 2024 }, quarters: { from: 2022 * 4 + 3, to: 2024 * 4 + 3 } });
    expect(spanOf('revenue FY2023 vs FY2024')).toBeNull();
    expect(spanOf('cash as of 2024-06-29 vs 2023-07-01 vs 2022-06-25')).toBeNull();
  });
});

describe('a quarter missing from the filings', () => {
  it('growth is computed against the fiscal period it names, never the neighbour in the list', async () => {
    const { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    const os = await import('node:os');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-sec-gap-'));
    cpSync(path.join(PACKAGE_ROOT, 'snapshots', 'sec'), dir, { recursive: true });
    // Microsoft's fiscal Q2 2024 (quarter ended 2023-12-31) disappears: every fact ending that day.
    const file = path.join(dir, 'api/xbrl/companyfacts/CIK0000789019.json');
    const facts = JSON.parse(readFileSync(file, 'utf8'));
    for (const taxonomy of Object.values(facts.facts) as any[])
      for (const concept of Object.values(taxonomy) as any[])
        for (const unit of Object.keys(concept.units)) concept.units[unit] = concept.units[unit].filter((f: any) => f.end !== '2023-12-31');
    writeFileSync(file, JSON.stringify(facts));
    const gap = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: dir } });
    try {
      const c = new OpenAI({ baseURL: gap.baseURL, apiKey: (await gap.account()).apiKey, maxRetries: 0 });
      const text = (await c.responses.create({ model: 'svc-financials-agent', input: 'Microsoft revenue for the last 8 quarters' })).output_text;
      const { header, body } = table(text);
      const labels = header.map((h) => h.replace(/ \[.*$/, ''));
      expect(labels).not.toContain('Q2 FY2024');
      expect(text).toContain('No figures for Q2 FY2024 in the filings available: that column is left out, and growth against it is not shown.');
      const row = (name: string) => body.find((r) => r[0] === name)!.slice(1);
      // Q3 FY2024 against Q2 FY2024, which is missing: no change shown (it was Q1's, as if the quarter before).
      expect(row('↳ quarter over quarter')[labels.indexOf('Q3 FY2024')]).toBe('—');
      // Q2 FY2025 against Q2 FY2024, missing too.
      expect(row('↳ year over year')[labels.indexOf('Q2 FY2025')]).toBe('—');
      // Q3 FY2025 against Q3 FY2024, both present: a real change.
      expect(row('↳ year over year')[labels.indexOf('Q3 FY2025')]).toMatch(/^[+−-]?\d+\.\d%$/);
      // Added up, the quarters around the missing one are not the total of those asked for.
      const summed = (await c.responses.create({ model: 'svc-financials-agent', input: 'sum of Microsoft revenue over fiscal Q1 2024 to Q4 2024 quarterly' })).output_text;
      expect(summed).toContain('Total: no total is given: Q2 FY2024 has no figures in the filings available.');
      expect(table(summed).body.find((r) => r[0]!.startsWith('**Revenue**'))!.at(-1)).toBe('—');
    } finally {
      await gap.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
