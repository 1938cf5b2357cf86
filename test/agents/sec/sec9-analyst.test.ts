import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

const { talk, talkOf, consistent } = demoTalk();

/** The citation names of the sources an answer's line cites, in the order its markers appear. */
const citedBy = (line: string, a: { citations: { order: number; name: string }[] }) =>
  [...new Set([...line.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].map((n) => a.citations.find((c) => c.order === n)!.name);

/** An analyst's questions on the shipped demo snapshot, offline: several periods, verdicts across companies, rankings in an order. */
describe('sec9: an analyst across periods and companies (demo snapshot)', () => {
  it('two periods asked together are both the answer, the earlier first, each cited', async () => {
    const a = await talk('What was Apple revenue in Q3 2024? And in Q4?');
    const lead = a.text.split('\n')[0]!;
    expect(lead).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*\$85,777 million\*\* \[1\], and for fiscal Q4 2024 \(quarter ended 2024-09-28\) \*\*\$94,930 million\*\* \[2\]\[1\] \(derived\)\./);
    expect(citedBy(lead, a)).toEqual(['Apple Inc. Form 10-Q, quarter ended 2024-06-29, page 3', 'Apple Inc. Form 10-K, fiscal year ended 2024-09-28, page 3']);
    consistent(a);
    // Balances at two dates too; a comparison asked ("vs") is still the later figure against the earlier.
    const cash = await talk('Microsoft cash at the end of FY2023 and FY2024');
    expect(cash.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: cash and cash equivalents at the end of fiscal year 2023 \(2023-06-30\) were \*\*\$34,704 million\*\* \[1\], and at the end of fiscal year 2024 \(2024-06-30\) \*\*\$18,315 million\*\* \[2\]\./);
    const versus = await talk('Apple revenue Q1 2024 vs Q3 2024');
    expect(versus.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*\$85,777 million\*\* \(about \$85\.8 billion\) \[1\]\./);
  });

  it('quarters listed with their year said once ("Q2, Q3 and Q4 2024") are each in the table', async () => {
    const a = await talk('What was Apple revenue in Q2, Q3 and Q4 2024?');
    expect(a.text).toMatch(/^### Apple Inc\. \(AAPL\), by fiscal quarter/);
    expect(a.text).toMatch(/\| \| Q2 FY2024 \[\d\] \| Q3 FY2024 \[\d\] \| Q4 FY2024 \[\d\]\[\d\] \|/);
    expect(a.text).toContain('| **Revenue** ($ million) | 90,753 | 85,777 | 94,930† |');
    consistent(a);
  });

  it('"did both grow?" of two companies is answered yes or no first, each company\'s change cited', async () => {
    const a = await talkOf('svc-agent', 'Did both Apple and Microsoft grow revenue last year?');
    const lead = a.text.split('\n')[0]!;
    expect(lead).toBe(
      '**Yes**: both grew revenue. Apple +$7,750 million (+2.0%), $383,285 million to $391,035 million (fiscal year 2024 against fiscal year 2023) [1][2]; Microsoft +$33,207 million (+15.7%), $211,915 million to $245,122 million (fiscal year 2024 against fiscal year 2023) [3][4].',
    );
    expect(citedBy(lead, a).filter((n) => n.startsWith('Microsoft'))).toHaveLength(2);
    consistent(a);
    // Asked for a bare yes or no: the verdict cites every company's figures, not the first source alone.
    const bare = await talkOf('svc-agent', 'Did both Apple and Microsoft grow revenue last year? Just yes or no.');
    expect(bare.text.trim()).toBe('Yes [1][2][3][4].');
    expect(bare.citations.map((c) => c.name.split(' Form')[0])).toEqual(['Apple Inc.', 'Apple Inc.', 'Microsoft Corp.', 'Microsoft Corp.']);
  });

  it('"is Apple\'s margin higher than Microsoft\'s?" leads with the verdict, both companies\' figures cited in it', async () => {
    const a = await talkOf('svc-agent', "Is Apple's gross margin higher than Microsoft's?");
    const lead = a.text.split('\n')[0]!;
    expect(lead).toMatch(/^- \*\*No\*\*: Microsoft's gross margin, 68\.7% \[1\], was 21\.7 percentage points higher than Apple's, 47\.1% \[2\]\.$/);
    expect(citedBy(lead, a)).toEqual(['Microsoft Corp. Form 10-Q, quarter ended 2025-03-31, page 3', 'Apple Inc. Form 10-Q, quarter ended 2025-03-29, page 3']);
    consistent(a);
    const bare = await talkOf('svc-agent', "Is Apple's gross margin higher than Microsoft's? yes or no");
    expect(bare.text.trim()).toBe('No [1][2].');
    expect(bare.citations.map((c) => c.name.split(' Form')[0]).sort()).toEqual(['Apple Inc.', 'Microsoft Corp.']);
  });

  it('a ranking asked in an order leads in that order, each value cited; "the top one" after it is still the highest', async () => {
    const a = await talkOf('svc-agent', 'Rank Apple and Microsoft by return on equity, lowest first');
    const lead = a.text.split('\n')[0]!;
    expect(lead).toBe('- Lowest return on equity first: Microsoft 37.1% [1][2][3], Apple 157.4% [4][5][6].');
    expect(citedBy(lead, a).map((n) => n.split(' Form')[0])).toEqual(['Microsoft Corp.', 'Microsoft Corp.', 'Microsoft Corp.', 'Apple Inc.', 'Apple Inc.', 'Apple Inc.']);
    consistent(a);
    const high = await talkOf('svc-agent', 'Rank Apple and Microsoft by return on equity, highest first');
    expect(high.text.split('\n')[0]).toBe('- Highest return on equity first: Apple 157.4% [1][2][3], Microsoft 37.1% [4][5][6].');
    const three = ['Rank all three by return on equity, lowest first'];
    expect((await talkOf('svc-agent', ...three)).text).toMatch(/^- Lowest return on equity first: Alphabet [\d.]+% \[1\]\[2\]\[3\], Microsoft 37\.1% \[4\]\[5\]\[6\], Apple 157\.4% \[7\]\[8\]\[9\]\./);
    expect((await talkOf('svc-agent', ...three, 'net income of the top one?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: net income/);
    expect((await talkOf('svc-agent', ...three, 'and the lowest one?')).text).toMatch(/^- \*\*Alphabet's return on equity\*\* for fiscal year 2024/);
    // A figure's ranking of two companies, in the order asked.
    const margin = await talkOf('svc-agent', 'Rank Apple and Microsoft by net margin, lowest first');
    expect(margin.text).toContain('- Net margin, lowest to highest: Apple 26.0%, Microsoft 36.9%.');
  });
});

describe('sec9: "as a table" after a thread that moved both company and period (demo snapshot)', () => {
  it('tabulates each figure given, a row each, cited, through svc-sec-agent and svc-agent', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await talkOf(model, 'Apple net income FY2024', 'and Microsoft?', 'what about the year before?', 'as a table');
      expect(a.text).toContain('| Apple | Net income | fiscal year 2024 (year ended 2024-09-28) | $93.7 billion [1] |\n| Microsoft | Net income | fiscal year 2024 (year ended 2024-06-30) | $88.1 billion [2] |\n| Microsoft | Net income | fiscal year 2023 (year ended 2023-06-30) | $72.4 billion [3] |');
      // (No note setting one company's period against another's: each row says its own.)
      expect(a.text).not.toContain('These periods end on different dates');
      consistent(a);
    }
  });
});

describe('sec9: a question about the answer\'s source between figures (demo snapshot)', () => {
  it.each([['which filing says that?'], ['show me where it says that']])('"%s", then "and Microsoft?": the same figure of Microsoft, not its key figures', async (between) => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await talkOf(model, 'Apple revenue FY2024', between, 'and Microsoft?');
      expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$245,122 million\*\*/);
      expect(a.text).not.toContain('Key figures');
      consistent(a);
    }
  });
});

describe('sec9: "which grew faster?" of two companies (demo snapshot)', () => {
  it('is answered before the table, not under it', async () => {
    const a = await talkOf('svc-agent', 'Microsoft revenue growth FY2024', 'and Apple?', 'which grew faster?');
    expect(a.text).toMatch(/^Revenue, side by side \(each company in its own fiscal terms\):\n\n- Microsoft's revenue growth for fiscal year 2024 \(year ended 2024-06-30\), \+15\.7%, was 13\.6 percentage points higher than Apple's/);
    consistent(a);
  });
});

describe('sec9: two periods asked together, then followed up (demo snapshot)', () => {
  it('"and Microsoft?", "and net income?" keep both periods; "as a table" is a row for each', async () => {
    const turns = ['What was Apple revenue in Q3 2024? And in Q4?'];
    const msft = await talkOf('svc-agent', ...turns, 'and Microsoft?');
    expect(msft.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q3 2024 \(quarter ended 2024-03-31\) was \*\*\$61,858 million\*\* \[1\], and for fiscal Q4 2024 \(quarter ended 2024-06-30\) \*\*\$64,727 million\*\* \[2\]\[1\] \(derived\)\./);
    consistent(msft);
    const income = await talkOf('svc-agent', ...turns, 'and Microsoft?', 'and net income?');
    expect(income.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: net income for fiscal Q3 2024 \(quarter ended 2024-03-31\) was \*\*\$21,939 million\*\* \[1\], and for fiscal Q4 2024/);
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const table = await talkOf(model, ...turns, 'as a table');
      expect(table.text).toContain('| Apple | Revenue | fiscal Q3 2024 (quarter ended 2024-06-29) | $85.8 billion [1] | — |\n| Apple | Revenue | fiscal Q4 2024 (quarter ended 2024-09-28) | $94.9 billion [2][1] (derived) | +10.7% quarter over quarter |');
      consistent(table);
    }
  });
});

