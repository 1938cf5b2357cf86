import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** Follow-ups that lean on more than the turn before them (a comparison built turn by turn, a measure carried), on the shipped demo snapshot, offline. */
describe('svc-sec-agent: what a thread carries (demo snapshot)', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('"as a table" after companies asked one after another tabulates them all, not the last one only', async () => {
    const two = await talk("Apple's revenue last quarter?", "and Microsoft's?", 'as a table');
    expect(two.text).toContain('| Apple | Revenue | fiscal Q2 2025 (quarter ended 2025-03-29) | $95.4 billion [1] |');
    expect(two.text).toContain('| Microsoft | Revenue | fiscal Q3 2025 (quarter ended 2025-03-31) | $70.1 billion [2] |');
    consistent(two);
    const three = await talkOf('svc-agent', 'Microsoft net income FY2024', 'and Alphabet?', 'what about Apple?', 'put it in a table');
    for (const name of ['Microsoft', 'Alphabet', 'Apple']) expect(three.text).toMatch(new RegExp(`^\\| ${name}\\b[^|]*\\| Net income \\| fiscal year 2024 `, 'm'));
    // Two companies asked together and then one alone: the table is of that one.
    const alone = await talk('Apple and Microsoft revenue FY2024', 'now just Alphabet', 'as a table');
    expect(alone.text).toMatch(/^\| Alphabet \| Revenue \|/m);
    expect(alone.text).not.toMatch(/^\| (?:Apple|Microsoft) \|/m);
  });

  it('"which is bigger?" after two periods asked in turn weighs those two figures, leading with the answer', async () => {
    const a = await talk('Apple revenue Q1 2024?', 'and Q2 2024?', 'which is bigger?');
    expect(a.text).toMatch(/^\*\*Apple's revenue was larger in fiscal Q1 2024\*\*: \$119,575 million \[\d\] in fiscal Q1 2024 \(ended 2023-12-30\) against \$90,753 million \[\d\] in fiscal Q2 2024 \(ended 2024-03-30\), \$28,822 million \(31\.8%\) more\./);
    consistent(a);
    const lower = await talkOf('svc-agent', 'Microsoft net income FY2023', 'and FY2024?', 'which one was lower?');
    expect(lower.text).toMatch(/^\*\*Microsoft's net income was smaller in fiscal year 2023\*\*: \$72,361 million \[\d\] .* against \$88,136 million \[\d\] .*, \$15,775 million \(17\.9%\) less\./);
    const diff = await talk('Apple revenue Q1 2024?', 'and Q2 2024?', 'difference?');
    expect(diff.text).toMatch(/^\*\*\$28,822 million\*\*: .*; fiscal Q2 2024 is 75\.9% of fiscal Q1 2024\./);
    // Two companies asked in turn are still weighed side by side.
    const companies = await talk("Apple's revenue last quarter?", "and Microsoft's?", 'which is bigger?');
    expect(companies.text).toContain("Apple's revenue was $25,293 million (36.1%) more than Microsoft's.");
  });

  it('"and per share?" after net income is diluted EPS, and the follow-up after it keeps the per-share figure', async () => {
    const a = await talk("Apple's net income last year", 'and per share?');
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: diluted EPS for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$6\.08 per diluted share\*\* \[1\]\./);
    const b = await talkOf('svc-agent', "Apple's net income last year", 'and per share?', 'and the year before?');
    expect(b.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: diluted EPS for fiscal year 2023 \(year ended 2023-09-30\) was \*\*\$6\.13 per diluted share\*\*/);
    // Free cash flow per share is computed, and carried too.
    const fcf = await talk('Microsoft free cash flow FY2024', "what's that per share?", 'and FY2023?');
    expect(fcf.text).toMatch(/\*\*Microsoft's free cash flow per share\*\* for fiscal year 2023 \(year ended 2023-06-30\): \*\*\$[\d.]+ per share\*\*/);
  });

  it('"(Taking "aple" to mean Apple)" is said on the turn that misspelt it, not on every later turn', async () => {
    const first = await talk('aple revenue');
    expect(first.text).toMatch(/^\(Taking "aple" to mean Apple Inc\. \(AAPL\)\.\)/);
    for (const later of [await talk('aple revenue', 'and net income?'), await talk('aple revenue', 'and net income?', 'as a table'), await talkOf('svc-agent', 'aple revenue', 'and the year before?')]) {
      expect(later.text).not.toContain('Taking "aple"');
      expect(later.text).toContain('Apple');
    }
    // Misspelt again later: said again.
    expect((await talk('Microsoft revenue', 'and aple?')).text).toContain('(Taking "aple" to mean Apple Inc. (AAPL).)');
  });
});

/** Derived measures: the first sentence answers the question with the figure, the working after it. */
describe('svc-sec-agent: a derived measure leads with its figure (demo snapshot)', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('a margin over the trailing twelve months leads with the margin, the sums of the quarters its working', async () => {
    const a = await talk('Apple operating margin TTM');
    expect(a.text.split('\n')[0]).toBe('**Apple Inc. (AAPL)**: operating margin over the trailing twelve months (fiscal Q3 2024 to fiscal Q2 2025, ended 2025-03-29) was **31.8%** (derived): operating income of $127,364 million over revenue of $400,366 million, each the sum of the four quarters.');
    expect(a.text).toMatch(/\n- Working: operating income, trailing twelve months \(fiscal Q3 2024 to fiscal Q2 2025, ended 2025-03-29\): \$127,364 million, the sum of fiscal Q3 2024 \$25,352 million \[\d\]/);
    consistent(a);
    // Carried to another company.
    expect((await talkOf('svc-agent', 'Apple operating margin TTM', 'and Microsoft?')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: operating margin over the trailing twelve months \(fiscal Q4 2024 to fiscal Q3 2025, ended 2025-03-31\) was \*\*45\.2%\*\*/);
    // An amount over the twelve months still leads with the amount.
    expect((await talk('Alphabet operating expenses ttm')).text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: operating expenses, trailing twelve months \(Q1 2024 to Q4 2024, ended 2024-12-31\): \*\*\$91,322 million\*\*/);
  });

  it('cash burn is free cash flow below zero: a company generating cash is said to burn none, first', async () => {
    const a = await talk("What is Apple's cash burn?");
    expect(a.text).toMatch(/^Apple did not burn cash in fiscal Q2 2025 \(quarter ended 2025-03-29\): its free cash flow \(operating cash flow minus capital expenditure\) was \*\*\+\$20,881 million\*\* \[1\]\[2\] \(derived\), cash generated rather than used\./);
    expect(a.text).not.toContain('cash and cash equivalents');
    consistent(a);
    expect((await talkOf('svc-agent', 'is microsoft burning cash?')).text).toMatch(/^\*\*No\*\*: Microsoft did not burn cash in fiscal Q3 2025/);
  });

  it('what was returned to shareholders is dividends paid plus buybacks: said first that the demo data has neither, not read as a company called "shareholders"', async () => {
    const a = await talk('how much did Apple return to shareholders in FY2024?');
    expect(a.text.split('\n')[0]).toBe('The total Apple returned to shareholders (dividends paid plus share repurchases) cannot be given: the XBRL financial data recorded for it in this snapshot has no dividends paid and no share repurchases figures for the period.');
    expect(a.text).not.toMatch(/company called|figure called/);
    const m = await talkOf('svc-agent', 'Microsoft total returned to shareholders last year');
    expect(m.text).toMatch(/^The total Microsoft returned to shareholders/);
  });

  it('growth asked of a figure leads with the change; an average of margins leads with the margin', async () => {
    const g = await talk('Apple revenue growth FY2024');
    expect(g.text.split('\n')[0]).toBe("Apple's revenue rose, +$7,750 million (+2.0%), year over year (fiscal year 2024).");
    const avg = await talk('Apple gross margin last 4 quarters average');
    expect(avg.text).toContain('**Gross margin**, average per quarter over the 4 shown: **46.6%** (the plain mean of the 4 margins; 46.6% of their revenue taken together); gross profit averaged $46,675 million.');
  });
});

/** Companies whose fiscal quarters end months apart: never set side by side without saying so. */
describe('svc-sec-agent: quarters of different fiscal calendars (demo snapshot)', () => {
  const { talk, talkOf } = demoTalk();

  it('a table or an average of two companies\' quarters ending months apart names their ends and the calendar quarter that aligns them', async () => {
    const note = "These periods end on different dates, 3 months apart: Apple's fiscal Q2 2024 ended 2024-03-30 and Microsoft's fiscal Q2 2024 ended 2023-12-31; each company names its periods for its own fiscal year, so they are not the same months. For quarters ending together, ask for calendar Q1 2024.";
    expect((await talk('Apple revenue Q2 2024', 'and Microsoft?', 'as a table')).text).toContain(note);
    const average = await talk('Apple revenue Q2 2024', 'and Microsoft?', 'average of the two?');
    expect(average.text).toMatch(/^\*\*Average of the 2 revenues: \$76,387 million\*\*/);
    expect(average.text).toContain(note);
    // Quarters ending together (Apple's ends 2025-03-29, Microsoft's 2025-03-31) need no such note.
    expect((await talk("Apple's revenue last quarter?", "and Microsoft's?", 'as a table')).text).not.toContain('different dates');
    // Aligned as suggested: the quarters ending in calendar Q1 2024.
    const aligned = await talkOf('svc-agent', 'Apple and Microsoft revenue calendar Q1 2024');
    expect(aligned.text).toContain('| Microsoft Corp. (MSFT) | Revenue | fiscal Q3 2024 (quarter ended 2024-03-31) |');
    expect(aligned.text).toContain('| Apple Inc. (AAPL) | Revenue | fiscal Q2 2024 (quarter ended 2024-03-30) |');
  });
});

describe('svc-financials-agent: a trend asked over periods (demo snapshot)', () => {
  const { talk } = demoTalk();

  it('"the opex trend over the last 8 quarters" says the change above the table, not the table alone', async () => {
    const a = await talk("what's MSFT's opex trend over the last 8 quarters?");
    expect(a.text).toContain('**Operating expenses**, Q3 FY2025, the latest, **+2.4%** year over year; the four quarters to Q3 FY2025 together $64,379 million, **+8.0%** over the four before.');
    expect((await talk('apple revenue trend 2022-2024')).text).toContain('**Revenue**, FY2022 to FY2024: $394,328 million → $391,035 million, **-$3,293 million (-0.8%)**.');
  });
});

/** Fresh conversations of an analyst and a novice (probe round 3), on the shipped demo snapshot, offline. */
describe('svc-sec-agent: probe round 3 (demo snapshot)', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('"compared to its cash?" after its debt sets the two figures against each other, not the cash alone', async () => {
    const a = await talkOf('svc-agent', 'does microsoft have a lot of debt?', 'compared to its cash?');
    expect(a.text).toMatch(/^Microsoft's long-term debt at the end of fiscal Q3 2025 \(2025-03-31\), \$40,152 million \[1\], was \*\*\$11,324 million\*\* \(39\.3%\) more than its cash and cash equivalents, \$28,828 million \[1\]; 1\.39 times as much\./);
    expect(a.text).toContain('| Microsoft Corp. (MSFT) | Long-term debt |');
    consistent(a);
    const b = await talk('Apple R&D FY2024', 'vs its SG&A?');
    expect(b.text).toMatch(/^Apple's R&D expense for fiscal year 2024 \(year ended 2024-09-28\), \$31,370 million \[1\], was \*\*\$5,273 million\*\* \(20\.2%\) more than its SG&A expense, \$26,097 million \[1\]/);
    // Another company named is a comparison of companies, not of figures.
    expect((await talk('Apple R&D FY2024', 'compared to Microsoft?')).text).toContain('| Microsoft Corp. (MSFT) | R&D expense |');
  });

  it('"when did apple file its last one?" after "whats a 10-Q" is of its latest 10-Q, not its key figures', async () => {
    const a = await talkOf('svc-agent', 'whats a 10-Q', 'when did apple file its last one?');
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its latest 10-Q, filed 2025-05-02 \(34 days after the period ended\), covers fiscal Q2 2025 \(quarter ended 2025-03-29\)/);
    expect(a.text).not.toContain('Key figures');
    expect((await talk('whats a 10-K', 'when did microsoft file the latest one?')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its latest 10-K, filed 2024-07-30/);
  });

  it('companies compared over years are weighed against each other first ("who is improving faster?" is not a figure called "improving")', async () => {
    const margins = await talk('Compare AAPL and MSFT gross margins over the last 3 fiscal years');
    const weighed = '**Gross margin**, change over the periods shown, largest first: **Apple** +2.9 percentage points (43.3% → 46.2%, FY2022 to FY2024), **Microsoft** +1.4 percentage points (68.4% → 69.8%, FY2022 to FY2024) (each company over its own fiscal years).';
    expect(margins.text.split('\n')[0]).toBe(weighed);
    consistent(margins);
    const improving = await talkOf('svc-agent', 'Compare AAPL and MSFT gross margins over the last 3 fiscal years', "who's improving faster?");
    expect(improving.text).not.toContain('figure called');
    expect(improving.text.split('\n')[0]).toBe(weighed);
    const grew = await talk('Compare AAPL and MSFT gross margins over the last 3 fiscal years', 'who grew faster?');
    expect(grew.text.split('\n')[0]).toBe('**Revenue**, change over the periods shown, largest first: **Microsoft** +23.6% (FY2022 to FY2024), **Apple** −0.8% (FY2022 to FY2024) (each company over its own fiscal years).');
    // One company's table has nothing to weigh it against.
    expect((await talk('Apple gross margin over the last 3 fiscal years')).text).not.toContain('largest first');
  });

  it('"is 27% good?" or "is $40 billion a lot?" of the figure just given is a judgement left to the asker, not a figure called "billion"', async () => {
    const pct = await talkOf('svc-agent', 'how profitable is alphabet', 'is 27% good?');
    expect(pct.text).toMatch(/^Whether that is good is a judgement I leave to you: the filings give the figure, below\./);
    expect(pct.text).toContain('net margin for Q4 2024 (quarter ended 2024-12-31) was **27.5%**');
    const lot = await talk('microsoft debt', 'is $40 billion a lot?');
    expect(lot.text).not.toContain('figure called');
    expect(lot.text).toMatch(/^Whether that is good is a judgement I leave to you/);
    expect(lot.text).toContain('long-term debt at the end of fiscal Q3 2025 (2025-03-31) was **$40,152 million**');
  });

  it('"add them up" after a table of quarters is its total', async () => {
    const a = await talkOf('svc-agent', 'Microsoft revenue last 4 quarters', 'add them up');
    expect(a.text).toContain('| **Revenue** ($ million) | 64,727† | 65,585 | 69,632 | 70,066 | **270,010** |');
    expect((await talk('Microsoft revenue last 4 quarters', 'sum them')).text).toContain('**270,010**');
  });

  it('a share of revenue compared with another period says both in its first sentence', async () => {
    const a = await talk('what was nvidia\'s revenue?', 'ok what about apple', 'and its r&d as % of sales for fy23 vs fy24');
    expect(a.text.split('\n')[0]).toBe('**Apple Inc. (AAPL)**: R&D expense as a share of revenue for fiscal year 2024 (year ended 2024-09-28) was **8.0%**, against 7.8% for fiscal year 2023 (+0.2 percentage points): R&D expense of $31,370 million [1] over revenue of $391,035 million [1].');
    expect((await talkOf('svc-agent', 'microsoft gross margin yoy')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: gross margin for fiscal Q3 2025 \(quarter ended 2025-03-31\) was \*\*68\.7%\*\*, against 70\.1% for fiscal Q3 2024 \(-1\.4 percentage points\)/);
  });

  it('"and per share?" of a figure with no per-share form says so first, and the figure asked before is kept for the next follow-up', async () => {
    // (Revenue has one now, revenue per share: see gaps3.)
    const a = await talk('Apple capex FY2024', 'and per share?');
    expect(a.text).toMatch(/^I do not have a figure called "capital expenditure per share"/);
    expect(a.text).toContain('capital expenditure for fiscal year 2024 (year ended 2024-09-28) was **$9,447 million**');
    expect((await talk('Apple capex FY2024', 'and per share?', 'and the year before?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: capital expenditure for fiscal year 2023 /);
  });
});

