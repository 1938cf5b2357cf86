import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createService, type Service, type ServiceOptions } from '../../src/app.js';
import type { Plan } from '../../src/agents/types.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from 'pino';

export interface TestService {
  url: string;
  /** Base URL for SDKs: `${url}/v1`. */
  baseURL: string;
  service: Service;
  adminKey: string;
  dataDir: string;
  /** Creates an account through the admin API and returns its first API key. */
  account(opts?: { plan?: Plan; credits?: number; email?: string }): Promise<{ id: string; apiKey: string }>;
  close(): Promise<void>;
}

let counter = 0;

/** Settings every test service starts with: a free port, quiet logs, and rate limits out of the way. */
export const TEST_ENV: Record<string, string> = {
  SVC_PORT: '0',
  SVC_LOG_LEVEL: 'silent',
  SVC_RATE_LIMIT_FREE: '1000000',
  SVC_RATE_LIMIT_PLUS: '1000000',
  SVC_RATE_LIMIT_PRO: '1000000',
  SVC_RATE_LIMIT_ENTERPRISE: '1000000',
  SVC_LOGIN_ATTEMPTS_PER_MINUTE: '1000',
};

export interface StartOptions {
  agents?: ServiceOptions['agents'];
  env?: Record<string, string>;
  /** Reuse a data dir (to test restarts); it is then left in place on close. */
  dataDir?: string;
  log?: Logger;
}

export async function startService(opts: StartOptions = {}): Promise<TestService> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  const config = loadConfig({ ...TEST_ENV, SVC_DATA_DIR: dataDir, ...opts.env });
  const service = await createService({ config, agents: opts.agents, log: opts.log });
  const url = await service.listen();
  const adminKey = service.adminKey.secret;
  return {
    url,
    baseURL: `${url}/v1`,
    service,
    adminKey,
    dataDir,
    async account({ plan = 'free', credits = 0, email } = {}) {
      const res = await fetch(`${url}/v1/admin/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: email ?? `user${++counter}-${process.pid}@example.com`, plan, credits }),
      });
      if (res.status !== 201) throw new Error(`account creation failed: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { id: string; api_key: string };
      return { id: body.id, apiKey: body.api_key };
    },
    async close() {
      await service.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
