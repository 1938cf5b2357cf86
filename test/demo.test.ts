import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import pg from 'pg';
import { PG_URL, dropTestSchemas, freshPostgres } from './helpers/backends.js';
import { svcProcess } from './helpers/cli.js';
import { WebClient } from './helpers/web-client.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts `svc demo` on the shared data dir; resolves with what it printed. */
async function startDemo(env: Record<string, string> = {}) {
  const child = svcProcess(['demo'], { SVC_PORT: '0', SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'silent', ...env });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const login = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /log in at (http:\/\/[^/\s]+)\/login as (\S+) with password (\S+),/.exec(out);
      if (m && /export SVC_KEY=(\S+)/.test(out)) resolve(m);
    });
    child.on('exit', (code) => reject(new Error(`svc demo exited with ${code}: ${out}`)));
  });
  const [, url, email, password] = login;
  const stop = async () => {
    child.removeAllListeners('exit');
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { url: url!, email: email!, password: password!, key: /export SVC_KEY=(\S+)/.exec(out)![1]!, stop, stderr: () => err };
}

it('svc demo serves offline with a Pro demo account usable by key and on the web', async () => {
  const demo = await startDemo();
  try {
    const me = await fetch(`${demo.url}/v1/account`, { headers: { authorization: `Bearer ${demo.key}` } });
    expect(await me.json()).toMatchObject({ email: 'demo@svc.local', plan: 'pro' });

    const web = new WebClient(demo.url);
    await web.get('/login');
    const res = await web.post('/login', { email: demo.email, password: demo.password });
    expect(res.status).toBe(303);
    const playground = await web.get('/playground');
    expect(playground.status).toBe(200);
    expect(playground.text).toContain('<option value="svc-prediction-markets-agent"');
  } finally {
    await demo.stop();
  }
}, 60_000);

it('a restart prints a new key that replaces the last one, so restarts never fill the account with keys', async () => {
  const first = await startDemo();
  await first.stop();
  const second = await startDemo();
  try {
    const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    expect((await fetch(`${second.url}/v1/account`, auth(first.key))).status).toBe(401);
    expect((await fetch(`${second.url}/v1/account`, auth(second.key))).status).toBe(200);
    const keys = (await (await fetch(`${second.url}/v1/account/keys`, auth(second.key))).json()) as { data: { revoked_at: unknown }[] };
    expect(keys.data.filter((k) => k.revoked_at === null)).toHaveLength(1);
  } finally {
    await second.stop();
  }
}, 60_000);

it.skipIf(!PG_URL)(`keeps to its own SQLite even with SVC_DATABASE_URL set: its demo account and synthetic reports never reach that database${PG_URL ? '' : ' (skipped: set SVC_TEST_DATABASE_URL=postgres://… to run)'}`, async () => {
  const url = await freshPostgres();
  const demo = await startDemo({ SVC_DATABASE_URL: url });
  try {
    expect(demo.stderr()).toContain('svc demo: SVC_DATABASE_URL is ignored');
    expect((await fetch(`${demo.url}/v1/account`, { headers: { authorization: `Bearer ${demo.key}` } })).status).toBe(200);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Not even migrated: the demo never opened it.
      expect((await client.query("select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = 'accounts'")).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  } finally {
    await demo.stop();
    await dropTestSchemas();
  }
}, 60_000);
