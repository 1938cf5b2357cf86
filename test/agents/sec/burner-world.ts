import { afterAll, beforeAll, expect } from 'vitest';
import { DEMO_WORLD } from '../../fixtures/sec-world.js';
import { startFakeSec, type FakeSec } from '../../helpers/fake-sec.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';
import { BURNER } from './burner.js';
import { SEC_ENV } from './world.js';

export interface Answered {
  text: string;
  citations: { order: number; name: string; url: string }[];
}

/**
 * The service on a loopback EDGAR holding the demo companies and the cash-burning filer, for the
 * file that calls it (started before its tests, closed after); returns the asking function.
 */
export function burnerWorld(): (model: string, ...turns: string[]) => Promise<Answered> {
  let fake: FakeSec;
  let svc: TestService;
  let apiKey: string;
  beforeAll(async () => {
    fake = await startFakeSec({ companies: [...DEMO_WORLD.companies, BURNER], otherTickers: [] });
    svc = await startService({ env: SEC_ENV(fake.url) });
    ({ apiKey } = await svc.account({ plan: 'pro', credits: 1000 }));
  });
  afterAll(async () => {
    await svc?.close();
    await fake?.close();
  });
  return async (model, ...turns) => {
    const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model, messages: turns.map((content) => ({ role: 'user', content })) });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return { text: body.choices[0].message.content as string, citations: body.choices[0].citations };
  };
}

/** Every [n] in the text has a citation n, and every citation is used. */
export function expectConsistentCitations(a: { text: string; citations: { order: number }[] }): void {
  const markers = [...new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((x, y) => x - y);
  expect(markers).toEqual(a.citations.map((c) => c.order).sort((x, y) => x - y));
}

/** The citation a marker right after `words` in the text points to. */
export function citedAfter(a: { text: string; citations: { order: number; name: string }[] }, words: string): string {
  const at = a.text.indexOf(words);
  expect(at, words).toBeGreaterThanOrEqual(0);
  const n = Number(/\[(\d+)\]/.exec(a.text.slice(at))![1]);
  return a.citations.find((c) => c.order === n)!.name;
}
