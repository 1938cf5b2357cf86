import { describe, expect, it } from 'vitest';
import { chartsOf, withCharts } from '../../../src/agents/financials/chart.js';
import type { AgentEvent } from '../../../src/agents/types.js';

const table = [
  '### Example Co. (EX), by fiscal quarter',
  '',
  '| | Q1 FY2025 [1] | Q2 FY2025 [2] | Q3 FY2025 [3] |',
  '|---|---:|---:|---:|',
  '| **Revenue** ($ million) | 100 | 50 | 75† |',
  '| ↳ year over year | +10.0% | −5.0% | +1.0% |',
  '| **Free cash flow** ($ million) | −20 | — | 40 |',
  '',
  'Data: example.',
].join('\n');

describe('bar charts of a table', () => {
  it('draws each bold row scaled to its largest value, the growth rows left out; below zero and missing figures said', () => {
    const charts = chartsOf(table)!;
    expect(charts.startsWith('```\n') && charts.endsWith('\n```')).toBe(true);
    const lines = charts.split('\n');
    expect(lines[1]).toBe('Revenue ($ million)');
    expect(lines[2]).toBe(`Q1 FY2025  ${'█'.repeat(30)}  100`);
    expect(lines[3]).toBe(`Q2 FY2025  ${'█'.repeat(15).padEnd(30)}  50`);
    expect(lines[4]).toBe(`Q3 FY2025  ${'█'.repeat(23).padEnd(30)}  75†`);
    expect(charts).not.toContain('year over year');
    expect(charts).toContain('Free cash flow ($ million) (▒ below zero)');
    expect(charts).toContain(`Q1 FY2025  ${'▒'.repeat(15).padEnd(30)}  −20`);
    expect(charts).toContain('Q2 FY2025  (no figure)');
    expect(chartsOf('No table here.')).toBeNull();
  });

  it('puts the charts before the answer, every other event passed on', async () => {
    async function* answer(): AsyncGenerator<AgentEvent> {
      yield { type: 'progress', message: 'reading' };
      yield { type: 'text', delta: table.slice(0, 40) };
      yield { type: 'text', delta: table.slice(40) };
      yield { type: 'citation', citation: { order: 1, name: 'a', url: 'https://example.com/a' } };
      yield { type: 'done' };
    }
    const out: AgentEvent[] = [];
    for await (const e of withCharts(answer())) out.push(e);
    expect(out.map((e) => e.type)).toEqual(['progress', 'text', 'citation', 'done']);
    const text = (out[1] as { delta: string }).delta;
    expect(text.startsWith('```\nRevenue ($ million)')).toBe(true);
    expect(text.endsWith(table)).toBe(true);
  });
});
