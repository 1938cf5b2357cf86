import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { FakeHttpServer } from '../../helpers/fake-http.js';
import { startService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

describe('live mode without SVC_SEC_USER_AGENT', () => {
  it('warns at start-up and answers SEC questions with a clear 503 naming the setting, sending nothing to the SEC', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const sec = await new FakeHttpServer(() => ({ json: {} })).start();
    const svc = await startService({
      env: { SVC_SEC_USER_AGENT: '', SVC_SEC_SNAPSHOT_DIR: '', SVC_SEC_API_URL: sec.url, SVC_SEC_WWW_URL: sec.url },
      log: createLogger('warn', sink),
    });
    try {
      expect(lines.join('')).toMatch(/SVC_SEC_USER_AGENT is not set/);
      const { apiKey } = await svc.account();
      for (const stream of [false, true]) {
        const res = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-sec-agent', input: "What was Apple's revenue in Q3 2024?", stream });
        expect(res.status).toBe(503);
        const error = ((await res.json()) as any).error;
        expect(error.code).toBe('source_not_configured');
        expect(error.message).toMatch(/set SVC_SEC_USER_AGENT \(e\.g\. "Acme Research ops@acme\.example"\), or SVC_SEC_SNAPSHOT_DIR/);
      }
      expect(sec.requests).toHaveLength(0);
    } finally {
      await svc.close();
      await sec.close();
    }
  });
});
