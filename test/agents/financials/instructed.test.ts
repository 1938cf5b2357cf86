import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';

// svc-financials-agent follows a form asked in instructions as svc-sec-agent does: one period's
// figures in that form; a table of several periods kept as it is (as the SEC agent keeps it).

let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'sec') } });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
});
afterAll(() => svc.close());

const ask = async (model: string, instructions: string, input: string) => (await client.responses.create({ model, instructions, input })).output_text;

describe('svc-financials-agent: a form asked in instructions', () => {
  it('"Reply with just the number." for one period: the number, with its period and citation, as svc-sec-agent says it', async () => {
    const text = await ask('svc-financials-agent', 'Reply with just the number.', 'Apple revenue Q3 2024');
    expect(text.split('\n')[0]).toBe("**$85.8 billion** (Apple's revenue, fiscal Q3 2024, ended 2024-06-29) [1]");
    expect(text).toBe(await ask('svc-sec-agent', 'Reply with just the number.', 'Apple revenue Q3 2024'));
  });

  it('"Answer in one sentence." and bullet points for one period', async () => {
    expect((await ask('svc-financials-agent', 'Answer in one sentence.', 'Apple revenue Q3 2024')).split('\n')[0]).toBe("In fiscal Q3 2024 (quarter ended 2024-06-29), Apple's revenue was $85.8 billion [1].");
    expect((await ask('svc-financials-agent', 'Use bullet points.', 'Apple revenue Q3 2024')).split('\n')[0]).toBe('- Apple, fiscal Q3 2024: revenue $85.8 billion [1]');
  });

  it('a table of several periods in one sentence is its summary sentence, as svc-sec-agent gives it (instructed-lists6.test.ts); a language asked still gets its line', async () => {
    const table = await ask('svc-financials-agent', 'Answer in one sentence.', 'Apple revenue and net income for the last 4 quarters');
    expect(table.split('\n')[0]).toBe("Apple Inc.'s revenue went from $85.8 billion in Q3 FY2024 to $95.4 billion in Q2 FY2025, and its net income from $21.4 billion to $24.8 billion [1][2].");
    expect(table).not.toContain('|');
    const french = await ask('svc-financials-agent', 'Réponds en français. Reply with just the number.', 'Apple revenue Q3 2024');
    expect(french.split('\n\n').slice(0, 2)).toEqual(['(This service answers in English; French was asked.)', "**$85.8 billion** (Apple's revenue, fiscal Q3 2024, ended 2024-06-29) [1]"]);
  });
});
