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
