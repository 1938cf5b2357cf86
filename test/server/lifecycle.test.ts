import net from 'node:net';
import OpenAI from 'openai';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agents/types.js';
import { SvcError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { freshPostgres, PG_URL } from '../helpers/backends.js';
import { svcProcess } from '../helpers/cli.js';
import { answer, scriptedAgent, sleep } from '../helpers/scripted-agent.js';
import { startService } from '../helpers/service.js';
import { post, readSse } from '../helpers/sse.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const slow = (id: string, chunks: number, ms: number) =>
  scriptedAgent(id, async function* (): AsyncGenerator<AgentEvent> {
    for (let i = 0; i < chunks; i++) {
      yield { type: 'text', delta: `part ${i}. ` };
      await sleep(ms);
    }
    yield { type: 'done' };
  });

describe('request logging', () => {
  it('logs one line per request with its request id, and never the API key', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (s: string) => void lines.push(s) });
    const hanging = scriptedAgent('svc-hang', async function* (): AsyncGenerator<AgentEvent> {
      await sleep(2000);
      yield* answer('late');
    });
    const svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok')), hanging], log });
    try {
      const { apiKey } = await svc.account();
      // A request its client gave up on before any answer: logged without a status, not as a 200.
      const gaveUp = new AbortController();
      setTimeout(() => gaveUp.abort(), 200);
      await fetch(`${svc.baseURL}/responses`, { method: 'POST', signal: gaveUp.signal, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'svc-hang', input: 'q', store: false }) }).catch(() => null);
      await sleep(100);
      expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.msg === 'request' && e.url === '/v1/responses')).toMatchObject({ status: null, aborted: true });
      const res = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'q' });
      const requestId = res.headers.get('x-request-id')!;
      await res.text();
      await post(`${svc.baseURL}/responses`, `${apiKey}x`, { model: 'svc-test', input: 'q' }).then((r) => r.text());
      await sleep(50);
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const mine = entries.filter((e) => e.reqId === requestId);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ msg: 'request', method: 'POST', url: '/v1/responses', status: 200 });
      // Refused by Node's parser before fastify (headers over 16 KiB): logged too, under the id it was answered with.
      const huge = await fetch(`${svc.baseURL}/models`, { headers: { 'x-big': 'x'.repeat(20_000) } });
      await sleep(50);
      expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.reqId === huge.headers.get('x-request-id'))).toMatchObject({ msg: 'request', status: 431 });
      const all = lines.join('\n');
      expect(all).not.toContain(apiKey);
      expect(all).not.toContain(svc.adminKey);
      expect(all.toLowerCase()).not.toContain('bearer');
    } finally {
      await svc.close();
    }
  });
});

describe('start-up warnings', () => {
  it('listening on every interface without SVC_PUBLIC_URL, says that links will point at 127.0.0.1', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (s: string) => void lines.push(s) });
    const svc = await startService({ log, env: { SVC_HOST: '0.0.0.0' } });
    try {
      expect(lines.join('\n')).toMatch(/SVC_PUBLIC_URL is not set, so links in answers .* use http:\/\/127\.0\.0\.1:\d+, which other machines cannot open/);
    } finally {
      await svc.close();
    }
    const quiet: string[] = [];
    const named = await startService({ log: createLogger('info', { write: (s: string) => void quiet.push(s) }), env: { SVC_HOST: '0.0.0.0', SVC_PUBLIC_URL: 'https://svc.example.com' } });
    await named.close();
    expect(quiet.join('\n')).not.toContain('SVC_PUBLIC_URL is not set');
  });
});

