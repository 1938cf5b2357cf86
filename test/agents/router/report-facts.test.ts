import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/reports/store.js';
import type { ReportRead } from '../../../src/agents/router/event-questions.js';
import { changedText } from '../../../src/agents/router/report-facts.js';

// "What changed since the report?": with quotes newer than the report, each contract's bid and ask
// then and now; with none (a snapshot, or nothing newer), that nothing can be compared.

const snapshot = (bid: string, ask: string) => `## Contract snapshot

| Contract | Bid | Ask | Spread | Size at bid / ask | Last | Volume | 24h volume | Open interest |
|---|---|---|---|---|---|---|---|---|
| KXTEST-26DEC-A [2] | ${bid} | ${ask} | $0.02 | 10 / 10 | $0.41 | 100 | 10 | 50 |
`;

const report: Report = {
  id: 'r1',
  eventTicker: 'KXTEST-26DEC',
  version: 1,
  seriesTicker: 'KXTEST',
  title: 'Test event?',
  text: `# Test event?\n\n## Key claims and catalysts\n\n- **Price move, A:** +2.0 pts over 24 hours, +3.0 pts over 7 days [2].\n\n${snapshot('$0.40', '$0.42')}`,
  citations: [
    { order: 1, name: 'Kalshi: Test event? (event page)', url: 'https://kalshi.com/markets/kxtest/test/kxtest-26dec' },
    { order: 2, name: 'Kalshi market data: KXTEST-26DEC-A', url: 'https://api.example/markets/KXTEST-26DEC-A' },
  ],
  outputTokens: 0,
  asOf: '2026-11-19T15:00:00.000Z',
  source: 'live',
  generatedAt: 0,
  textRef: 'report:r1',
};

const live = (asOf: string, bid: string, ask: string): ReportRead => ({ title: 'Test event?', text: snapshot(bid, ask), citations: report.citations, asOf, unreported: 'no report' });

describe('what changed since a report', () => {
  it('newer live quotes: each contract then and now', () => {
    const { text, citations } = changedText(report, live('2026-11-20T15:00:00.000Z', '$0.45', '$0.47'));
    expect(text).toMatch(/^Since the report on \*\*Test event\?\*\* \(KXTEST-26DEC\) \(as of 2026-11-19 15:00 UTC\), against Kalshi's quotes as of 2026-11-20 15:00 UTC:/);
    expect(text).toContain('- **KXTEST-26DEC-A** [1]: bid/ask $0.40/$0.42 in the report, $0.45/$0.47 now.');
    expect(citations.map((c) => c.url)).toEqual(['https://api.example/markets/KXTEST-26DEC-A']);
  });

  it('the same quotes, newer: unchanged, said so', () => {
    expect(changedText(report, live('2026-11-20T15:00:00.000Z', '$0.40', '$0.42')).text).toContain('$0.40/$0.42 now (unchanged)');
  });

  it('nothing newer than a snapshot: no comparison, and the moves it lists are before it', () => {
    const { text } = changedText({ ...report, source: 'snapshot' }, live('2026-11-19T15:00:00.000Z', '$0.45', '$0.47'));
    expect(text).toMatch(/^Nothing newer than the report can be compared: .*which is from a recorded snapshot \(offline data\)/);
    expect(text).toContain('not since:\n\n- **Price move, A:** +2.0 pts over 24 hours');
    expect(text).not.toContain('$0.45');
  });
});
