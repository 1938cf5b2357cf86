import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { svcProcess } from './helpers/cli.js';
import { WebClient } from './helpers/web-client.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('svc demo serves offline with a Pro demo account usable by key and on the web', async () => {
  const child = svcProcess(['demo'], { SVC_PORT: '0', SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'silent' });
  try {
    let out = '';
    const login = await new Promise<RegExpExecArray>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /log in at (http:\/\/[^/\s]+)\/login as (\S+) with password (\S+),/.exec(out);
        if (m && /export SVC_KEY=(\S+)/.test(out)) resolve(m);
      });
      child.on('exit', (code) => reject(new Error(`svc demo exited with ${code}: ${out}`)));
    });
    const [, url, email, password] = login;
    const key = /export SVC_KEY=(\S+)/.exec(out)![1]!;
    const me = await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(await me.json()).toMatchObject({ email: 'demo@svc.local', plan: 'pro' });

    const web = new WebClient(url!);
    await web.get('/login');
    const res = await web.post('/login', { email: email!, password: password! });
    expect(res.status).toBe(303);
    const playground = await web.get('/playground');
    expect(playground.status).toBe(200);
    expect(playground.text).toContain('<option value="svc-prediction-markets-agent"');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}, 60_000);