describe('sec9: a rate held against companies, and how far apart they are (demo snapshot)', () => {
  it('"did either grow revenue faster than 10%?" is held against 10%, not against each other', async () => {
    const a = await talkOf('svc-agent', 'Apple and Microsoft revenue latest quarter vs a year ago', 'did either of them grow revenue faster than 10%?');
    expect(a.text.split('\n')[0]).toBe(
      '**Yes**: Microsoft grew revenue more than 10%. Apple +$4,606 million (+5.1%), $90,753 million to $95,359 million (fiscal Q2 2025 against fiscal Q2 2024) [1][2]; Microsoft +$8,208 million (+13.3%), $61,858 million to $70,066 million (fiscal Q3 2025 against fiscal Q3 2024) [3][4].',
    );
    expect(a.text).not.toContain('**No**');
    consistent(a);
    const both = await talkOf('svc-agent', 'Did Apple and Microsoft grow revenue more than 10% in their latest quarter vs a year ago?');
    expect(both.text).toMatch(/^\*\*No\*\*: only Microsoft grew revenue more than 10%\./);
  });

  it('"difference in points?" after two companies\' margins says it before their table', async () => {
    const a = await talkOf('svc-agent', 'Apple gross margin FY2024', 'and Microsoft?', 'difference in points?');
    expect(a.text).toMatch(/^Gross margin \(gross profit over revenue\), side by side \(each company in its own fiscal terms\):\n\n- Microsoft's gross margin for fiscal year 2024 \(year ended 2024-06-30\), 69\.8%, was 23\.6 percentage points higher than Apple's/);
    consistent(a);
  });
});
