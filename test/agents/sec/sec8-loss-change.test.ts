import { describe, expect, it } from 'vitest';
import { formatChange, GROWTH_FROM_NEGATIVE } from '../../../src/agents/sec/format.js';
import { metricById } from '../../../src/data/sec/metrics.js';
import { burnerWorld, expectConsistentCitations } from './burner-world.js';

const ask = burnerWorld();

/** The change of a loss said with its percentage as the tables give it: over the earlier figure's size (loopback EDGAR). */
describe('a change from a figure below zero has its percentage, as in the tables', () => {
  it('formatChange: a widening loss is negative growth over the loss\'s size, a narrowing one positive; none from zero', () => {
    const net = metricById('netIncome');
    expect(formatChange(-48e6, -45e6, 'USD', net, 6)).toBe('-$3 million (-6.7%)');
    expect(formatChange(-44e6, -46e6, 'USD', net, 6)).toBe('+$2 million (+4.3%)');
    expect(formatChange(5e6, -10e6, 'USD', net, 6)).toBe('+$15 million (+150.0%)');
    expect(formatChange(5e6, 0, 'USD', net, 6)).toBe('+$5 million');
  });

  it('"EMBR net income Q3 2024 vs a year ago": the change with −6.7% as the table row has it, and the note the tables give', async () => {
    const a = await ask('svc-sec-agent', 'EMBR net income Q3 2024 vs a year ago');
    // -48 against -45: the table's year-over-year row for Q3 2024 reads −6.7%.
    expect(a.text).toContain('change -$3 million (-6.7%)');
    expect(a.text).toContain(GROWTH_FROM_NEGATIVE);
    expectConsistentCitations(a);
    const table = await ask('svc-sec-agent', 'EMBR net income by quarter');
    expect(table.text.split('\n').find((l) => l.startsWith('| ↳ year over year |'))).toContain('| −6.7% |');
  });

  it('a variant: a narrowing comparison quarter over quarter is positive, with the note', async () => {
    // Q1 2024 -44 against Q4 2023 -46 (derived): +$2 million, +4.3%, as the table's quarter-over-quarter row.
    const a = await ask('svc-sec-agent', 'EMBR net income Q1 2024 quarter over quarter');
    expect(a.text).toContain('change +$2 million (+4.3%)');
    expect(a.text).toContain(GROWTH_FROM_NEGATIVE);
    expectConsistentCitations(a);
  });

  it('the table\'s first-to-last change of a loss has its percentage too, no longer "no percentage"', async () => {
    // FY2023 -173, FY2024 -188: -$15 million, -8.7%, as the year-over-year row.
    const a = await ask('svc-sec-agent', 'EMBR net income trend 2023-2024');
    expect(a.text).toContain('-$173 million → -$188 million, **-$15 million (-8.7%)**');
    expect(a.text).not.toContain('no percentage');
    expect(a.text).toContain(GROWTH_FROM_NEGATIVE);
    expectConsistentCitations(a);
  });
});