describe('graceful shutdown', () => {
  it('lets in-flight streams finish, refuses new requests meanwhile, then stops', async () => {
    const svc = await startService({ agents: [slow('svc-slow', 10, 50)], env: { SVC_SHUTDOWN_GRACE_MS: '10000' } });
    const { apiKey } = await svc.account();
    const inflight = post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-slow', input: 'q', stream: true }).then(readSse);
    await sleep(120);
    const closing = svc.close();
    await sleep(20);
    const refused = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-slow', input: 'q' }).catch((e: Error) => e);
    if (refused instanceof Response) expect(refused.status).toBe(503);
    const done = await inflight;
    expect(done.frames.at(-1)!.event).toBe('response.completed');
    await closing;
  });

  it('a response finished while closing says Connection: close, so the client sends nothing more on that connection', async () => {
    const svc = await startService({ agents: [slow('svc-slow', 6, 50)], env: { SVC_SHUTDOWN_GRACE_MS: '10000' } });
    const { apiKey } = await svc.account();
    const before = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-slow', input: 'q', store: false });
    expect(before.headers.get('connection')).not.toBe('close');
    await before.text();
    const inflight = post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-slow', input: 'q', store: false });
    await sleep(100);
    const closing = svc.close();
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('close');
    await res.text();
    await closing;
  });

  it('ends streams still running at the deadline with an error event', async () => {
    const svc = await startService({ agents: [slow('svc-slow', 100, 50)], env: { SVC_SHUTDOWN_GRACE_MS: '200' } });
    const { apiKey } = await svc.account();
    const chat = post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-slow', messages: [{ role: 'user', content: 'q' }], stream: true }).then(readSse);
    const resp = post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-slow', input: 'q', stream: true }).then(readSse);
    // A follower of a stored stream still running here.
    const followed = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-slow', input: 'q', stream: true });
    const reader = followed.body!.getReader();
    const head = new TextDecoder().decode((await reader.read()).value);
    const id = /"id":"(resp_[^"]+)"/.exec(head)![1];
    const follower = fetch(`${svc.baseURL}/responses/${id}?stream=true`, { headers: { authorization: `Bearer ${apiKey}` } }).then(readSse);
    await sleep(100);
    await svc.close();
    const r = await resp;
    expect(r.frames.slice(-2).map((f) => f.event)).toEqual(['error', 'response.failed']);
    expect(JSON.parse(r.frames.at(-2)!.data).code).toBe('server_shutting_down');
    // The follower receives the same ending (it was cut after a delta, with no terminal event).
    const f = await follower;
    expect(f.frames.slice(-2).map((e) => e.event)).toEqual(['error', 'response.failed']);
    expect(JSON.parse(f.frames.at(-2)!.data).code).toBe('server_shutting_down');
    await reader.cancel();
    const c = await chat;
    expect(JSON.parse(c.frames.at(-1)!.data).error.code).toBe('server_shutting_down');
  });

  it('svc serve exits cleanly on SIGTERM', async () => {
    const { mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const child = svcProcess(['serve'], { SVC_PORT: '0', SVC_DATA_DIR: mkdtempSync(`${os.tmpdir()}/svc-serve-`) });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /svc listening on (http:\/\/[^"\s]+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('stopped');
  });
});

describe.skipIf(!PG_URL)(`a Postgres that stops answering or drops connections${PG_URL ? '' : ' (skipped: set SVC_TEST_DATABASE_URL=postgres://… to run)'}`, () => {
  /** A service on a fresh Postgres schema reached through a proxy the test can freeze or cut, and its log lines. */
  async function behindProxy(env: Record<string, string> = {}) {
    const url = new URL(await freshPostgres());
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    const lines: string[] = [];
    const log = createLogger('info', { write: (s: string) => void lines.push(s) });
    const svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))], log, env: { SVC_DATABASE_URL: url.toString(), ...env } });
    return { proxy, svc, lines };
  }

  it('exits within SVC_SHUTDOWN_STORAGE_MS, saying what may be lost, instead of hanging', async () => {
    const { proxy, svc, lines } = await behindProxy({ SVC_SHUTDOWN_STORAGE_MS: '1500', SVC_SHUTDOWN_GRACE_MS: '200' });
    try {
      const { apiKey } = await svc.account();
      expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'q' })).status).toBe(200);
      proxy.freeze();
      const started = Date.now();
      await svc.close();
      // Before: pg's pool waited for ever for the frozen server to close its connections.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(lines.join('\n')).toMatch(/storage did not (answer while shutting down|close in time)/);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('a request waiting on a lock held elsewhere fails at SVC_DATABASE_STATEMENT_TIMEOUT_MS with 503 storage_timeout, instead of hanging', async () => {
    const url = await freshPostgres();
    const svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))], env: { SVC_DATABASE_URL: url, SVC_DATABASE_STATEMENT_TIMEOUT_MS: '1500' } });
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      const { apiKey } = await svc.account();
      // An operator's open transaction, a migration elsewhere: every request's rate-limit count waits on it.
      await locker.query('begin');
      await locker.query('lock table rate_limit_windows in access exclusive mode');
      const started = Date.now();
      const res = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'q' });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(((await res.json()) as any).error).toMatchObject({ code: 'storage_timeout', type: 'server_error' });
      await locker.query('rollback');
      expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'again' })).status).toBe(200);
    } finally {
      await locker.end();
      await svc.close();
    }
  }, 30_000);

  it('a request on a connection that stopped answering fails a little after the statement timeout, instead of hanging', async () => {
    const { proxy, svc } = await behindProxy({ SVC_DATABASE_STATEMENT_TIMEOUT_MS: '1000', SVC_SHUTDOWN_STORAGE_MS: '1000', SVC_SHUTDOWN_GRACE_MS: '200' });
    try {
      const { apiKey } = await svc.account();
      expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'q' })).status).toBe(200);
      proxy.freeze();
      const started = Date.now();
      const res = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'frozen' });
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      await svc.close();
      await proxy.close();
    }
  }, 40_000);

  it('a connection whose query went unanswered is dropped, not handed to the next request: the service recovers on fresh connections', async () => {
    const { proxy, svc } = await behindProxy({ SVC_DATABASE_STATEMENT_TIMEOUT_MS: '1000', SVC_SHUTDOWN_STORAGE_MS: '1000', SVC_SHUTDOWN_GRACE_MS: '200' });
    try {
      const { apiKey } = await svc.account();
      expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'q' })).status).toBe(200);
      // The network path of every open connection dies silently (no reset); new connections work.
      proxy.silenceOpen();
      const statuses: number[] = [];
      for (let i = 0; i < 6 && statuses.at(-1) !== 200; i++) statuses.push((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: `after ${i}` })).status);
      // Each dead connection fails one request at most; before, it went back to the pool and was
      // taken again by the next query (the pool hands out the last released first), so requests
      // kept failing at the timeout for as long as traffic kept it from idling out.
      expect(statuses.at(-1)).toBe(200);
      for (let i = 0; i < 3; i++) expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: `later ${i}` })).status).toBe(200);
    } finally {
      await svc.close();
      await proxy.close();
    }
  }, 90_000);

  it('a connection cut while idle (a database restart) is logged and replaced; the service keeps answering', async () => {
    const { proxy, svc, lines } = await behindProxy();
    try {
      const { apiKey } = await svc.account();
      expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'q' })).status).toBe(200);
      await sleep(100);
      // Before: the pool's unheard error event was thrown, and took the process down.
      proxy.cut();
      await sleep(200);
      expect(lines.join('\n')).toMatch(/a database connection failed/);
      expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-test', input: 'again' })).status).toBe(200);
    } finally {
      await svc.close();
      await proxy.close();
    }
  }, 30_000);
});

