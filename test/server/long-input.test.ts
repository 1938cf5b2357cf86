import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../helpers/report-threads.js';

// A long turn (a paste of hundreds of kilobytes, within the body limit) is read by svc-agent as the
// SEC agent reads it, by its start and end: the question before or after the paste is answered as
// if asked alone, and the router's patterns do not run along the whole paste (some were quadratic
// in its length: 240 KB of "50% " held the server for 30 s; 250 KB of "EV " some 40 s, past the
// test's timeout, where it now takes under a second).

let demo: DemoThreads;
beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const ask = async (input: string) => (await demo.client.responses.create({ model: 'svc-agent', input })).output_text;

describe('svc-agent: a long paste', () => {
  it('a question after or before a paste gets the figure asked alone', async () => {
    const question = 'What was Apple revenue in Q3 2024?';
    const alone = await ask(question);
    const paste = 'the quick brown fox jumps over the lazy dog. '.repeat(4000);
    // (Its figure, the first line; what the paste's own words add under it, "over" read as a comparison, may differ.)
    const figure = alone.split('\n')[0];
    expect((await ask(`${paste}\n\n${question}`)).split('\n')[0]).toBe(figure);
    expect((await ask(`${question}\n\n${paste}`)).split('\n')[0]).toBe(figure);
  });

  it.each(['50% ', 'EV ', 'odds of ', 'spread '])('250 KB of %j is answered (not held for half a minute)', async (unit) => {
    const r = await demo.client.responses.create({ model: 'svc-agent', input: unit.repeat(Math.floor(250_000 / unit.length)) });
    expect(r.status).toBe('completed');
    expect(r.output_text.length).toBeGreaterThan(0);
    // (What is quoted back of it is its clipped reading, not the whole paste.)
    expect(r.output_text.length).toBeLessThan(20_000);
  });
});

describe('svc-agent: a Kalshi address in the middle of a long paste', () => {
  it('is read with the question at its end, though the middle of the paste is not', async () => {
    const filler = 'Notes from the desk meeting about rates and inflation expectations. '.repeat(60);
    const address = 'https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec';
    const text = await ask(`${filler}\n${address}\n${filler}\nwhat are the odds here?`);
    expect(text).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC)');
    expect(text).toMatch(/Hike 25bps \d+\.\d%/);
  });
});
