/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser, hence the DOM types.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

/** A page server on its own loopback port: another origin than the service. */
async function pageServer(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><p>app</p>'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

const agent = scriptedAgent('svc-test', () => answer('A cited answer [1].', [{ order: 1, name: 'Source', url: 'https://example.com/1' }]));
let allowed: Awaited<ReturnType<typeof pageServer>>;
let other: Awaited<ReturnType<typeof pageServer>>;
let svc: TestService;
let key: string;

beforeAll(async () => {
  allowed = await pageServer();
  other = await pageServer();
  svc = await startService({ env: { SVC_CORS_ORIGINS: `https://app.example.com, ${allowed.origin}` }, agents: [agent] });
  key = (await svc.account()).apiKey;
});
afterAll(async () => {
  await svc.close();
  await allowed.close();
  await other.close();
});

const preflight = (path: string, origin: string, headers = 'authorization, content-type, x-stainless-os') =>
  fetch(`${svc.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers } });

describe('CORS for the API-key routes', () => {
  it('answers a preflight from an allowed origin with the methods and the headers asked for', async () => {
    const res = await preflight('/v1/responses', 'https://app.example.com');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-stainless-os');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
    expect(res.headers.get('access-control-allow-private-network')).toBeNull();
    // Chrome's Private Network Access preflight (a public page reaching a server on localhost or a LAN).
    const pna = await fetch(`${svc.url}/v1/responses`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-private-network': 'true' } });
    expect([pna.status, pna.headers.get('access-control-allow-private-network')]).toEqual([204, 'true']);
  });

  it('marks responses, errors included, readable by the allowed origin, with the headers SDKs read', async () => {
    const ok = await fetch(`${svc.url}/v1/responses`, {
      method: 'POST',
      headers: { origin: 'https://app.example.com', authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-test', input: 'hi' }),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('access-control-expose-headers')).toContain('x-request-id');
    expect(ok.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining-requests');
    // openai-node reads it to skip retries a 409 cannot be helped by: a browser must be let see it.
    expect(ok.headers.get('access-control-expose-headers')).toContain('x-should-retry');
    const denied = await fetch(`${svc.url}/v1/models`, { headers: { origin: 'https://app.example.com', authorization: 'Bearer sk-svc-nope' } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  });

  it('gives nothing to other origins, and never opens the admin API, documents or cookie routes', async () => {
    const res = await preflight('/v1/responses', 'https://evil.example');
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error).toMatchObject({ code: 'cors_origin_not_allowed', type: 'permission_error' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const plain = await fetch(`${svc.url}/v1/models`, { headers: { origin: 'https://evil.example', authorization: `Bearer ${key}` } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    for (const path of ['/v1/admin/accounts', '/v1/documents/x.pdf']) {
      const closed = await preflight(path, 'https://app.example.com');
      expect(closed.status).toBe(403);
      // An allowed origin is told the route is closed to every page, not that its origin is refused.
      expect(((await closed.json()) as any).error.message).toBe(`${path} is not open to pages on any origin: the admin API is called from servers, and document links are opened, not fetched.`);
    }
    const admin = await fetch(`${svc.url}/v1/admin/accounts/acct_x`, { headers: { origin: 'https://app.example.com', authorization: `Bearer ${svc.adminKey}` } });
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
    const playground = await fetch(`${svc.url}/playground/v1/models`, { headers: { origin: 'https://app.example.com' } });
    expect(playground.headers.get('access-control-allow-origin')).toBeNull();
    // Not by percent-encoding the path either: the router decodes it to the admin API.
    const { id } = await svc.account();
    for (const path of [`/v1/%61dmin/accounts/${id}`, `/v1/%61%64%6Din/accounts/${id}`, '/v1/%64ocuments/x.pdf', `/v1%2F%61dmin/accounts/${id}`, '/v1/%zzadmin']) {
      const closed = await preflight(path, 'https://app.example.com');
      expect(closed.status, path).toBeGreaterThanOrEqual(400);
      expect(closed.headers.get('access-control-allow-origin'), path).toBeNull();
    }
    const encoded = await fetch(`${svc.url}/v1/%61dmin/accounts/${id}`, { headers: { origin: 'https://app.example.com', authorization: `Bearer ${svc.adminKey}` } });
    expect(encoded.status).toBe(200); // the admin API itself, for servers
    expect(encoded.headers.get('access-control-allow-origin')).toBeNull();
    // The web pages and the playground answer no preflight.
    for (const path of ['/playground/v1/responses', '/settings/api-keys']) expect((await preflight(path, 'https://app.example.com')).status).toBe(404);
  });

  it('a URL the router cannot read is an error the allowed page can read too', async () => {
    const res = await fetch(`${svc.url}/v1/models/%zz`, { headers: { origin: 'https://app.example.com', authorization: `Bearer ${key}` } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('invalid_url');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  });

  it('is off unless configured: no CORS headers, and OPTIONS is an unknown route', async () => {
    const plain = await startService({ agents: [agent] });
    try {
      const res = await fetch(`${plain.url}/v1/responses`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe('CORS in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** What a page on `origin` gets when it calls the API the way openai-node does in the browser. */
  async function callFrom(origin: string): Promise<{ status: number; requestId: string | null; text: string } | { error: string }> {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(
        async ({ url, key }) => {
          try {
            const res = await fetch(`${url}/v1/responses`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-stainless-lang': 'js' },
              body: JSON.stringify({ model: 'svc-test', input: 'hi' }),
            });
            const body = await res.json();
            return { status: res.status, requestId: res.headers.get('x-request-id'), text: body.output[0].content[0].text as string };
          } catch (err) {
            return { error: String(err) };
          }
        },
        { url: svc.url, key },
      );
    } finally {
      await page.close();
    }
  }

  it('a page on an allowed origin calls /v1/responses and reads the answer and its request id', async () => {
    const got = await callFrom(allowed.origin);
    expect(got).toMatchObject({ status: 200, text: 'A cited answer [1].' });
    expect((got as { requestId: string }).requestId).toMatch(/^req_/);
  });

  it('a page on another origin is stopped by the browser', async () => {
    expect(await callFrom(other.origin)).toEqual({ error: 'TypeError: Failed to fetch' });
  });
});
