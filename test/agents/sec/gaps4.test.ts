import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

/** Follow-ups a probe found answered badly, on the shipped demo snapshot, offline: through both agents, both APIs. */
const DEMO = path.join(PACKAGE_ROOT, 'snapshots', 'sec');
let svc: TestService;
let apiKey: string;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: DEMO, SVC_SEC_API_URL: 'http://127.0.0.1:9', SVC_SEC_WWW_URL: 'http://127.0.0.1:9' } });
  ({ apiKey } = await svc.account({ plan: 'pro', credits: 1000 }));
  client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
});
afterAll(() => svc?.close());

interface Said {
  text: string;
  citations: { order: number; name: string; url: string }[];
}

/** A Chat Completions conversation, each answer kept in it; the last answer. */
async function chat(model: string, ...turns: string[]): Promise<Said> {
  const messages: { role: string; content: string }[] = [];
  let last: Said = { text: '', citations: [] };
  for (const content of turns) {
    messages.push({ role: 'user', content });
    const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model, messages });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    last = { text: body.choices[0].message.content, citations: body.choices[0].citations ?? [] };
    messages.push({ role: 'assistant', content: last.text });
  }
  return last;
}

/** A Responses thread through previous_response_id; the last answer, its citations from the output's annotations. */
async function thread(model: string, ...turns: string[]): Promise<Said> {
  let previous: string | undefined;
  let last: Said = { text: '', citations: [] };
  for (const input of turns) {
    const r = await client.responses.create({ model, input, ...(previous ? { previous_response_id: previous } : {}) });
    previous = r.id;
    const annotations = (r.output as any[]).flatMap((o) => (o.content ?? []).flatMap((c: any) => c.annotations ?? []));
    last = { text: r.output_text, citations: annotations.map((a: any, i: number) => ({ order: i + 1, name: a.title, url: a.url })) };
  }
  return last;
}

/** Every [n] in the text has a citation n, and every citation is used. */
function consistent(a: Said): void {
  const markers = [...new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((x, y) => x - y);
  expect(markers).toEqual(a.citations.map((c) => c.order).sort((x, y) => x - y));
}

describe('the fiscal year asked through svc-agent', () => {
  it.each(['svc-agent', 'svc-sec-agent'])('"what is Apple\'s fiscal year?" through %s: when it ends, the day it moves by, each year\'s end, cited', async (model) => {
    for (const a of [await chat(model, "what is Apple's fiscal year?"), await thread(model, "what is Apple's fiscal year?")]) {
      expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its fiscal year ends in late September, so it is not the calendar year/);
      expect(a.text).toMatch(/Its latest fiscal year in the filings, fiscal year 2024, ran from 2023-10-01 to 2024-09-28 \[1\]\./);
      // 2024-09-28, 2023-09-30 and 2022-09-24 are each the last Saturday of September.
      expect(a.text).toContain('It keeps a 52/53-week year ending on the last Saturday of September, so the day moves: fiscal year 2024 on 2024-09-28 [1], fiscal year 2023 on 2023-09-30 [3], fiscal year 2022 on 2022-09-24 [3] (fiscal year 2023 had 53 weeks).');
      expect(a.citations.map((c) => c.name)).toEqual(['Apple Inc. Form 10-K, fiscal year ended 2024-09-28, page 3', 'Apple Inc. Form 10-Q, quarter ended 2025-03-29, page 3', 'Apple Inc. Form 10-K, fiscal year ended 2023-09-30, page 3']);
      consistent(a);
    }
  });

  it('"and Microsoft\'s?", then "what about googl", keep asking the fiscal calendar, not key figures; a figure asked after it is the figure', async () => {
    const turns = ["what is Apple's fiscal year?", "and Microsoft's?"];
    for (const a of [await chat('svc-agent', ...turns), await thread('svc-agent', ...turns)]) {
      expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its fiscal year ends on June 30, so it is not the calendar year/);
      expect(a.text).not.toContain('Key figures');
      expect(a.text).not.toContain('52/53-week');
    }
    const googl = await chat('svc-agent', ...turns, 'what about googl');
    expect(googl.text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: its fiscal year is the calendar year: it ends on December 31/);
    const revenue = await chat('svc-agent', ...turns, 'and its revenue?');
    expect(revenue.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q3 2025/);
  });
});
