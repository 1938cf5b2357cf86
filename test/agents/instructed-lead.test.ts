import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formInstructed, summaryFirstInstructed } from '../../src/agents/instructions.js';
import { startDemoThreads, type DemoThreads } from '../helpers/report-threads.js';

// "Start with a one-sentence summary" asks a summary line first and the whole answer after it,
// not an answer cut to one sentence.

describe('a summary asked first is not the form "one sentence"', () => {
  it.each([
    'Start with a one-sentence summary.',
    'Begin with a summary, then the details.',
    'Lead with the bottom line.',
    'Bottom line up front.',
    'Always start each answer with a one-line summary',
    'TL;DR first, then the details.',
  ])('%s', (instructions) => {
    expect(formInstructed(instructions)).toBeNull();
    expect(summaryFirstInstructed(instructions)).toBe(true);
  });

  it('a form asked beside it is still read; one sentence asked alone is still one sentence', () => {
    expect(formInstructed('Start with a short summary. Use bullet points.')).toEqual({ form: 'bullets', one: false });
    expect(formInstructed('Answer in one sentence.')).toEqual({ form: 'sentence', one: false });
    expect(summaryFirstInstructed('Answer in one sentence.')).toBe(false);
    expect(summaryFirstInstructed("Don't start with a summary.")).toBe(false);
  });
});

describe('on the demo service: the summary line, then the whole answer', () => {
  let demo: DemoThreads;
  const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
  beforeAll(async () => {
    demo = await startDemoThreads();
  });
  afterAll(() => demo.svc.close());

  const ask = async (model: string, input: string, instructions?: string) => (await demo.client.responses.create({ model, input, instructions })).output_text;

  it('svc-agent, a company figure: "In short: …" with its citation, then the answer as it is without instructions', async () => {
    const plain = await ask('svc-agent', 'What was Apple revenue in Q3 2024?');
    const led = await ask('svc-agent', 'What was Apple revenue in Q3 2024?', 'Start with a one-sentence summary.');
    expect(led).toBe(`In short: Apple Inc.'s revenue for fiscal Q3 2024 was about $85.8 billion [1].\n\n${plain}`);
  });

  it('svc-sec-agent, a table of quarters: the summary, then the whole table (not cut to one sentence)', async () => {
    const plain = await ask('svc-sec-agent', 'Apple revenue and net income for the last 4 quarters');
    const led = await ask('svc-sec-agent', 'Apple revenue and net income for the last 4 quarters', 'Begin with a summary.');
    // (One short sentence: the first two figures from the first quarter to the latest, not each one's range.)
    expect(led.startsWith("In short: Apple Inc.'s revenue went from $85.8 billion in Q3 FY2024 to $95.4 billion in Q2 FY2025, and its net income from $21.4 billion to $24.8 billion [1][4].\n\n")).toBe(true);
    expect(led.endsWith(plain)).toBe(true);
  });

  it('a stored report: its own one-sentence summary, its sources numbered as the report numbers them, then the report whole', async () => {
    const report = await demo.reportOf(FED);
    const led = await ask('svc-prediction-markets-agent:cache', FED, 'Lead with the bottom line.');
    const [first, ...rest] = led.split('\n\n');
    expect(first).toMatch(/^In short: On Kalshi's “Fed decision in December 2026\?” market, traders see “Hike 25bps” as the likeliest result, at about 47%, ahead of “Cut more than 25bps” at 30% \[3\]\[4\]/);
    expect(rest.join('\n\n')).toBe(report);
  });
});
