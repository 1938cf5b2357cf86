import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { DocumentService } from '../../../src/data/documents/service.js';
import { SecClient } from '../../../src/data/sec/client.js';
import { parseFiling } from '../../../src/data/sec/filing-html.js';
import { SecLibrary } from '../../../src/data/sec/library.js';
import { METRICS } from '../../../src/data/sec/metrics.js';
import { SnapshotSource } from '../../../src/data/source.js';
import { pdfPageTexts } from '../../helpers/pdf-text.js';
import { demoSecService } from './demo-talk.js';

const DEMO = path.join(PACKAGE_ROOT, 'snapshots', 'sec');
const manifest = JSON.parse(readFileSync(path.join(DEMO, 'manifest.json'), 'utf8')) as { demo: boolean; recordedAt: string; entries: Record<string, { file: string }> };

describe('the shipped demo snapshot (snapshots/sec)', () => {
  it('is marked as demo data, and every file is small', () => {
    expect(manifest.demo).toBe(true);
    for (const { file } of Object.values(manifest.entries)) expect(statSync(path.join(DEMO, file)).size, file).toBeLessThan(256 * 1024);
  });

  it('holds at least three companies, Apple and Microsoft among them, each with six quarters or more and a fiscal year, and paginated filings', async () => {
    const source = new SnapshotSource(DEMO, 'SEC EDGAR');
    const lib = new SecLibrary({ client: new SecClient({ api: source, www: source }), documents: new DocumentService({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'svc-demo-')), signingSecret: 's', linkTtlSeconds: 60, publicUrl: () => 'x' }), origin: { mode: 'snapshot', recordedAt: source.recordedAt, demo: true, documentTag: 'sdemo' }, wwwUrl: 'https://www.sec.gov' });
    const tickers = ['AAPL', 'MSFT', 'GOOGL'];
    const index = await lib.companyIndex();
    for (const ticker of tickers) {
      const { financials } = await lib.profile({ cik: index.byTicker(ticker)!.cik, ticker, name: ticker });
      expect(financials!.series('revenue', 'quarter').length, ticker).toBeGreaterThanOrEqual(6);
      expect(financials!.series('revenue', 'year').length, ticker).toBeGreaterThanOrEqual(1);
    }
    expect((await lib.profile({ cik: 789019, ticker: 'MSFT', name: 'x' })).financials!.calendar.isCalendarYear).toBe(false);
    const documents = Object.keys(manifest.entries).filter((k) => k.startsWith('/Archives/'));
    for (const cik of ['320193', '789019', '1652044']) {
      const own = documents.filter((k) => k.includes(`/data/${cik}/`));
      expect(own.length, cik).toBeGreaterThan(0);
      const parsed = parseFiling(readFileSync(path.join(DEMO, manifest.entries[own[0]!]!.file), 'utf8'));
      expect(parsed.pages.length).toBeGreaterThan(3);
      expect(parsed.facts.filter((f) => !f.hidden).length).toBeGreaterThan(20);
    }
  });

  it('has every figure it can give tagged in its filing, on a page of the PDF that shows it', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-demo-'));
    try {
      const source = new SnapshotSource(DEMO, 'SEC EDGAR');
      const documents = new DocumentService({ dataDir, signingSecret: 's', linkTtlSeconds: 60, publicUrl: () => 'http://x' });
      const lib = new SecLibrary({ client: new SecClient({ api: source, www: source }), documents, origin: { mode: 'snapshot', recordedAt: source.recordedAt, demo: true, documentTag: 'sdemo' }, wwwUrl: 'https://www.sec.gov' });
      const pdfTexts = new Map<string, string[]>();
      let checked = 0;
      for (const [cik, ticker] of [[320193, 'AAPL'], [789019, 'MSFT'], [1652044, 'GOOGL']] as const) {
        const { company, financials } = await lib.profile({ cik, ticker, name: ticker });
        for (const metric of METRICS) {
          for (const value of [...financials!.series(metric.id, 'quarter'), ...financials!.series(metric.id, 'year')]) {
            for (const term of value.terms) {
              const c = await lib.cite(company, term.fact);
              expect(c.location?.how, `${ticker} ${metric.id} ${term.fact.end} ${term.fact.accn}`).toBe('ixbrl');
              const id = c.key.split('#')[0]!;
              if (!pdfTexts.has(id)) pdfTexts.set(id, await pdfPageTexts(readFileSync(path.join(dataDir, 'documents', `${id}.pdf`))));
              expect(pdfTexts.get(id)![c.page! - 1], `${ticker} ${metric.id} ${term.fact.end}`).toContain(c.location!.printed);
              checked++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(400);
      expect(readdirSync(path.join(dataDir, 'documents')).filter((f) => f.endsWith('.pdf')).length).toBe(29);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('svc-sec-agent on the demo snapshot, offline', () => {
  const { chat } = demoSecService();

  const ask = (...turns: string[]) => askOf('svc-sec-agent', ...turns);
  const askOf = async (model: string, ...turns: string[]) => {
    const res = await chat({ model, messages: turns.map((content) => ({ role: 'user', content })) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    return { text: body.choices[0].message.content as string, citations: body.choices[0].citations as { name: string; url: string }[] };
  };

  /** A chat conversation with each answer kept in it, as a person's client sends it; returns the last answer. */
  const talkOf = async (model: string, ...turns: string[]) => {
    const messages: { role: string; content: string }[] = [];
    let text = '';
    for (const content of turns) {
      messages.push({ role: 'user', content });
      const res = await chat({ model, messages });
      text = ((await res.json()) as any).choices[0].message.content;
      messages.push({ role: 'assistant', content: text });
    }
    return text;
  };

  it('answers the follow-up conversation, citing pages of its PDFs, and says the data is a demo', async () => {
    const first = await ask("What was Apple's revenue in Q3 2024?");
    expect(first.text).toContain('$85,777 million');
    expect(first.text).toContain(`Data: demo snapshot recorded ${manifest.recordedAt.slice(0, 10)}; figures are illustrative.`);
    const pdf = await fetch(first.citations[0]!.url.split('#')[0]!);
    expect(pdf.status).toBe(200);
    expect((await pdfPageTexts(new Uint8Array(await pdf.arrayBuffer())))[2]).toContain('85,777');

    expect((await ask("What was Apple's revenue in Q3 2024?", 'and the quarter before?')).text).toContain('$90,753 million');
    // Key figures of the December quarter: the quarter's fiscal name said once, not once per figure.
    const december = (await ask('what did apple make in the december quarter?')).text;
    expect(december).toContain('| Apple Inc. (AAPL) | Revenue | fiscal Q1 2025 (quarter ended 2024-12-28) | $124,300 million [1]');
    expect(december.match(/the December quarter is the company's fiscal Q1 2025/g)).toHaveLength(1);
    const third = await ask("What was Apple's revenue in Q3 2024?", 'and the quarter before?', 'how about Microsoft?');
    expect(third.text).toContain('$62,020 million');
    expect(third.text).toContain('figures are illustrative');
  });

  it('a figure the snapshot did not record is said to be missing from the recording, not from what the company reports', async () => {
    const a = await ask('Alphabet inventory 2024');
    expect(a.text).toMatch(/^The XBRL financial data recorded for Alphabet Inc\. \(GOOGL\) in this snapshot has no inventory figure, so I cannot give it\. Figures I can give for Alphabet: revenue/);
    expect(a.text).not.toContain('does not report');
    // So it is of a table's rows.
    const table = (await askOf('svc-financials-agent', 'googl revenue, operating income and capex by year 2022-2024', 'add buybacks and dividends')).text;
    expect(table).toMatch(/The XBRL facts recorded for Alphabet Inc\. in this snapshot have no [a-z ]+ figures\./);
    expect(table).not.toContain('does not report');
  });

  it('a period the snapshot has no figure for is said to be missing from the data, never as a balance of nothing', async () => {
    const a = await ask('Microsoft cash Q2 2022');
    expect(a.text).toMatch(/^The XBRL financial data recorded for Microsoft Corp\. \(MSFT\) in this snapshot has no cash and cash equivalents for fiscal Q2 2022 \(quarter ended 2021-12-31\)\. Available for Microsoft: cash and cash equivalents for quarters from/);
    expect(a.text).not.toContain('reported no');
  });

  it('a change over several years is said before its table: first to last, compound rate a year, a yes or no against a threshold', async () => {
    const msft = await ask("What was the percentage change in Microsoft's revenue from FY2022 to FY2024?");
    expect(msft.text).toContain('**Revenue**, FY2022 to FY2024: $198,270 million → $245,122 million, **+$46,852 million (+23.6%)**.');
    expect(msft.text.indexOf('+23.6%')).toBeLessThan(msft.text.indexOf('| FY2022'));
    // Carried to the next figure asked for.
    expect((await ask("What was the percentage change in Microsoft's revenue from FY2022 to FY2024?", 'and net income?')).text).toContain('**Net income**, FY2022 to FY2024: $72,738 million → $88,136 million, **+$15,398 million (+21.2%)**.');
    // "Since 2022" with a change asked: by fiscal year, to the latest; the verdict against the percentage asked.
    const since = await ask("Has Alphabet's net income grown more than 50% since 2022?");
    expect(since.text).toContain('**Net income**, FY2022 to FY2024: $59,972 million → $100,118 million, **+$40,146 million (+66.9%)**: **yes**, more than 50%.');
    expect(since.text).not.toContain('Q1');
    expect((await ask('Did Apple revenue grow at least 5% from 2022 to 2024?')).text).toContain('**-$3,293 million (-0.8%)**: **no**, not at least 5%.');
    // "Over the past two years": from two years before the latest, so three years are shown.
    expect((await ask("How much has Alphabet's net income grown over the past two years?")).text).toContain('FY2022 to FY2024: $59,972 million → $100,118 million');
    const cagr = await ask('Apple revenue CAGR 2022 to 2024');
    expect(cagr.text).toContain('**-$3,293 million (-0.8%)**, **-0.4% a year** compounded over 2 years.');
    expect(cagr.text).not.toContain('figure called');
    // A margin asked for: its change in points too.
    expect((await ask("How did Apple's gross margin change from 2022 to 2024?")).text).toContain(
      '**Gross margin**, FY2022 to FY2024: 43.3% → 46.2%, **+2.9 percentage points** (gross profit $170,782 million → $180,683 million, +$9,901 million (+5.8%)).',
    );
  });

  it('a question about a direction is answered first: yes or no, the change asked for, a false premise corrected; a margin leads with the percentage', async () => {
    expect((await ask("Did Apple's net income grow in fiscal 2024?")).text).toMatch(/^\*\*No\*\*: Apple's net income fell, -\$3,259 million \(-3\.4%\), year over year \(fiscal year 2024\)\.\n\n\*\*Apple Inc\. \(AAPL\)\*\*: net income/);
    expect((await ask("How much did Apple's revenue decline in fiscal 2024?")).text).toMatch(/^It did not decline: Apple's revenue rose, \+\$7,750 million \(\+2\.0%\), year over year \(fiscal year 2024\)\./);
    // A balance's change "over the last year" is from a year before the latest balance, not at the last fiscal year-end.
    expect((await ask('Microsoft long-term debt change over the last year')).text).toMatch(/^Microsoft's long-term debt fell, -\$2,536 million \(-5\.9%\), year over year \(fiscal Q3 2025\)\./);
    expect((await ask("Is Alphabet's cash higher than a year ago?")).text).toMatch(/^\*\*No\*\*: Alphabet's cash and cash equivalents fell, -\$582 million \(-2\.4%\)/);
    // Of a margin, the margin's move in points, not its numerator's.
    expect((await ask("Did Apple's gross margin improve in fiscal 2024?")).text).toMatch(/^\*\*Yes\*\*: Apple's gross margin rose, \+2\.1 percentage points, year over year \(fiscal year 2024\)\./);
    // "that" is the figure just given, as a share of its revenue.
    expect((await ask('apple net income q2 2025', 'microsoft?', 'what % of revenue is that?')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: net margin for fiscal Q2 2025 \(quarter ended 2024-12-31\) was \*\*34\.6%\*\*/);
    // "Is that more than Microsoft?" puts Microsoft beside the figure just given, and answers it.
    const more = (await askOf('svc-agent', 'how much debt does Apple have?', 'is that more than microsoft?')).text;
    expect(more).toContain("| Apple Inc. (AAPL) | Long-term debt | fiscal Q2 2025 (quarter ended 2025-03-29) | $78,566 million [1] |");
    expect(more).toContain("- **Yes**: Apple's long-term debt, $78,566 million [1], was $38,414 million (95.7%) more than Microsoft's, $40,152 million [2].");
    expect((await askOf('svc-agent', 'Microsoft revenue Q2 FY2025', 'what % of that was net income?')).text).toMatch(/net margin for fiscal Q2 2025 \(quarter ended 2024-12-31\) was \*\*34\.6%\*\*/);
    expect((await ask("What was Apple's gross margin in fiscal 2024?")).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: gross margin for fiscal year 2024 \(year ended 2024-09-28\) was \*\*46\.2%\*\*: gross profit of \$180,683 million \[1\] over revenue of \$391,035 million \[1\]\./);
  });

  it('an average of periods: each period in the table and their mean above it, asked at once or as a follow-up', async () => {
    const apple = await ask("Apple's average revenue per quarter in fiscal 2024");
    expect(apple.text).toContain('**Revenue**, average per quarter over the 4 shown: **$97,759 million**.');
    expect(apple.text).not.toContain('**$391,035 million**');
    expect((await ask('mean quarterly EPS for Microsoft in FY2024')).text).toContain('**Diluted EPS**, average per quarter over the 4 shown: **$2.95 per share**.');
    expect((await ask('average quarterly net income for Microsoft over the last four quarters')).text).toContain('**Net income**, average per quarter over the 4 shown: **$24,159 million**.');
    const followUp = await ask('Apple revenue for the last 4 quarters', "what's the average?");
    expect(followUp.text).toContain('**Revenue**, average per quarter over the 4 shown: **$100,092 million**.');
    expect(followUp.text).not.toContain('company called');
    expect((await ask('Apple net income q2 2025', "what's the average?")).text).toMatch(/^There is no table of periods here to average/);
    // The router sends the follow-up to the tables it came from.
    expect((await askOf('svc-agent', 'Apple revenue for the last 4 quarters', "what's the average?")).text).toContain('average per quarter over the 4 shown: **$100,092 million**');
    // A question about the table's growth keeps the table, and so does the follow-up after it; no word of it is a company.
    const growing = await askOf('svc-agent', 'Apple revenue for the last 4 quarters', 'how fast is it growing?', "what's the average?");
    expect(growing.text).toContain('average per quarter over the 4 shown: **$100,092 million**');
    expect(growing.text).not.toContain('company called');
  });

  it("of a table's periods: the average growth, the growth rate, the best and worst periods, each said above the table", async () => {
    const table = 'Microsoft revenue and net income for the last 8 quarters';
    const averaged = (await askOf('svc-agent', table, 'average growth?')).text;
    // The mean of the year-over-year rates in the table, not the mean of the figures.
    expect(averaged).toContain('**Revenue**, average year-over-year growth over the 8 quarters shown: **+14.1%** (from +8.3% to +17.6%).');
    expect(averaged).toContain('**Net income**, average year-over-year growth over the 8 quarters shown: **+18.5%** (from +9.7% to +33.2%).');
    expect(averaged).not.toContain('average per quarter');
    // "Over the last 4", the unit unsaid: the table's latest four; "avg yoy rev growth" is the average growth.
    const lastFour = (await askOf('svc-agent', table, 'whats the avg yoy rev growth over the last 4')).text;
    expect(lastFour).toContain('**Revenue**, average year-over-year growth over the 4 quarters shown: **+14.2%** (from +12.3% to +16.0%).');
    expect(lastFour).toContain('| | Q4 FY2024 [1][2] | Q1 FY2025 [3] | Q2 FY2025 [4] | Q3 FY2025 [5] |');
    // Without "what's the" too.
    expect((await askOf('svc-agent', table, 'avg yoy rev growth over the last 4')).text).toContain('**Revenue**, average year-over-year growth over the 4 quarters shown: **+14.2%**');
    // "Each quarter" after the last 4 quarters: those four, not the default eight.
    const margins = (await askOf('svc-agent', 'alphabet last 4 quarters rev + NI', 'net margin each quarter?')).text;
    expect(margins).toContain('| | Q1 2024 [1] | Q2 2024 [2] | Q3 2024 [3] | Q4 2024 [4][3] |');
    expect(margins).toContain('| ↳ net margin (% of revenue) | 29.4% | 27.9% | 29.8% | 27.5% |');
    // Between the latest quarters, growth is the latest quarter's and the last four quarters' over the four before.
    const rate = (await askOf('svc-agent', table, "what's the growth rate?")).text;
    expect(rate).toContain('**Revenue**, Q3 FY2025, the latest, **+13.3%** year over year; the four quarters to Q3 FY2025 together $270,010 million, **+14.1%** over the four before.');
    expect(65585 + 69632 + 70066 + 64727).toBe(270010);
    const best = (await askOf('svc-agent', table, 'best quarter?')).text;
    expect(best).toContain('**Revenue**, highest in **Q3 FY2025** ($70,066 million), lowest in **Q4 FY2023** ($56,189 million), of the 8 shown.');
    expect(best.indexOf('highest in')).toBeLessThan(best.indexOf('| |'));
    // How far apart, when asked.
    expect((await askOf('svc-agent', table, 'best quarter and by how much vs the worst?')).text).toContain('**Revenue**, highest in **Q3 FY2025** ($70,066 million), lowest in **Q4 FY2023** ($56,189 million), of the 8 shown, $13,877 million apart (the highest 24.7% above the lowest).');
    expect((await askOf('svc-agent', 'alphabet 2024 operating margin by quarter', 'which quarter was best and by how much vs the worst')).text).toContain('of the 4 shown, 0.7 percentage points apart.');
    // The figure named is the one ranked; "peak" is no company; "and the weakest?" after it is the same question.
    const peak = (await askOf('svc-agent', table, 'when did net income peak?')).text;
    expect(peak).toContain('**Net income**, highest in **Q3 FY2025** ($25,824 million), lowest in **Q4 FY2023** ($20,081 million), of the 8 shown.');
    expect(peak).not.toContain('**Revenue**, highest');
    expect((await askOf('svc-agent', table, 'which was the strongest quarter?', 'and the weakest?')).text).toContain('lowest in **Q4 FY2023** ($56,189 million)');
    expect((await askOf('svc-agent', table, 'which quarter was the weakest and why')).text).toContain('lowest in **Q4 FY2023** ($56,189 million)');
    expect((await askOf('svc-agent', table, 'which quarter grew fastest?')).text).toContain('**Net income**, fastest year-over-year growth in **Q2 FY2024** (+33.2%), slowest in **Q4 FY2024** (+9.7%), of the 8 shown.');
    // A turn that changed the table ("add … to that table") keeps its periods for the next: the margin of those four quarters is ranked, not the latest quarter's given.
    expect((await askOf('svc-agent', 'microsoft net income last 4 quarters', 'add revenue and net margin to that table', 'which quarter had the best net margin')).text).toContain(
      '**Net margin**, highest in **Q1 FY2025** (37.6%), lowest in **Q4 FY2024** (34.0%), of the 4 shown.',
    );
    // Of a margin, the margin is ranked.
    expect((await askOf('svc-agent', 'Apple gross margin for the last 8 quarters', 'best quarter?')).text).toContain('**Gross margin**, highest in **Q2 FY2025** (47.1%), lowest in **Q3 FY2023** (44.5%), of the 8 shown.');
    // Of years, the average growth is also compounded, and "growth rate?" is the compound rate.
    const years = 'Apple revenue for the last 5 years';
    expect((await askOf('svc-agent', years, 'average growth?')).text).toContain(
      '**Revenue**, average year-over-year growth over the 2 of the 3 fiscal years shown with a figure a year earlier: **−0.4%** (from −2.8% to +2.0%); compounded from FY2022 to FY2024, **−0.4% a year**.',
    );
    expect((await askOf('svc-agent', years, 'growth rate?')).text).toContain('**-0.4% a year** compounded over 2 years');
  });

  it('short follow-ups keep the conversation: "how did each change?", "what was Q4 alone?", "the most levered of the three?", "capex intensity"', async () => {
    const margins = 'Compare Apple, Microsoft and Alphabet operating margin for their latest fiscal years';
    // "Their latest fiscal years" are years, not the latest quarters.
    expect((await askOf('svc-agent', margins)).text).toContain('| Apple Inc. (AAPL) | Operating income | fiscal year 2024 (year ended 2024-09-28) |');
    const each = (await askOf('svc-agent', margins, 'how did each change from the prior year')).text;
    expect(each).toContain('- Apple Inc. (AAPL) operating margin: **31.5%** of revenue (fiscal year 2024 revenue $391,035 million');
    expect(each).toContain('fiscal year 2023: 29.8%');
    expect(each).not.toMatch(/^I answer financial research questions/);
    const q4 = (await askOf('svc-agent', 'alphabet revenue growth 2024 vs 2023', 'and net income? margin?', 'what was Q4 alone?')).text;
    expect(q4).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: net margin for Q4 2024 \(quarter ended 2024-12-31\) was \*\*27\.5%\*\*/);
    // Two companies last named, "of the three": all three; "levered" is the debt-to-equity ratio, no company.
    const levered = (await askOf('svc-agent', 'Apple current ratio and debt to equity, latest quarter', 'same for msft and googl', 'which is the most levered of the three?')).text;
    expect(levered).toContain('- Highest debt-to-equity ratio first: Apple 1.18x, Microsoft 0.12x, Alphabet 0.03x.');
    expect(levered).not.toContain('company called');
    expect((await askOf('svc-agent', 'Apple capex fiscal 2024', 'capex intensity %?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: capital expenditure as a share of revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*2\.4%\*\*/);
    // The change between the two periods just discussed, in basis points when asked so (from the unrounded margins).
    expect((await askOf('svc-agent', 'Alphabet gross margin 2024', 'and the year before', 'so how many bps did it expand?')).text).toMatch(/^Alphabet's gross margin rose, \+1\.6 percentage points \(\+158 bps\), year over year \(fiscal year 2024\)\./);
    // Either way asked: the way it went, no yes or no.
    expect((await askOf('svc-agent', 'apple gross margin fy2024', 'did it expand or contract?')).text).toMatch(/^Apple's gross margin rose, \+2\.1 percentage points, year over year \(fiscal year 2024\)\./);
    // Trailing twelve months naming no period are the latest, not those to the quarter discussed before.
    expect((await askOf('svc-agent', 'Microsoft revenue and net income for the last 8 quarters', 'what was net income in Q4 FY2024?', 'whats the trailing twelve month revenue?')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue, trailing twelve months \(fiscal Q4 2024 to fiscal Q3 2025, ended 2025-03-31\): \*\*\$270,010 million\*\*/);
    for (const q of ['which one is more profitable overall? one sentence', 'so how many bps did it expand?']) {
      expect((await askOf('svc-agent', 'Apple gross margin fiscal 2024', 'and microsoft?', q)).text, q).not.toContain('company called');
    }
  });

  it('values a company at a share price the asker gives: P/E on twelve months of diluted EPS, earnings yield, market capitalisation, each cited', async () => {
    const pe = await askOf('svc-agent', 'Apple P/E at $200');
    const m = /^\*\*Apple Inc\. \(AAPL\)\*\* at \$200\.00 a share: P\/E \*\*([\d.]+)x\*\* on diluted EPS of \$([\d.]+) over the four quarters to fiscal Q2 2025 ((?:\[\d\])+) \(earnings yield ([\d.]+)%\); market capitalisation about \*\*\$([\d,]+) billion\*\* on ([\d,]+) million shares outstanding at \d{4}-\d\d-\d\d \[\d\]\./.exec(pe.text)!;
    expect(m, pe.text).not.toBeNull();
    const eps = Number(m[2]);
    expect(Number(m[1])).toBeCloseTo(200 / eps, 1);
    expect(Number(m[4])).toBeCloseTo((100 * eps) / 200, 1);
    // The four quarters each cited, none twice.
    expect(new Set(m[3]!.match(/\[\d\]/g)).size).toBe(m[3]!.match(/\[\d\]/g)!.length);
    expect(Number(m[5]!.replace(/,/g, ''))).toBeCloseTo((200 * Number(m[6]!.replace(/,/g, ''))) / 1000, -1);
    expect(pe.text).toContain('The share price, $200.00, is the one asked about, not a quote.');
    // The same EPS as the quarters' figures asked for: the four latest quarters' diluted EPS added up.
    const quarters = (await askOf('svc-financials-agent', 'Apple diluted EPS for the last 4 quarters')).text;
    const row = quarters.split('\n').find((l) => l.startsWith('| **Diluted EPS**'))!;
    const sum = row.split('|').slice(2, 6).map((c) => parseFloat(c.replace(/[^\d.]/g, ''))).reduce((a, b) => a + b, 0);
    expect(eps).toBeCloseTo(sum, 2);
    // Asked as a follow-up, and without a price: what the filings give, and how to ask.
    expect((await askOf('svc-agent', 'trailing twelve month diluted EPS for apple', 'and what P/E would be at a $200 share price')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\* at \$200\.00 a share: P\/E \*\*/);
    expect((await askOf('svc-agent', 'apple p/e ratio')).text).toMatch(/^A P\/E or a market capitalisation needs a share price, which SEC filings do not hold[^\n]*\n\n- \*\*Apple Inc\. \(AAPL\)\*\*: diluted EPS of \$[\d.]+ over the four quarters to fiscal Q2 2025/);
    // Continued: another company at a price of its own; "that price" is the one said before; a figure asked next is no valuation.
    expect((await askOf('svc-agent', 'apple p/e at $210?', 'what about msft at 390')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\* at \$390\.00 a share: P\/E \*\*[\d.]+x\*\*/);
    expect((await askOf('svc-agent', 'apple p/e at $210?', 'what about msft at 390', "whats apple's market cap at that 210 price")).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\* at \$210\.00 a share: P\/E \*\*[\d.]+x\*\*[^\n]*market capitalisation about \*\*\$3,137 billion\*\*/);
    expect((await askOf('svc-agent', 'apple p/e at $210?', 'and apple market cap at that price?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\* at \$210\.00 a share/);
    expect((await askOf('svc-agent', 'apple p/e at $210?', 'and revenue?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for/);
    expect((await askOf('svc-agent', "what's microsoft's market cap at 400 dollars a share?")).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\* at \$400\.00 a share: P\/E \*\*[\d.]+x\*\*[^\n]*market capitalisation about \*\*\$[\d,]+ billion\*\*/);
  });

  it('"compare to the other two" adds the companies not yet named; "tl;dr" of a table is its change and its highest and lowest periods', async () => {
    // "All three" to the financials agent too: each company of the snapshot, as a table or side by side.
    const tables = (await askOf('svc-financials-agent', 'revenue for all three companies, last 4 quarters')).text;
    for (const c of ['Apple Inc. (AAPL)', 'Alphabet Inc. (GOOGL)', 'Microsoft Corp. (MSFT)']) expect(tables).toContain(`### ${c}, by fiscal quarter`);
    const rd = (await askOf('svc-financials-agent', 'R&D as a percent of revenue for all three, last fiscal year')).text;
    for (const c of ['Apple Inc. (AAPL)', 'Alphabet Inc. (GOOGL)', 'Microsoft Corp. (MSFT)']) expect(rd).toContain(`| ${c} | R&D expense | fiscal year 2024`);
    const others = (await askOf('svc-agent', 'apple diluted eps fiscal 2024', 'compare to the other two')).text;
    expect(others).toMatch(/^Diluted EPS, side by side/);
    for (const c of ['Apple Inc. (AAPL)', 'Alphabet Inc. (GOOGL)', 'Microsoft Corp. (MSFT)']) expect(others).toContain(`| ${c} | Diluted EPS | fiscal year 2024`);
    // Asked at length, too, and "the latest one" after a period with no figures is the latest period.
    expect((await askOf('svc-agent', 'Apple revenue and net income for the last 8 quarters', 'summarize in one sentence')).text).toContain('**Revenue**, Q2 FY2025, the latest, **+5.1%** year over year;');
    expect((await askOf('svc-agent', 'Alphabet revenue Q1 2025', 'ok the latest one then')).text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: revenue for Q4 2024 \(quarter ended 2024-12-31\) was \*\*\$96,469 million\*\*/);
    const brief = (await askOf('svc-agent', 'alphabet operating income by quarter 2024', 'tl;dr')).text;
    expect(brief).toContain('**Operating income**, Q4 2024, the latest, **+30.7%** year over year; the four quarters to Q4 2024 together $112,390 million, **+33.3%** over the four before; highest in **Q4 2024** ($30,972 million), lowest in **Q1 2024** ($25,472 million), of the 4 shown.');
    expect(brief).not.toContain('company called');
  });

  it('another currency asked for is said not to be converted; money spent on dividends is dividends paid, not per share', async () => {
    const euros = (await askOf('svc-agent', 'apple revenue fiscal 2024 in euros')).text;
    expect(euros).toMatch(/^Figures are given in the currency each company files in, as shown, not converted to euros: no exchange rate is read here\.\n\n\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
    expect((await askOf('svc-financials-agent', 'Apple revenue for the last 4 quarters in yen')).text).toMatch(/^Figures are given in the currency each company files in, as shown, not converted to yen/);
    expect((await askOf('svc-agent', 'apple revenue fiscal 2024')).text).not.toContain('not converted');
    // The demo's Apple files no dividends paid: the figure named is the one said missing.
    expect((await askOf('svc-agent', 'how much did apple spend on dividends in fiscal 2024?')).text).toContain('has no dividends paid figure');
  });

  it('"why is it lower?" of a figure made of others shows its parts beside it, of the companies and period discussed', async () => {
    const why = (await askOf('svc-agent', 'microsoft free cash flow fy2024', 'vs apple?', "why is microsoft's lower when its operating cash flow is about the same?")).text;
    expect(why).toMatch(/^The figures show what changed, not why: [^\n]*The figures, with what the figure asked about is made of:/);
    for (const row of [
      '| Microsoft Corp. (MSFT) | Free cash flow | fiscal year 2024 (year ended 2024-06-30) | $74,071 million',
      '| Microsoft Corp. (MSFT) | Capital expenditure | fiscal year 2024 (year ended 2024-06-30) | $44,477 million',
      '| Apple Inc. (AAPL) | Operating cash flow | fiscal year 2024 (year ended 2024-09-28) | $118,254 million',
      '| Apple Inc. (AAPL) | Capital expenditure | fiscal year 2024 (year ended 2024-09-28) | $9,447 million',
    ]) expect(why).toContain(row);
    // Without "why", a figure asked is that figure alone.
    expect((await askOf('svc-agent', 'microsoft free cash flow fy2024', 'vs apple?', 'and operating cash flow?')).text).not.toContain('| Free cash flow |');
  });

  it('says which companies it covers: those the snapshot recorded, through the router too', async () => {
    for (const q of ['what companies do you cover', 'Which companies are in your data?']) {
      expect((await ask(q)).text, q).toMatch(/^This snapshot of SEC data has figures for 3 companies: Apple Inc\. \(AAPL\), Alphabet Inc\. \(GOOGL\) and Microsoft Corp\. \(MSFT\)\./);
    }
    expect((await askOf('svc-agent', 'What companies do you cover?')).text).toMatch(/^This snapshot of SEC data has figures for 3 companies/);
    // The financials agent too, and other ways of asking.
    for (const q of ['which companies do you cover?', 'list the companies you have', 'Do you cover Tesla?', 'What companies do you have data for?']) {
      expect((await askOf('svc-financials-agent', q)).text, q).toMatch(/^This snapshot of SEC data has figures for 3 companies/);
    }
    // Asked across the companies covered: all of them, over their latest fiscal years.
    const highest = (await ask('Which company has the highest net margin?')).text;
    expect(highest).toContain(
      '- Net margin, highest to lowest: Microsoft 36.0% for fiscal year 2024 (year ended 2024-06-30), Alphabet 28.6% for fiscal year 2024 (year ended 2024-12-31), Apple 24.0% for fiscal year 2024 (year ended 2024-09-28)',
    );
    // The ranking is the answer: it comes before the table of figures.
    expect(highest.indexOf('- Net margin, highest to lowest')).toBeLessThan(highest.indexOf('| Company |'));
    // "Which one expanded more?" after the latest quarters and a year earlier: the margins' moves, ranked, first.
    expect((await ask("What was Microsoft's operating margin in their most recent quarter, and how does it compare to Apple's most recent quarter?", 'and a year earlier for both?', 'which one expanded more?')).text).toMatch(
      /^\*\*Microsoft's operating margin expanded more\*\*: Microsoft's 44\.6% to 45\.7% \(\+1\.1 percentage points\), against Apple's 30\.7% to 31\.0% \(\+0\.3 percentage points\)\./,
    );
    // "And by net margin?" after a ranking is ranked too, before the table.
    const byMargin = (await ask('rank apple, microsoft and alphabet by fy2024 revenue growth', 'and by net margin?')).text;
    expect(byMargin.indexOf('- Net margin, highest to lowest: Microsoft 36.0%')).toBeGreaterThan(-1);
    expect(byMargin.indexOf('- Net margin, highest to lowest')).toBeLessThan(byMargin.indexOf('| Company |'));
    expect((await ask('Which company has the most debt?')).text).toContain('- Long-term debt, largest to smallest: Apple $78,566 million for fiscal Q2 2025');
    // "the three" after a table of them is no company's name.
    expect((await ask('Compare Apple, Microsoft and Alphabet revenue FY2024', 'Which of the three has the highest net margin?')).text).toContain('- Net margin, highest to lowest: Microsoft 36.0%');
    // Words of the question are no company names.
    for (const q of ['help', 'how much money did microsft make last year']) expect((await ask(q)).text, q).not.toContain('company called');
  });

  it('a question in another language is told to ask in English; one asking what to buy gets the key figures, not advice', async () => {
    const spanish = await ask('¿Cuáles fueron los ingresos de Apple en el año fiscal 2024?');
    expect(spanish.text).toMatch(/^I read questions in English only/);
    expect(spanish.text).not.toContain('figure called');
    expect((await askOf('svc-agent', 'Wie hoch war der Umsatz von Apple im Geschäftsjahr 2024?')).text).toMatch(/^I read questions in English only[^\n]*\n\nI answer financial research questions/);
    const advice = await ask('Should I buy Microsoft stock?');
    expect(advice.text).toMatch(/^I do not give investment advice, such as whether to buy or sell a stock\. The key figures/);
    expect(advice.text).toContain('| Microsoft Corp. (MSFT) | Revenue |');
    expect(advice.text).not.toContain('figure called');
    // Shares held are not the figure of shares outstanding; a valuation asked is advice too.
    for (const q of ['should i sell my msft shares', 'Is Microsoft overvalued?']) {
      const text = (await ask(q)).text;
      expect(text, q).toMatch(/^I do not give investment advice, such as whether to buy or sell a stock\. The key figures/);
      expect(text, q).toContain('| Microsoft Corp. (MSFT) | Revenue |');
    }
    // Asked which stock to buy, no company named: no advice, and what can be asked instead; no word read as a company.
    const best = (await askOf('svc-agent', 'what is the best stock to buy now')).text;
    expect(best).toMatch(/^I do not give investment advice, such as which stock to buy or sell\./);
    expect(best).not.toContain('company called');
    // What a ratio is, of no company: how it is computed here, not "which company?".
    for (const [q, label] of [['what is a quick ratio?', 'Quick ratio'], ['explain debt to equity', 'Debt-to-equity ratio']]) {
      const text = (await askOf('svc-agent', q!)).text;
      expect(text, q).toMatch(new RegExp(`^- \\*\\*${label}\\*\\*: `));
      expect(text, q).not.toContain('company called');
    }
    // "Which is riskier?": no verdict, the leverage and liquidity ratios side by side.
    const risk = (await askOf('svc-agent', 'which is riskier, apple or microsoft')).text;
    // (Where each ratio puts them first, as facts: the most debt, the least liquidity.)
    expect(risk).toMatch(/^I do not give investment advice, such as which stock is the riskier buy\.[^\n]*\n\n\*\*Apple\*\* has the higher debt-to-equity ratio, 1\.18x, against Microsoft 0\.12x\.\n\*\*Apple\*\* has the lower current ratio, 0\.84x, against Microsoft 1\.42x\.\n\n- \*\*Apple's debt-to-equity ratio\*\* at the end of fiscal Q2 2025 \(2025-03-29\): \*\*1\.18x\*\*/);
    expect(risk).toContain("- **Microsoft's current ratio** at the end of fiscal Q3 2025 (2025-03-31): **1.42x**");
    // "All three companies": every company of the snapshot.
    const all = (await askOf('svc-agent', 'compare all three companies revenue')).text;
    for (const name of ['Apple Inc. (AAPL)', 'Alphabet Inc. (GOOGL)', 'Microsoft Corp. (MSFT)']) expect(all).toContain(`| ${name} | Revenue |`);
    // The general agent sends advice on a company to the filings agent, not to its help.
    for (const q of ['should I buy more Apple stock?', 'is AAPL a buy?']) expect((await askOf('svc-agent', q)).text, q).toMatch(/^I do not give investment advice[^\n]*\n\nKey figures from the latest filings:\n\n\| Company \|[^\n]*\n[^\n]*\n\| Apple Inc\. \(AAPL\) \| Revenue \|/);
  });

  it('"same for 2023" after a quarter is that quarter of 2023; a product named alone is a part of its company\'s total', async () => {
    expect((await ask('Alphabet operating income Q3 2024', 'what about Q2?', 'same for 2023')).text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: operating income for Q2 2023 \(quarter ended 2023-06-30\)/);
    expect((await ask('Alphabet operating income Q3 2024', 'same for FY2023')).text).toMatch(/operating income for fiscal year 2023/);
    // Another company with another fiscal year: its quarter nearest in time gets the margin asked for too.
    expect((await ask('Alphabet operating margin Q3 2024', 'and Microsoft?')).text).toContain(
      "Microsoft's quarter closest in time is fiscal Q1 2025 (quarter ended 2024-09-30): operating margin **46.6%**, operating income $30,552 million [2] over revenue of $65,585 million [2].",
    );
    const cloud = await ask('What was Google Cloud revenue in 2024?');
    expect(cloud.text).toMatch(/^I do not have a figure called "Google Cloud revenue": it is one part of the company's total/);
    expect(cloud.text).toContain('Figures I can give for Alphabet:');
    expect(cloud.text).not.toContain('could not tell which company');
    expect((await ask("Microsoft's Azure growth rate")).text).toMatch(/^I do not have a figure called "Azure growth rate": it is one part of the company's total/);
  });

  it('asked for the source of the answer before, lists its filing pages as links; a margin of several companies is a column of their table', async () => {
    const sources = await askOf('svc-agent', 'apple gross margin last 4 quarters as a table', 'whats the source? link me the 10-K page');
    expect(sources.text).toMatch(/^The figures of that answer come from these filing pages/);
    expect(sources.text).not.toContain('| ');
    const links = [...sources.text.matchAll(/^- \[(.+)\]\((.+)\) \[(\d+)\]$/gm)];
    expect(links.map((l) => Number(l[3]))).toEqual([1, 2, 3, 4]);
    links.forEach((l, i) => expect([l[1], l[2]]).toEqual([sources.citations[i]!.name, sources.citations[i]!.url]));
    // What executives said is not what is filed: said so, with no company read from the names.
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const spoken = (await askOf(model, 'what did tim cook say on the earnings call?')).text;
      expect(spoken, model).toMatch(/^I read the figures companies file with the SEC[^\n]*not earnings calls, transcripts or what executives say/);
      expect(spoken, model).not.toContain('could not find a company');
    }
    expect((await askOf('svc-agent', 'apple gross margin last 4 quarters as a table', 'where did you get that?')).text).toMatch(/^The figures of that answer come from these filing pages/);
    const one = await askOf('svc-sec-agent', "What was Apple's revenue in Q3 2024?", 'where does that number come from?');
    expect(one.text).toContain('- [Apple Inc. Form 10-Q, quarter ended 2024-06-29, page 3](');
    expect(one.citations).toHaveLength(1);
    // Nothing asked before: no sources to list, and no company called "source".
    expect((await askOf('svc-sec-agent', 'whats the source?')).text).not.toContain('could not find a company');

    const margins = (await askOf('svc-sec-agent', 'compare operating margin apple vs msft vs googl fy2024')).text;
    expect(margins).toContain('Operating margin (operating income over revenue), side by side');
    expect(margins).toContain('| Company | Figure | Period | Value | Operating margin | Filed in |');
    expect(margins).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Operating income \| fiscal year 2024 \(year ended 2024-06-30\) \| \$109,433 million \[2\] \| 44\.6% \|/);
    expect(margins).not.toContain('could not find');
  });

  it('"can you chart it" after a table draws its figures as bars above it', async () => {
    const text = (await askOf('svc-agent', 'microsoft net income last 4 quarters', 'add revenue and net margin to that table', 'can you chart it')).text;
    expect(text).toMatch(/^```\nNet income \(\$ million\)\nQ4 FY2024  █+ +22,036†\nQ1 FY2025  █+ +24,667\n/);
    expect(text).toContain('\nRevenue ($ million)\nQ4 FY2024  ');
    expect(text).toContain('| **Net income** ($ million) | 22,036† | 24,667 | 24,108 | 25,824 |');
  });

  it('says what a figure means when asked: alone, or before the figures of the company discussed (not an average)', async () => {
    const alone = (await askOf('svc-agent', 'what does free cash flow mean')).text;
    expect(alone).toMatch(/^- \*\*Free cash flow\*\* is operating cash flow minus capital expenditure/);
    expect(alone).toContain('Ask it of a company');
    const after = (await askOf('svc-agent', 'apple free cash flow last 4 quarters', 'whats free cash flow mean, im new to this 🙏')).text;
    expect(after).toMatch(/^- \*\*Free cash flow\*\* is operating cash flow minus capital expenditure[^\n]*\n\n### Apple Inc\. \(AAPL\), by fiscal quarter/);
    expect(after).not.toContain('average per quarter');
    // "What is Apple's free cash flow?" asks for the figure, not a definition.
    expect((await askOf('svc-agent', "what is apple's free cash flow in fy2024")).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: free cash flow for fiscal year 2024/);
  });

  it('a word of the answers asked about is defined, never read as a company or a figure, then given for the company discussed', async () => {
    const eps = (await ask('what does EPS stand for')).text;
    expect(eps).toMatch(/^- \*\*EPS\*\* \(earnings per share\) is net income divided by the weighted-average shares outstanding/);
    expect(eps).not.toContain('company called');
    const kinds = (await ask('msft eps 2024', 'whats the diference between diluted and basic')).text;
    expect(kinds).toMatch(/^- \*\*Basic EPS\*\* divides net income by the weighted-average shares outstanding; \*\*diluted EPS\*\* also counts/);
    expect(kinds).toContain('| Microsoft Corp. (MSFT) | Diluted EPS | fiscal year 2024 (year ended 2024-06-30) | $11.80 per diluted share [1] |');
    expect(kinds).not.toContain('figure called');
    expect((await ask('msft eps 2024', 'ok thx. whats a 10-Q')).text).toMatch(/^- \*\*Form 10-Q\*\* is the quarterly report a US-listed company files with the SEC/);
    expect((await askOf('svc-agent', 'wat is a balance sheet')).text).toMatch(/^- A \*\*balance sheet\*\* shows, at one date/);
    // The meaning, then the figure of the company discussed, in the period discussed.
    expect((await askOf('svc-agent', 'how much did google make in free cash flow last yr', 'whats capex')).text).toMatch(
      /^- \*\*Capital expenditure\*\* is cash spent on property and equipment[^\n]*\n\n\*\*Alphabet Inc\. \(GOOGL\)\*\*: capital expenditure for fiscal year 2024 \(year ended 2024-12-31\) was \*\*\$52,535 million\*\*/,
    );
    const yoy = (await ask('apple revenue last year', 'what does yoy mean')).text;
    expect(yoy).toMatch(/^- \*\*YoY\*\* \(year over year\): a figure compared with the same period a year earlier/);
    expect(yoy).toContain('- Year over year: fiscal year 2023 (year ended 2023-09-30) was $383,285 million (Form 10-K filed 2023-11-03) [2]; change +$7,750 million (+2.0%).');
    // Another term alone after a meaning asks its meaning too; a fiscal year has no quarter before it, so the latest quarter's.
    const qoq = (await ask('apple revenue last year', 'what does yoy mean', 'and qoq?')).text;
    expect(qoq).toMatch(/^- \*\*QoQ\*\* \(quarter over quarter/);
    expect(qoq).toContain('- Quarter over quarter: fiscal Q1 2025 (quarter ended 2024-12-28) was $124,300 million (Form 10-Q filed 2025-01-31) [2]; change -$28,941 million (-23.3%).');
    expect((await askOf('svc-agent', 'what does yoy mean')).text).toMatch(/^- \*\*YoY\*\*/);
    // "What is apple's eps?" asks for the figure.
    expect((await ask("what is apple's eps in fy2024")).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: diluted EPS for fiscal year 2024/);
  });

  it('"is msft cheap?" reads no company "msft cheap": what the filings give toward a valuation, and that the price is missing; the company carried after it', async () => {
    const cheap = (await ask('is msft cheap?')).text;
    expect(cheap).toMatch(/^Whether a stock is cheap or dear is a judgement of its price against what the company earns, and I give no investment advice\. A P\/E or a market capitalisation needs a share price/);
    expect(cheap).toContain('- **Microsoft Corp. (MSFT)**: diluted EPS of $12.93 over the four quarters to fiscal Q3 2025');
    expect(cheap).not.toContain('company called');
    const after = (await ask('is msft cheap?', 'ok then what are its key numbers')).text;
    expect(after).toContain('| Microsoft Corp. (MSFT) | Revenue | fiscal Q3 2025 (quarter ended 2025-03-31) | $70,066 million [1] |');
    expect((await ask('is msft cheap?', 'ok then what are its key numbers', 'how about its P/E')).text).toContain('- **Microsoft Corp. (MSFT)**: diluted EPS of $12.93');
    // Which to pick is advice too: the key figures of both, no figure called "pick".
    const pick = (await askOf('svc-agent', 'should I buy apple or alphabet?', 'so which one would you pick?')).text;
    expect(pick).toMatch(/^I do not give investment advice/);
    expect(pick).toContain('| Alphabet Inc. (GOOGL) | Revenue |');
    expect(pick).not.toContain('figure called');
  });

  it('a form asked of an answer ("one sentence", "headline", "just the number", "explain like I\'m 12", "one line", "tweet-length", "as a table") restates its figures and citations in that form', async () => {
    const headline = await ask("Give me one headline number from Microsoft's latest quarter");
    expect(headline.text).toMatch(/^\*\*Microsoft, fiscal Q3 2025\*\*: revenue \$70\.1 billion \(\+13\.3% y\/y\) \[1\]\n/);
    expect(headline.text).not.toContain('figure called');
    expect(headline.citations).toHaveLength(1);
    const sentence = await ask("Give me one headline number from Microsoft's latest quarter", 'what changed vs a year ago?', 'one sentence please');
    expect(sentence.text).toMatch(/^In fiscal Q3 2025 \(quarter ended 2025-03-31\), Microsoft's revenue was \$70\.1 billion \[1\] \(\+13\.3% year over year\), its net income \$25\.8 billion \[1\] \(\+17\.7%\) and its diluted EPS \$3\.46 a share \[1\] \(\+17\.7%\)\.\n/);
    expect((await ask("Microsoft's latest quarter", "and Alphabet's latest quarter headline?")).text).toMatch(/^\*\*Alphabet, Q4 2024\*\*: revenue \$96\.5 billion \(derived\) \(\+11\.8% y\/y\), net income \$26\.5 billion \(derived\) \(\+28\.3% y\/y\)/);
    expect((await ask("Apple's latest quarter: revenue and profit, one line")).text).toMatch(/^Apple, fiscal Q2 2025: revenue \$95\.4 billion, net income \$24\.8 billion \[1\]\n/);
    const plain = await ask('Apple ttm net income', 'vs a year ago', "explain like I'm 12");
    expect(plain.text).toMatch(/^Over the twelve months to March 29, 2025, Apple kept about \$97 billion as profit, after paying all its costs and taxes \[1\]\[2\]\[3\]\[4\] \(derived\), 3% less than a year before\./);
    expect(plain.citations).toHaveLength(4);
    expect((await ask('Apple ttm net income', 'vs a year ago', 'just the number')).text).toMatch(/^\*\*\$97\.3 billion\*\* \(Apple's net income, twelve months to fiscal Q2 2025, ended 2025-03-29\)/);
    expect((await ask('whats apples gross margin', 'explain like im 12')).text).toMatch(/^In the three months to March 29, 2025, for every \$100 Apple sold, about \$47 was left after paying for what it sold \(its gross margin, 47\.1%\) \[1\]\./);
    // After "which grew fastest?", the number is the leader's growth.
    expect((await ask('headline: which of the three big techs grew profit fastest in 2024', 'just the number')).text).toMatch(/^\*\*\+35\.7%\*\* \(Alphabet's net income, fiscal year 2024, ended 2024-12-31\)/);
    expect((await askOf('svc-agent', 'apple net income fy2024', 'give me a tweet-length summary')).text).toMatch(/^Apple, fiscal year 2024: net income \$93\.7 billion \[1\]\n/);
    expect((await ask('apple net income fy2024', 'as a table')).text).toMatch(/^\| Company \| Figure \| Period \| Value \|\n\|---\|---\|---\|---\|\n\| Apple \| Net income \| fiscal year 2024 \(year ended 2024-09-28\) \| \$93\.7 billion \[1\] \|/);
  });

  it('extremes and arithmetic asked of the figures discussed: the biggest quarter in the data, the strongest after a table, vs the weakest, the largest of every company, an average, a difference, how many times', async () => {
    // "Ever", "in your data": every quarter the table holds, the highest said first, not the latest quarter.
    const ever = (await ask('What was the biggest quarter ever for Apple revenue in your data?')).text;
    expect(ever).toMatch(/^### Apple Inc\. \(AAPL\), by fiscal quarter[^\n]*\n\n\*\*Revenue\*\*, highest in \*\*Q1 FY2025\*\* \(\$124,300 million\), lowest in \*\*Q3 FY2023\*\* \(\$81,797 million\), of the 12 shown\./);
    // "As a table in billions" keeps the table, so "which quarter was strongest?" and "average … of those?" are of its quarters.
    const table = ['AAPL revenue and net income last 8 quarters', 'as a table in billions'];
    expect((await ask(...table, 'which quarter was strongest?')).text).toContain('**Net income**, highest in **Q1 FY2025** ($36,330 million), lowest in **Q4 FY2024** ($14,736 million), of the 8 shown.');
    expect((await ask(...table, 'which quarter was strongest?', 'average net income of those?')).text).toContain('**Net income**, average per quarter over the 8 shown: **$24,710 million**.');
    expect((await ask('Apple revenue by quarter for fiscal 2024', 'which quarter was strongest?', 'how much bigger than the weakest, in %?')).text).toContain('$33,798 million apart (the highest 39.4% above the lowest)');
    // "Which company" after one company's figures: every company covered, ranked.
    const largest = (await ask('What was the biggest quarter ever for Apple revenue in your data?', 'which company had the largest net income in 2024?')).text;
    expect(largest).toContain('- Net income, largest to smallest: Alphabet $100,118 million for fiscal year 2024 (year ended 2024-12-31), Apple $93,736 million for fiscal year 2024 (year ended 2024-09-28), Microsoft $88,136 million');
    // An average of the companies' figures just ranked, each input cited.
    const average = await ask('Apple vs Microsoft gross margin FY2024', 'swap apple for alphabet', 'rank all three on FY2024 gross margin', 'average of the three?');
    expect(average.text).toMatch(/^\*\*Average of the 3 gross margins: 58\.1%\*\* \(a simple average, each counted once\): Apple 46\.2% \(fiscal year 2024, ended 2024-09-28\) \[1\], Alphabet 58\.2% \(fiscal year 2024, ended 2024-12-31\) \[2\] \(derived\), Microsoft 69\.8% \(fiscal year 2024, ended 2024-06-30\) \[3\]\./);
    expect(average.citations).toHaveLength(3);
    // A difference of one company's two figures.
    expect((await ask('operating income vs net income 2024 for googl', 'difference?')).text).toMatch(/^\*\*\$12,272 million\*\*: operating income \$112,390 million \[1\] minus net income \$100,118 million \[1\] \(fiscal year 2024, ended 2024-12-31\); net income is 89\.1% of operating income\./);
    // "Change?" after two year-ends named one after the other: between those two.
    expect((await ask('working capital for apple at the end of FY24', 'and at the end of FY23?', 'change?')).text).toMatch(/^- \*\*Apple's working capital\*\* at the end of fiscal year 2024 \(2024-09-28\): \*\*-\$23,405 million \(about -\$23\.4 billion\)\*\*[^\n]*At the end of fiscal year 2023 \(2023-09-30\): -\$1,742 million \(about -\$1\.7 billion\); change \*\*-\$21,663 million \(about -\$21\.7 billion\)\*\*\./);
    // "Compare with two years earlier" weighs the period discussed against that one; "what share of its OCF went to capex?" is capex over OCF, in that period.
    const capex = ['How much did Microsoft spend on capital expenditures in fiscal 2024?', 'how does that compare with two years earlier?'];
    expect((await ask(...capex)).text).toContain('- Compared with: fiscal year 2022 (year ended 2022-06-30) was $23,886 million (Form 10-K filed 2023-07-27) [2]; change +$20,591 million (+86.2%).');
    expect((await ask(...capex, 'what share of its operating cash flow went to capex?')).text).toMatch(/^- Microsoft's capital expenditure was \*\*37\.5%\*\* of its operating cash flow for fiscal year 2024 \(year ended 2024-06-30\): \$44,477 million \[1\] over \$118,548 million \[1\]\./);
    expect((await ask(...capex, 'what share of its operating cash flow went to capex?', 'and Alphabet same?')).text).toMatch(/^- Alphabet's capital expenditure was \*\*41\.9%\*\* of its operating cash flow for fiscal year 2024/);
    // After leverage ratios, "which has better margins" is the margins and "which is growing faster" revenue's growth, not the ratios again.
    const risk = ['should I buy apple or alphabet?', 'which is riskier?'];
    const margins = (await askOf('svc-agent', ...risk, 'which has better margins')).text;
    expect(margins).toMatch(/^Gross margin \(gross profit over revenue\) and operating margin \(operating income over revenue\) and net margin \(net income over revenue\), side by side/);
    expect(margins).not.toContain('debt-to-equity');
    const growing = (await askOf('svc-agent', ...risk, 'which has better margins', 'which is growing faster')).text;
    expect(growing).toContain("- Alphabet's revenue growth for Q4 2024 (quarter ended 2024-12-31), +11.8%, was 6.7 percentage points higher than Apple's");
    // "Most efficient with its assets": return on assets, ranked.
    expect((await ask('Which of Apple, Microsoft and Alphabet has the highest net margin?', 'which is most efficient with its assets?')).text).toMatch(/^\*\*Apple\*\* has the highest return on assets, 26\.1%, against Alphabet 23\.5% and Microsoft 19\.1%\./);
    // "How many times higher?" after "and alphabet?" is of the two companies discussed.
    expect((await ask('msft interest coverage FY2024', 'and alphabet?', 'how many times higher?')).text).toContain("- Alphabet's interest coverage, 419.37x, is **11.2 times** as high as Microsoft's, 37.29x.");
  });

  it('"last 4 q" and "past 3 yrs" are four quarters and three years, as a table', async () => {
    expect((await askOf('svc-agent', 'apple free cash flow last 4 q')).text).toContain('| | Q3 FY2024 [1][2] | Q4 FY2024 [3][1] | Q1 FY2025 [4] | Q2 FY2025 [5][4] |');
    expect((await askOf('svc-agent', 'msft revenue past 3 yrs')).text).toMatch(/\| \| FY2022 [^|]*\| FY2023 [^|]*\| FY2024 [^|]*\|\n/);
  });

  it('"so of the three who grew fastest" after two companies and a third ranks all three by growth, first', async () => {
    const text = (await askOf('svc-agent', 'apple and microsoft revenue last quarter, and which grew faster?', 'and for google?', 'so of the three who grew fastest')).text;
    expect(text).toMatch(/^Revenue, side by side \(each company in its own fiscal terms\):\n\n- Revenue growth, highest to lowest: Microsoft \+13\.3% for fiscal Q3 2025 \(quarter ended 2025-03-31\), Alphabet \+11\.8% for Q4 2024 \(quarter ended 2024-12-31\), Apple \+5\.1% for fiscal Q2 2025/);
  });

  it('the general agent sends a question naming a company to the filings agent, and a follow-up to filings no rule places', async () => {
    // A company and no figure the rules know: the key figures, or what the filings do not hold, never the help.
    expect((await askOf('svc-agent', "how'd alphabet do in 2024")).text).toMatch(/^Key figures:\n\n\| Company \|[^\n]*\n[^\n]*\n\| Alphabet Inc\. \(GOOGL\) \| Revenue \| fiscal year 2024 \(year ended 2024-12-31\) \| \$350,018 million \[1\]/);
    expect((await askOf('svc-agent', "how'd aapl do last qtr")).text).toMatch(/^Key figures from the latest filings:[^]*\| Apple Inc\. \(AAPL\) \| Revenue \| fiscal Q2 2025 \(quarter ended 2025-03-29\) \| \$95,359 million/);
    expect((await askOf('svc-agent', "what's aapl trading at rn")).text).toMatch(/^I do not have a figure called "trading at": it is market data/);
    expect((await askOf('svc-agent', 'analyst price target for MSFT?')).text).toMatch(/^I do not have a figure called "analyst price target": it is market data/);
    // "wat" is no company; what a filing says in words is not read.
    expect((await ask('apple revenue q2 2024', 'wat about net income')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: net income for fiscal Q2 2024 \(quarter ended 2024-03-30\) was \*\*\$23,636 million\*\*/);
    for (const q of ['Does the 10-K mention layoffs?', 'what are the risk factors in the 10-k']) expect((await askOf('svc-agent', q)).text, q).toMatch(/^I read the figures companies file with the SEC \(the XBRL data of their 10-K and 10-Q filings\), not the filings' text/);
    // After figures: "which is bigger", "show me the source" and "should I buy it?" stay with them.
    const turns = ['apple revenue q2 2024', 'how about Microsoft?'];
    expect((await askOf('svc-agent', ...turns, 'which is bigger, by how much in %')).text).toContain("Apple's revenue for fiscal Q2 2024 (quarter ended 2024-03-30) was $28,733 million (46.3%) more than Microsoft's");
    expect((await askOf('svc-agent', ...turns, 'show me the source')).text).toMatch(/^The figures of that answer come from these filing pages/);
    const advice = (await askOf('svc-agent', ...turns, 'should I buy it?')).text;
    expect(advice).toMatch(/^I do not give investment advice, such as whether to buy or sell a stock\. The key figures/);
    expect(advice).toContain('| Microsoft Corp. (MSFT) | Net income | fiscal Q2 2024 (quarter ended 2023-12-31) | $21,870 million [1]');
  });

  it('follow-ups that ask for a calculation get it: bps moved, the spread of a ranking, a share of another figure, a sum, TTM after a table, no judgement', async () => {
    expect((await ask('Apple gross margin and operating margin for fiscal 2024', 'and the year before?', 'how many bps did gross margin move?')).text).toMatch(/^Apple's gross margin rose, \+2\.1 percentage points \(\+208 bps\), year over year \(fiscal year 2024\)\./);
    // Asked at once, between two years next to each other: the change, not a table; a range of years stays a table.
    expect((await ask("how many bps did apple's gross margin move from fiscal 2023 to fiscal 2024?")).text).toMatch(/^Apple's gross margin rose, \+2\.1 percentage points \(\+208 bps\), year over year \(fiscal year 2024\)\./);
    expect((await ask('how did apple revenue grow from fiscal 2022 to fiscal 2024?')).text).toMatch(/^### Apple Inc\. \(AAPL\), by fiscal year/);
    // A trailing-twelve-month margin is the twelve months', in the table's column and the line under it, not the last quarter's.
    const ttmMargin = (await ask('apple ttm net income', 'and msft?', 'which has the higher TTM net margin, by how many points')).text;
    expect(ttmMargin).toContain('| twelve months to fiscal Q2 2025 (quarter ended 2025-03-29) | $97,294 million [1] (sum of four quarters) | 24.3% |');
    expect(ttmMargin).toContain('- Apple Inc. (AAPL) net margin, trailing twelve months: **24.3%** of revenue (the twelve months to fiscal Q2 2025: revenue $400,366 million, the sum of the four quarters).');
    expect(ttmMargin).not.toContain('26.0%');
    // A share of another figure, kept by "and Microsoft's?", and the two apart.
    const shares = ['googl net income as a % of operating income fy2024', "and Microsoft's for its fiscal 2024?"];
    expect((await ask(...shares)).text).toMatch(/^- Microsoft's net income was \*\*80\.5%\*\* of its operating income for fiscal year 2024 \(year ended 2024-06-30\)/);
    expect((await ask(...shares, 'difference in points?')).text).toContain("- Alphabet's is 8.5 percentage points higher than Microsoft's.");
    // After a ranking of every company covered, the same companies.
    const spread = (await ask('Which company has the highest net margin?', 'by how much vs the lowest, in points')).text;
    expect(spread).toContain("- The highest, Microsoft's 36.0%, is 12.0 percentage points above the lowest, Apple's 24.0%.");
    const gross = (await ask('Which company has the highest net margin?', 'what about gross margin')).text;
    for (const name of ['Apple Inc. (AAPL)', 'Alphabet Inc. (GOOGL)', 'Microsoft Corp. (MSFT)']) expect(gross).toContain(`| ${name} | Gross profit |`);
    expect((await ask('Apple balance sheet at end of fiscal 2024', 'total liabilities as a % of total assets?')).text).toMatch(/^- Apple's total liabilities were \*\*84\.4%\*\* of its total assets at the end of fiscal year 2024 \(2024-09-28\): \$308,030 million \[1\] over \$364,980 million \[1\]\./);
    expect((await askOf('svc-agent', 'msft net income fy2023 vs fy2024', 'what about googl same years', 'combined net income of the two in 2024')).text).toContain('- Net income of Microsoft and Alphabet together, each for its period in the table: $188,254 million; the periods end 6 months apart.');
    const ttm = (await ask('Alphabet revenue CAGR from 2022 to 2024', 'TTM revenue?')).text;
    expect(ttm).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: revenue, trailing twelve months \(Q1 2024 to Q4 2024, ended 2024-12-31\): \*\*\$350,018 million\*\*/);
    expect(ttm).not.toContain('Compared with');
    // The sources of an answer across every company covered are all of its pages, not those of the turn before it.
    const sources = (await ask('msft free cash flow fy2024', 'and capex?', 'capex intensity for all three', 'show me the source')).text;
    expect(sources).toMatch(/^The figures of that answer come from these filing pages/);
    for (const name of ['Apple Inc. Form 10-K', 'Alphabet Inc. Form 10-K', 'Microsoft Corp. Form 10-K']) expect(sources).toContain(name);
    // "For each" after three companies asked one at a time: all three, not the last two.
    const each = (await ask('Microsoft revenue fiscal Q4 2025', 'alphabet Q1 2025 revenue', 'Apple Q3 fiscal 2025', "what's the latest quarter you have for each?")).text;
    for (const row of ['| Alphabet Inc. (GOOGL) | Revenue | Q4 2024', '| Apple Inc. (AAPL) | Revenue | fiscal Q2 2025', '| Microsoft Corp. (MSFT) | Revenue | fiscal Q3 2025']) expect(each).toContain(row);
    expect((await ask('Google roe for 2023', 'is that good?')).text).toMatch(/^Whether that is good is a judgement I leave to you[^\n]*\n\n- \*\*Alphabet's return on equity\*\* for fiscal year 2023/);
  });

  it('a follow-up\'s words that name no filer are what is asked of the company discussed; "GM" beside one is gross margin; bps carried; differences unrounded', async () => {
    expect((await ask('aapl rev FY24', 'GM?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: gross margin for fiscal year 2024 \(year ended 2024-09-28\) was \*\*46\.2%\*\*/);
    // Named first, it is General Motors (not in the snapshot); beside another company's figures, gross margin.
    expect((await ask('MSFT Q3 FY25: rev, GM, op margin, EPS')).text).toContain('68.7%');
    const bps = await ask('aapl rev FY24', 'GM?', 'same for MSFT', "who's higher, by how many bps");
    expect(bps.text).toContain("Microsoft's gross margin for fiscal year 2024 (year ended 2024-06-30), 69.8%, was 23.6 percentage points (2,356 bps) higher than Apple's");
    // "How many bps" kept by "same for MSFT": +84 bps (69.76% less 68.92%), rounded once to +0.8, not 69.8 less 68.9.
    expect((await ask('apple gross margin fy24', 'how many bps did it move vs fy23', 'same for MSFT')).text).toMatch(/^Microsoft's gross margin rose, \+0\.8 percentage points \(\+84 bps\), year over year/);
    for (const turns of [
      ['whats apple revenue fy24', 'rev by geography? greater china'],
      ['goolge fcf fy2024', 'FCF conversion - fcf / net income', 'capex yoy'],
      ['msft opex fy24 yoy', 'opex growth vs rev growth - operating leverage?', 'who had more op leverage'],
      ['apple working capital', 'is it negative? why'],
    ]) expect((await ask(...turns)).text, turns.at(-1)).not.toMatch(/could not find a company|I could not tell which company/);
    // Operating leverage is no debt ratio: the growth of the costs and revenue discussed.
    expect((await ask('msft opex fy24 yoy', 'opex growth vs rev growth - operating leverage?', 'same for googl cy24', 'who had more op leverage')).text).not.toMatch(/debt|equity/i);
    // A product's figure keeps the period discussed; "rank them" is every company discussed.
    expect((await ask("whats apple's services revenue fy24", 'ok iphone rev then')).text).not.toContain('Q2 2025');
    const ranked = await ask('goog opex fy2023', 'r&d as % of rev', 'same for msft fy23', 'and aapl', 'rank them by r&d intensity');
    expect(ranked.text).toMatch(/Alphabet[^\n]*14\.8%/);
    expect(ranked.text).toMatch(/Microsoft[^\n]*12\.8%/);
    expect(ranked.text).toMatch(/Apple[^\n]*7\.8%/);
  });

  it('"the same period" of another company is its quarter ending when the one discussed did, through follow-ups and a ranking', async () => {
    const turns = ['MSFT revenue Q2 FY25', 'googl revenue for the same period'];
    expect((await askOf('svc-agent', ...turns)).text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: revenue for Q4 2024 \(quarter ended 2024-12-31\) was \*\*\$96,469 million\*\*/);
    expect((await askOf('svc-agent', ...turns, 'and apple same period')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q1 2025 \(quarter ended 2024-12-28\) was \*\*\$124,300 million\*\*/);
    expect((await askOf('svc-agent', ...turns, 'and apple same period', 'rank the three for that period')).text).toContain('- Revenue, largest to smallest: Apple $124,300 million, Alphabet $96,469 million, Microsoft $69,632 million.');
    // Across every company covered, TTM is to each one's latest quarter.
    const ttm = (await askOf('svc-agent', "compare all three companies' revenue TTM")).text;
    expect(ttm).toContain('| Apple Inc. (AAPL) | Revenue | twelve months to fiscal Q2 2025 (quarter ended 2025-03-29) | $400,366 million');
    expect(ttm).toContain('| Microsoft Corp. (MSFT) | Revenue | twelve months to fiscal Q3 2025 (quarter ended 2025-03-31) | $270,010 million');
    // Of the same company, "the same quarter last year" is still that quarter a year before.
    expect((await ask("What was Apple's revenue in Q2 2025?", 'and the same quarter last year?')).text).toContain('fiscal Q2 2024');
  });

  it('a balance "at the same date" is at the date the period discussed ended for its company, through follow-ups', async () => {
    const turns = ['msft cash at end of FY24', 'goog cash at the same date'];
    expect((await ask(...turns)).text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: cash and cash equivalents at the end of Q2 2024 \(2024-06-30\) were \*\*\$27,227 million\*\*/);
    expect((await ask(...turns, "and apple's?")).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: cash and cash equivalents at the end of fiscal Q3 2024 \(2024-06-29\) were \*\*\$25,565 million\*\*/);
    expect((await ask('apple cash at end of fy23', 'msft cash at the same date')).text).toContain('(2023-09-30)');
    expect((await ask(...turns, "and apple's?", 'total liabilities as a % of total assets for apple same date')).text).toContain("Apple's total liabilities were **79.9%** of its total assets at the end of fiscal Q3 2024 (2024-06-29)");
  });

  it('after a ranking, "its" is the company it put first, "the lowest one" the last, and the next follow-ups stay with the one answered', async () => {
    const ranking = ['Which company has the highest net margin?'];
    // (Chat histories sent without the answers have no ranking to point into: every company, as before.)
    const talk = (...turns: string[]) => talkOf('svc-agent', ...turns);
    expect(await talk(...ranking, 'its net income')).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: net income for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$88,136 million\*\*/);
    expect(await talk(...ranking, 'its net income', 'is that good?')).toContain('**Microsoft Corp. (MSFT)**: net income for fiscal year 2024');
    expect(await talk(...ranking, 'its net income', 'and the lowest one?')).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: net income for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$93,736 million\*\*/);
    expect(await talk(...ranking, 'its net income', 'and the lowest one?', 'what about eps')).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: diluted EPS for fiscal year 2024/);
    expect(await talk(...ranking, 'its net income', 'compare them')).toMatch(/Apple Inc\.[\s\S]*Alphabet Inc\.[\s\S]*Microsoft Corp\./);
    // "At the same date" of the one answered, for the others.
    const cash = await talk(...ranking, 'its net income', 'and its cash at the same date', 'cash for the other two at the same date');
    expect(cash).toContain('| Alphabet Inc. (GOOGL) | Cash and cash equivalents | Q2 2024 (quarter ended 2024-06-30) | $27,227 million');
    expect(cash).toContain('| Apple Inc. (AAPL) | Cash and cash equivalents | fiscal Q3 2024 (quarter ended 2024-06-29) | $25,565 million');
  });

  it('"which is most liquid?" and "whos the riskiest" name the company at that end of each ratio; a turn naming no figure after "the same date" keeps it', async () => {
    const turns = ['googl total assets at 2024-06-30', 'cash at the same date for msft', 'and apple closest date'];
    expect((await ask(...turns)).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: cash and cash equivalents at the end of fiscal Q3 2024 \(2024-06-29\) were \*\*\$25,565 million\*\*/);
    expect((await ask(...turns, 'current ratio for all three at those dates', 'which is most liquid')).text).toMatch(/^\*\*Alphabet\*\* has the highest current ratio, 1\.86x, against Microsoft 1\.27x and Apple 0\.95x\./);
    const risk = (await askOf('svc-agent', 'whats the debt/equity for all three, latest', 'rank by current ratio too', 'whos the riskiest')).text;
    expect(risk).toContain('**Apple** has the highest debt-to-equity ratio, 1.18x, against Microsoft 0.12x and Alphabet 0.03x.');
    expect(risk).toContain('**Apple** has the lowest current ratio, 0.84x, against Microsoft 1.42x and Alphabet 1.84x.');
  });

  it('"rank the three by …" is every company covered; "its", "the runner-up\'s", "the most levered one\'s" point into the ranking; "growth rates?" and "is it negative? why" are no figure names', async () => {
    const talk = talkOf;
    const fcf = ['rank the three by FCF margin, latest fiscal year'];
    expect(await talk('svc-sec-agent', ...fcf)).toContain('- Free cash flow margin, highest to lowest: Microsoft 30.2% for fiscal year 2024 (year ended 2024-06-30), Apple 27.8%');
    expect(await talk('svc-sec-agent', ...fcf, 'its capex that year')).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: capital expenditure for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$44,477 million\*\*/);
    expect(await talk('svc-sec-agent', ...fcf, 'its capex that year', "and the runner-up's capex")).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: capital expenditure for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$9,447 million\*\*/);
    const levered = await talk('svc-agent', 'rank the three by debt to equity, latest balance sheet', "the most levered one's current ratio");
    expect(levered).toContain("- **Apple's current ratio** at the end of fiscal Q2 2025 (2025-03-29): **0.84x**");
    expect(levered).not.toContain('Alphabet');
    expect((await ask('micrsoft net incme q2 fy25', 'the other one - aple', 'which is bigger', 'and same qtr last yr for both', 'growth rates?')).text).not.toMatch(/figure called|company called/);
    expect((await ask('apple working capital', 'is it negative? why')).text).toContain('working capital');
  });

  it('lists a company\'s filings, and says when the latest was filed, what it covers and its accession number, each cited to its document (the signed PDF at page 1)', async () => {
    const list = await askOf('svc-agent', 'msft cash at end of FY24', "list Microsoft's filings");
    expect(list.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: 11 10-K and 10-Q filings in this snapshot, newest first:/);
    expect(list.text).toContain('| 10-Q | fiscal Q3 2025 (quarter ended 2025-03-31) | 2025-04-30 | 0000950170-25-061046 [1] |');
    expect(list.text).toContain('| 10-K | fiscal year 2024 (year ended 2024-06-30) | 2024-07-30 | 0000950170-24-087843 [4] |');
    expect(list.citations).toHaveLength(11);
    expect(list.citations[0]!.url).toMatch(/\/v1\/documents\/sec-\w+-789019-000095017025061046\.pdf\?expires=\d+&signature=\w+#page=1$/);
    expect((await ask('which 10-Qs do you have for apple')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: 8 10-Q filings in this snapshot/);
    expect((await ask("when was apple's latest 10-Q filed and what quarter does it cover")).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its latest 10-Q, filed 2025-05-02 \(34 days after the period ended\), covers fiscal Q2 2025 \(quarter ended 2025-03-29\); accession number 0000320193-25-000057 \[1\]\./);
    // "That filing": the one the answer before cited.
    const talk = [{ role: 'user', content: 'googl revenue fy2024' }];
    const first = (await (await chat({ model: 'svc-sec-agent', messages: talk })).json()) as any;
    const res = await chat({ model: 'svc-sec-agent', messages: [...talk, { role: 'assistant', content: first.choices[0].message.content }, { role: 'user', content: "what's the accession number of that filing" }] });
    expect(((await res.json()) as any).choices[0].message.content).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: that 10-K, filed 2025-02-05 \(36 days after the period ended\), covers fiscal year 2024 \(year ended 2024-12-31\); accession number 0001652044-25-000014|^\*\*Alphabet Inc\. \(GOOGL\)\*\*: its latest 10-K, filed 2025-02-05 \(36 days/);
  });

  it('when a filing for a period named was filed: "its 10-K for fiscal 2024", "the 10-Q for the december 2024 quarter"', async () => {
    expect((await ask('when did microsoft file its 10-K for fiscal 2024?')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its 10-K for fiscal year 2024, filed 2024-07-30 \(30 days after the period ended\), covers fiscal year 2024 \(year ended 2024-06-30\); accession number 0000950170-24-087843 \[\d+\]\./);
    expect((await askOf('svc-agent', 'when did apple file its latest 10-K?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its latest 10-K, filed 2024-11-01/);
    expect((await ask('when was the 10-Q for the december 2024 quarter filed? apple')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its 10-Q for fiscal Q1 2025, filed 2025-01-31 \(34 days after the period ended\), covers fiscal Q1 2025 \(quarter ended 2024-12-28\)/);
  });

  it('"is that high for the industry?" is a judgement left to the asker, with no industry figure; "what drove the increase?" says the figures show what, not why; "how is it calculated" defines the figure', async () => {
    expect(await talkOf('svc-agent', "what is operating margin and what is Apple's?", 'is that high for the industry?')).toMatch(/^Whether that is good is a judgement I leave to you[^\n]*I read companies' own filings, not industry averages\./);
    expect(await talkOf('svc-agent', 'hey so whats googles net income been doing lately', 'what drove the increase?')).toContain('The figures show what changed, not why');
    expect(await talkOf('svc-agent', "what is EPS and what was microsoft's in fy2024?", 'how is it calculated')).toMatch(/^- \*\*Diluted EPS\*\* is net income divided by the weighted-average shares outstanding/);
  });

  it('"was that the december quarter?" says whether the quarter just answered ended in that month, with its dates', async () => {
    expect(await talkOf('svc-agent', 'apple Q1 2024 rev and EPS', 'was that the december quarter?')).toMatch(/^\*\*Yes\*\*: Apple Inc\.'s fiscal Q1 2024 \(the quarter ended 2023-12-30\) is the December quarter\. Its fiscal year ends in September\./);
    expect(await talkOf('svc-sec-agent', 'msft revenue q2 fy25', 'is that the march quarter?')).toMatch(/^\*\*No\*\*: Microsoft Corp\.'s fiscal Q2 2025 \(the quarter ended 2024-12-31\) is the December quarter, not the March one\. Its fiscal year ends in June\./);
  });

  it('sales and marketing, and general and administrative expense, each asked alone, and as a share of revenue', async () => {
    expect((await ask('sales and marketing expense for microsoft fiscal 2024')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: sales and marketing expense for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$24,456 million\*\*/);
    expect((await ask('G&A expense alphabet 2024')).text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: general and administrative expense for fiscal year 2024 \(year ended 2024-12-31\) was \*\*\$14,188 million\*\*/);
    const shares = (await ask('S&M as % of revenue for microsoft and alphabet, latest fiscal year')).text;
    expect(shares).toContain('| Company | Figure | Period | Value | % of revenue | Filed in |');
    expect(shares).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Sales and marketing expense \| fiscal year 2024 \(year ended 2024-06-30\) \| \$24,456 million \[\d\] \| 10\.0% \|/);
    expect(shares).toMatch(/\| Alphabet Inc\. \(GOOGL\) \| Sales and marketing expense \| fiscal year 2024 \(year ended 2024-12-31\) \| \$27,808 million \[\d\] \| 7\.9% \|/);
    // SG&A is still the two added up where no line carries it.
    expect((await ask('microsoft SG&A fiscal 2024')).text).toContain('was **$32,065 million**');
  });

  it('"how many times higher" gives the ratio of the two figures, of margins, amounts and ratios alike', async () => {
    expect(await talkOf('svc-agent', 'rank apple microsoft and alphabet by operating margin fiscal 2024', "how many times higher is microsoft's margin than apple's?")).toContain(
      "Microsoft's operating margin for fiscal year 2024 (year ended 2024-06-30), 44.6%, was 13.1 percentage points higher than Apple's for fiscal year 2024 (year ended 2024-09-28), 31.5%, **1.42 times** as high",
    );
    expect(await talkOf('svc-sec-agent', 'MSFT interest coverage fiscal 2024', "and alphabet's?", "how many times higher is alphabet's than microsoft's?")).toContain("- Alphabet's interest coverage, 419.37x, is **11.2 times** as high as Microsoft's, 37.29x.");
    // Not asked, not said.
    expect(await talkOf('svc-agent', 'rank apple microsoft and alphabet by operating margin fiscal 2024', "how much higher is microsoft's margin than apple's?")).not.toContain('times**');
  });

  it('free cash flow conversion is free cash flow over net income, ranked across companies', async () => {
    expect((await ask("what's microsoft's FCF conversion in fiscal 2024 (free cash flow / net income)?")).text).toMatch(/^- \*\*Microsoft's free cash flow conversion\*\* for fiscal year 2024 \(year ended 2024-06-30\): \*\*84\.0%\*\*: free cash flow of \$74,071 million \[1\] \(derived\) over net income of \$88,136 million \[2\]\./);
    expect((await ask('FCF conversion for apple and microsoft fiscal 2024')).text).toContain('- Highest free cash flow conversion first: Apple 116.1%, Microsoft 84.0%.');
  });

  it('"in billions please" restates the answer before in billions, a figure or a table, and its follow-ups keep the scale', async () => {
    expect(await talkOf('svc-agent', 'msft revenue fiscal 2024', 'in billions please')).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$245\.12 billion\*\* \[1\]\./);
    const table = await talkOf('svc-agent', 'Alphabet revenue last 4 quarters', 'in billions please');
    expect(table).toContain('| **Revenue** ($ billion) | 80.54 | 84.74 | 88.27 | 96.47† |');
    expect(await talkOf('svc-sec-agent', 'msft revenue fiscal 2024', 'in billions please', 'and fiscal 2023?')).toMatch(/was \*\*\$211\.92 billion\*\*/);
    // After "as a table", the table's periods still: a request of format changes no periods.
    expect(await talkOf('svc-sec-agent', 'ok give me alphabet revenue for the last 8 quarters with yoy growth', 'as a table', 'in billions please')).toContain('| **Revenue** ($ billion) | 69.79 | 74.60 | 76.69 | 86.31† | 80.54 | 84.74 | 88.27 | 96.47† |');
  });

  it('"annualize that" gives a quarter\'s amount times four, said to be a run rate, the quarter beside it', async () => {
    expect(await talkOf('svc-agent', 'wat was msft rev last q', 'vs a yr ago?', 'annualize that')).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q3 2025 \(quarter ended 2025-03-31\), annualized, is \*\*\$280,264 million\*\* \(derived\): \$70,066 million \[1\] times four\. A run rate, not a forecast/);
    expect(await talkOf('svc-sec-agent', 'Alphabet operating cash flow Q4 2024', 'and FCF for that quarter', 'annualize that')).toContain('free cash flow for Q4 2024 (quarter ended 2024-12-31), annualized, is **$99,384 million** (derived)');
    // A year is no quarter to annualize.
    expect(await talkOf('svc-sec-agent', 'msft revenue fiscal 2024', 'annualize that')).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$245,122 million\*\*/);
  });

  it('a correction puts the company said in place of the one it replaces, the rest of the comparison kept', async () => {
    const fixed = await talkOf('svc-agent', 'Compare Apple and Alphabet net income fiscal 2024', 'no, I meant Microsoft instead of Alphabet');
    expect(fixed).toMatch(/\| Apple Inc\. \(AAPL\) \| Net income \| fiscal year 2024 \(year ended 2024-09-28\) \| \$93,736 million/);
    expect(fixed).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Net income \| fiscal year 2024 \(year ended 2024-06-30\) \| \$88,136 million/);
    expect(fixed).not.toContain('Alphabet Inc.');
    const swapped = await talkOf('svc-agent', 'Compare Apple and Alphabet net income fiscal 2024', 'no, I meant Microsoft instead of Alphabet', 'actually swap apple for alphabet');
    expect(swapped).toContain('| Alphabet Inc. (GOOGL) | Net income | fiscal year 2024 (year ended 2024-12-31) | $100,118 million');
    expect(swapped).not.toContain('Apple Inc.');
  });

  it('liabilities to assets, free cash flow per share, inventory turnover and days of inventory', async () => {
    expect((await ask('apple total liabilities to assets fiscal 2024')).text).toContain("**Apple's liabilities-to-assets ratio** at the end of fiscal year 2024 (2024-09-28): **84.4%**: total liabilities of $308,030 million [1] over total assets of $364,980 million [1].");
    expect((await ask('apple fcf per share fiscal 2024')).text).toContain("**Apple's free cash flow per share** for fiscal year 2024 (year ended 2024-09-28): **$7.20 per share**: free cash flow of $108,807 million");
    const days = (await ask('apple days inventory outstanding fiscal 2024')).text;
    expect(days).toContain("**Apple's inventory turnover** for fiscal year 2024 (year ended 2024-09-28): **30.90x**: cost of revenue of $210,352 million [1] over average inventory of $6,808.5 million");
    expect(days).toContain('That is about **11.8 days** of inventory held');
  });

  it('"capex as % of ocf" is one figure as a share of the other; "so fcf minus net income?" the one less the other', async () => {
    expect(await talkOf('svc-agent', 'msft capex and operating cash flow for the first nine months of fiscal 2025', 'capex as % of ocf')).toMatch(/^- Microsoft's capital expenditure was \*\*50\.7%\*\* of its operating cash flow for the first nine months of fiscal 2025 \(nine months ended 2025-03-31\): \$47,425 million \[1\] over \$93,540 million \[1\]\./);
    expect(await talkOf('svc-agent', "What is free cash flow and what was Microsoft's last fiscal year?", 'net income fiscal 2024 for microsoft', 'so fcf minus net income?')).toMatch(/^- Microsoft's free cash flow less its net income for fiscal year 2024 \(year ended 2024-06-30\): \$74,071 million \[1\] − \$88,136 million \[2\] = \*\*-\$14,065 million\*\*\./);
  });

  it('chat spellings name no company: "wats apples gross margin trend last 8 quarters", "wich quarter was the best?"', async () => {
    expect(await talkOf('svc-agent', 'wats apples gross margin trend last 8 quarters', 'wich quarter was the best?')).toContain('**Gross margin**, highest in **Q2 FY2025** (47.1%), lowest in **Q3 FY2023** (44.5%), of the 8 shown.');
  });

  it('says a company outside the snapshot is not in it', async () => {
    const a = await ask('NVDA revenue');
    expect(a.text).toMatch(/not in this snapshot/);
    expect(a.citations).toEqual([]);
  });
});
