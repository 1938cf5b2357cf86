import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

const DEMO = path.join(PACKAGE_ROOT, 'snapshots', 'sec');

export interface Said {
  text: string;
  citations: { order: number; name: string; url: string }[];
}

/**
 * A service on the shipped SEC demo snapshot, offline (SEC's addresses unreachable, so the snapshot
 * must answer everything), for the describe block that calls it: `chat` posts a chat completion.
 */
export function demoSecService() {
  let svc: TestService;
  let apiKey: string;
  beforeAll(async () => {
    svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: DEMO, SVC_SEC_API_URL: 'http://127.0.0.1:9', SVC_SEC_WWW_URL: 'http://127.0.0.1:9' } });
    ({ apiKey } = await svc.account());
  });
  afterAll(() => svc.close());
  return { chat: (body: object) => post(`${svc.baseURL}/chat/completions`, apiKey, body) };
}

/** The demo SEC service (see demoSecService): conversations kept turn by turn, and a check of their citations. */
export function demoTalk() {
  const { chat } = demoSecService();

  /** A chat conversation with each answer kept in it; returns the last answer and its citations. */
  const talkOf = async (model: string, ...turns: string[]): Promise<Said> => {
    const messages: { role: string; content: string }[] = [];
    let last: Said = { text: '', citations: [] };
    for (const content of turns) {
      messages.push({ role: 'user', content });
      const res = await chat({ model, messages });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { choices: { message: { content: string }; citations?: Said['citations'] }[] };
      last = { text: body.choices[0]!.message.content, citations: body.choices[0]!.citations ?? [] };
      messages.push({ role: 'assistant', content: last.text });
    }
    return last;
  };
  const talk = (...turns: string[]) => talkOf('svc-sec-agent', ...turns);
  /** Every [n] in the text has a citation n, and every citation is used. */
  const consistent = (a: { text: string; citations: { order: number }[] }) => {
    const markers = [...new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((x, y) => x - y);
    expect(markers).toEqual(a.citations.map((c) => c.order).sort((x, y) => x - y));
  };
  return { talk, talkOf, consistent };
}
