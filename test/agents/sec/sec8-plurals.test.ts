import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSec, type FakeSec } from '../../helpers/fake-sec.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';
import { SEC_ENV, TEST_WORLD } from './world.js';
import { metricById, wasOf } from '../../../src/data/sec/metrics.js';

let fake: FakeSec;
let svc: TestService;
let apiKey: string;
beforeAll(async () => {
  fake = await startFakeSec(TEST_WORLD);
  svc = await startService({ env: SEC_ENV(fake.url) });
  ({ apiKey } = await svc.account());
});
afterAll(async () => {
  await svc?.close();
  await fake?.close();
});

async function ask(...turns: string[]): Promise<string> {
  const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-sec-agent', messages: turns.map((content) => ({ role: 'user', content })) });
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.choices[0].message.content as string;
}

/** A figure whose name is a plural noun takes "were" (loopback EDGAR). */
describe('plural figure names agree with their verb', () => {
  it('the plural labels', () => {
    for (const id of ['shareRepurchases', 'dividendsPaid', 'dividendsPerShare', 'dilutedShares', 'totalAssets', 'operatingExpenses'] as const) expect(wasOf(metricById(id)), id).toBe('were');
    for (const id of ['revenue', 'netIncome', 'capitalExpenditure', 'depreciationAmortization', 'freeCashFlow'] as const) expect(wasOf(metricById(id)), id).toBe('was');
  });

  it('"AMND buybacks Q2 2024": share repurchases were; dividends per share were; revenue still was', async () => {
    expect(await ask('AMND buybacks Q2 2024')).toMatch(/share repurchases for Q2 2024 \(quarter ended 2024-06-30\) were \*\*\$7 million\*\*/);
    expect(await ask('AMND dividends per share 2024')).toMatch(/dividends declared per share for fiscal year 2024 \(year ended 2024-12-31\) were \*\*\$1\.04 per share\*\*/);
    expect(await ask('AMND revenue Q1 2024')).toMatch(/revenue for Q1 2024 \(quarter ended 2024-03-31\) was \*\*/);
  });
});
