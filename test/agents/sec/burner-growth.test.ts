import { describe, expect, it } from 'vitest';
import { burnerWorld, expectConsistentCitations } from './burner-world.js';

const ask = burnerWorld();

/** The growth rows of a table whose figures are below zero (a loss, a cash burn): computed wherever both periods have figures. */
describe('growth rows of a cash-burning company (loopback EDGAR)', () => {
  const row = (text: string, name: string) => text.split('\n').find((l) => l.startsWith(`| ${name} |`));

  it('net income by quarter: a widening loss is negative growth, each quarter a year and a quarter before; "—" only where the earlier period is missing', async () => {
    const a = await ask('svc-sec-agent', 'EMBR net income by quarter');
    // Net income 2023: -40, -42, -45, -46 (derived); 2024: -44, -46, -48, -50 (derived).
    expect(row(a.text, '**Net income** ($ million)')).toBe('| **Net income** ($ million) | -40 | -42 | -45 | -46† | -44 | -46 | -48 | -50† |');
    // -44 vs -40: -10.0%; -46 vs -42: -9.5%; -48 vs -45: -6.7%; -50 vs -46: -8.7%.
    expect(row(a.text, '↳ year over year')).toBe('| ↳ year over year | — | — | — | — | −10.0% | −9.5% | −6.7% | −8.7% |');
    // -42 vs -40: -5.0%; -45 vs -42: -7.1%; -46 vs -45: -2.2%; -44 vs -46: +4.3%; -46 vs -44: -4.5%; …
    expect(row(a.text, '↳ quarter over quarter')).toBe('| ↳ quarter over quarter | — | −5.0% | −7.1% | −2.2% | +4.3% | −4.5% | −4.3% | −4.2% |');
    expect(a.text).toContain("Growth from a figure below zero is the change over that figure's size: a loss or cash burn that widens is negative growth, one that narrows positive.");
    expectConsistentCitations(a);
  });

  it('free cash flow by quarter, through svc-financials-agent too, and the latest growth said above the table', async () => {
    const a = await ask('svc-financials-agent', 'EMBR free cash flow for the last 4 quarters');
    // FCF 2023: -37, -39, -40, -42; 2024: -43, -44, -47, -48.
    expect(row(a.text, '↳ year over year')).toBe('| ↳ year over year | −16.2% | −12.8% | −17.5% | −14.3% |');
    expect(row(a.text, '↳ quarter over quarter')).toBe('| ↳ quarter over quarter | −2.4% | −2.3% | −6.8% | −2.1% |');
    expectConsistentCitations(a);
    const trend = await ask('svc-sec-agent', 'EMBR net loss last 4 quarters trend');
    expect(trend.text).toContain('**Net income**, Q4 2024, the latest, **−8.7%** year over year; the four quarters to Q4 2024 together -$188 million, **−8.7%** over the four before.');
    expect(trend.text).not.toContain('no figure a year earlier');
  });

  it('by year: the second year grows from the first; the first has no year before it in the filings', async () => {
    const a = await ask('svc-sec-agent', 'EMBR net income each year');
    expect(row(a.text, '↳ year over year')).toBe('| ↳ year over year | — | −8.7% |');
  });

  it('a positive figure keeps its plain growth and no note on figures below zero', async () => {
    const a = await ask('svc-sec-agent', 'EMBR revenue by quarter');
    expect(row(a.text, '↳ year over year')).toBe('| ↳ year over year | — | — | — | — | +80.0% | +66.7% | +57.1% | +50.0% |');
    expect(a.text).not.toContain('below zero');
  });
});