describe('requests injected in-process (fastify inject, as tools and the bench use)', () => {
  it('are answered, and nothing waits on a socket they do not have', async () => {
    const svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))], env: { SVC_REQUEST_TIMEOUT_MS: '1000' } });
    try {
      const { apiKey } = await svc.account();
      const res = await svc.service.server.app.inject({ method: 'POST', url: '/v1/responses', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, payload: { model: 'svc-test', input: 'hi' } });
      expect(res.statusCode).toBe(200);
      // Past the wait for an early-answered body's rest: a timer there would have thrown in this process.
      await sleep(700);
      expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('keep-alives', () => {
  it('sends SSE comments while an agent is silent', async () => {
    const quiet = scriptedAgent('svc-quiet', async function* (): AsyncGenerator<AgentEvent> {
      yield { type: 'progress', message: 'fetching market data' };
      await sleep(700);
      yield* answer('done');
    });
    const svc = await startService({ agents: [quiet], env: { SVC_KEEPALIVE_MS: '200' } });
    try {
      const { apiKey } = await svc.account();
      const r = await readSse(await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-quiet', input: 'q', stream: true }));
      expect(r.comments).toContain('fetching market data');
      expect(r.comments.filter((c) => c === 'keep-alive').length).toBeGreaterThanOrEqual(2);
      // Comments are invisible to SDKs.
      const final = await new OpenAI({ baseURL: svc.baseURL, apiKey }).responses.stream({ model: 'svc-quiet', input: 'q' }).finalResponse();
      expect(final.output_text).toBe('done');
    } finally {
      await svc.close();
    }
  });

  it('opens a stream whose agent is silent for a whole interval before its first event; a later failure travels in the stream', async () => {
    // The agents wait for the test to let them go, which it does only once the response's
    // headers have arrived: without the early opening, these requests would never answer.
    let gate: (() => void) | null = null;
    const release = async (afterMs = 0) => {
      while (!gate) await sleep(10);
      await sleep(afterMs);
      const open = gate;
      gate = null;
      open();
    };
    const late = (id: string, fail: boolean) =>
      scriptedAgent(id, async function* (): AsyncGenerator<AgentEvent> {
        await new Promise<void>((resolve) => (gate = resolve)); // e.g. an exchange being retried
        if (fail) throw new SvcError('upstream', { code: 'upstream_error', message: 'Kalshi kept failing.' });
        yield* answer('late answer');
      });
    const svc = await startService({ agents: [late('svc-late', false), late('svc-late-fail', true)], env: { SVC_KEEPALIVE_MS: '200' } });
    try {
      const { apiKey } = await svc.account();
      const ok = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-late', input: 'q', stream: true });
      expect(ok.status).toBe(200);
      await sleep(250);
      await release();
      const okBody = await ok.text();
      expect(okBody).toMatch(/^event: response\.created\n/);
      expect(okBody.indexOf(': keep-alive')).toBeLessThan(okBody.indexOf('response.output_text.delta'));
      expect(okBody).toContain('event: response.completed');

      const failed = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-late-fail', input: 'q', stream: true });
      expect(failed.status).toBe(200);
      await release();
      expect((await readSse(failed)).frames.map((f) => f.event)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);

      const chat = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-late-fail', messages: [{ role: 'user', content: 'q' }], stream: true });
      expect(chat.status).toBe(200);
      await release();
      expect(JSON.parse((await readSse(chat)).frames.at(-1)!.data)).toMatchObject({ error: { code: 'upstream_error' } });

      // The SDKs read such streams as any other.
      const client = new OpenAI({ baseURL: svc.baseURL, apiKey });
      const viaSdk = client.responses.stream({ model: 'svc-late', input: 'q' }).finalResponse();
      await release(300); // past the interval: the stream was opened early
      expect((await viaSdk).output_text).toBe('late answer');
      const chatSdk = client.chat.completions.stream({ model: 'svc-late', messages: [{ role: 'user', content: 'q' }] }).finalChatCompletion();
      await release(300);
      expect((await chatSdk).choices[0]!.message.content).toBe('late answer');
    } finally {
      await svc.close();
    }
  });

  it('closes a request that takes longer than SVC_REQUEST_TIMEOUT_MS to arrive with 408 (a trickled body or header); a slow stream is not cut', async () => {
    const lines: Record<string, unknown>[] = [];
    const svc = await startService({ agents: [slow('svc-slow', 8, 250)], env: { SVC_REQUEST_TIMEOUT_MS: '1000' }, log: createLogger('info', { write: (l: string) => void lines.push(JSON.parse(l)) }) });
    try {
      const { apiKey } = await svc.account();
      const { port } = new URL(svc.url);
      const trickle = (head: string, drip: string) =>
        new Promise<string>((resolve) => {
          const socket = net.connect(Number(port), '127.0.0.1');
          let got = '';
          socket.on('data', (d) => (got += d));
          socket.on('close', () => {
            clearInterval(timer);
            resolve(got);
          });
          socket.on('error', () => {});
          socket.write(head);
          const timer = setInterval(() => socket.writable && socket.write(drip), 200);
        });
      const body = await trickle(`POST /v1/responses HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`, ' ');
      const header = await trickle('GET /healthz HTTP/1.1\r\nHost: x\r\n', 'X');
      for (const answer of [body, header]) {
        expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error).toMatchObject({ code: 'request_timeout', type: 'invalid_request_error' });
      }
      // One access-log line each, under the id the client was sent: the request whose body was too
      // slow keeps its own line (it was logged twice, once aborted with another id).
      await sleep(50);
      for (const answer of [body, header]) {
        const id = /x-request-id: (\S+)/i.exec(answer)![1];
        expect(lines.filter((l) => l.reqId === id && l.msg === 'request'), answer).toEqual([expect.objectContaining({ status: 408, code: 'request_timeout' })]);
      }
      expect(lines.filter((l) => l.msg === 'request' && l.url === '/v1/responses' && l.status !== 408)).toEqual([]);
      // Refused before its body arrived (no key): the answer is sent while the rest may still come
      // (a client still uploading reads it, not a reset); a body that never comes closes the
      // connection quietly, rather than ending later in a 408 the client never asked for.
      const refused = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        let got = '';
        socket.on('data', (d) => (got += d));
        socket.on('close', () => resolve(got));
        socket.on('error', () => {});
        socket.write('POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mo');
      });
      expect(refused).toMatch(/^HTTP\/1\.1 401 /);
      expect(refused).not.toContain('408');
      // A connection that sends nothing at all is closed too (it was held for ever).
      const silent = net.connect(Number(port), '127.0.0.1');
      silent.on('error', () => {});
      const opened = Date.now();
      await new Promise((resolve) => silent.once('close', resolve));
      expect(Date.now() - opened).toBeLessThan(5_000);
      // Two seconds of streaming after a request that arrived at once.
      const r = await readSse(await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-slow', input: 'q', stream: true }));
      expect(r.frames.at(-1)?.event).toBe('response.completed');
      // And an answer that sends nothing for two seconds, its request long since arrived.
      expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-slow', input: 'q' })).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});
