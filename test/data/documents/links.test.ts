import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PagedDocument } from '../../../src/data/documents/model.js';
import { DocumentService } from '../../../src/data/documents/service.js';
import { checkDocumentLink, resolveSigningSecret, signDocument } from '../../../src/data/documents/signing.js';
import { requestedRange } from '../../../src/server/ranges.js';
import { DEMO_WORLD } from '../../fixtures/sec-world.js';
import { startFakeSec, type FakeSec } from '../../helpers/fake-sec.js';
import { pdfPageTexts } from '../../helpers/pdf-text.js';
import { startService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'svc-docs-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const doc = (text: string): PagedDocument => ({ title: 'T', footer: 'F', pages: [{ blocks: [{ kind: 'text', text, bold: false, align: 'left' }] }] });

describe('signing', () => {
  it('generates a secret once into the data dir, readable by its owner only, unless SVC_SIGNING_SECRET is set', () => {
    const dir = tmp();
    const first = resolveSigningSecret('', dir);
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(resolveSigningSecret('', dir).secret).toBe(first.secret);
    expect(readFileSync(first.file!, 'utf8').trim()).toBe(first.secret);
    expect(resolveSigningSecret('configured', dir)).toEqual({ secret: 'configured', file: null });
  });

  it('holds a hand-written signing.key to 16 characters, as SVC_SIGNING_SECRET, and makes it readable by its owner only', () => {
    const dir = tmp();
    const file = path.join(dir, 'signing.key');
    writeFileSync(file, 'a\n', { mode: 0o644 });
    // Before, any non-empty secret was taken: links signed with "a" were forged at once.
    expect(() => resolveSigningSecret('', dir)).toThrow(/signing secret in .*signing\.key is shorter than 16 characters: write a longer one .* or delete the file/);
    writeFileSync(file, `${'k'.repeat(32)}\n`, { mode: 0o644 });
    chmodSync(file, 0o644);
    expect(resolveSigningSecret('', dir)).toEqual({ secret: 'k'.repeat(32), file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('checks the signature over id and expiry, then the expiry', () => {
    const sig = signDocument('s', 'doc-1', 2000);
    expect(checkDocumentLink('s', 'doc-1', '2000', sig, 1999)).toBe('valid');
    expect(checkDocumentLink('s', 'doc-1', '2000', sig, 2001)).toBe('expired');
    expect(checkDocumentLink('s', 'doc-2', '2000', sig, 1999)).toBe('invalid');
    expect(checkDocumentLink('s', 'doc-1', '2001', sig, 1999)).toBe('invalid');
    expect(checkDocumentLink('other', 'doc-1', '2000', sig, 1999)).toBe('invalid');
    expect(checkDocumentLink('s', 'doc-1', '2000', sig.toUpperCase(), 1999)).toBe('invalid');
    // Only the expiry as signed: no leading zeros, signs or exponents that read as the same number.
    for (const padded of ['02000', '+2000', '2000.0', '2e3']) expect(checkDocumentLink('s', 'doc-1', padded, sig, 1999), padded).toBe('invalid');
    expect(checkDocumentLink('s', 'doc-1', undefined, sig, 1999)).toBe('missing');
    expect(checkDocumentLink('s', 'doc-1', '2000', undefined, 1999)).toBe('missing');
    // No link outlives the longest lifetime allowed (7 days), whatever expiry it was signed with.
    const far = 1999 + 8 * 86_400;
    expect(checkDocumentLink('s', 'doc-1', String(far), signDocument('s', 'doc-1', far), 1999)).toBe('invalid');
    const week = 1999 + 7 * 86_400;
    expect(checkDocumentLink('s', 'doc-1', String(week), signDocument('s', 'doc-1', week), 1999)).toBe('valid');
  });
});

describe('requestedRange (RFC 9110 byte ranges) of a 1000-byte document', () => {
  it.each([
    [undefined, 'whole'],
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-200', { start: 800, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['BYTES = 5 - 9', { start: 5, end: 9 }],
    ['bytes=999-999', { start: 999, end: 999 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=1000-2000', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    // Malformed, another unit, or several ranges: the whole document.
    ['bytes=9-5', 'whole'],
    ['bytes=-', 'whole'],
    ['bytes=a-b', 'whole'],
    ['items=0-5', 'whole'],
    ['bytes=0-5,10-20', 'whole'],
  ] as const)('%s → %o', (header, expected) => {
    expect(requestedRange(header, 1000)).toEqual(expected);
  });

  it('an empty document holds no range', () => {
    expect(requestedRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(requestedRange('bytes=-1', 0)).toBe('unsatisfiable');
  });
});

describe('DocumentService', () => {
  it('renders a document once, even when asked concurrently, and keeps it', async () => {
    const dir = tmp();
    chmodSync(dir, 0o755);
    let produced = 0;
    const make = async () => (produced++, doc('hello'));
    const a = new DocumentService({ dataDir: dir, signingSecret: 's', linkTtlSeconds: 60, publicUrl: () => 'https://svc.example' });
    const [x, y] = await Promise.all([a.ensure('doc-1', make), a.ensure('doc-1', make)]);
    expect([x, y, produced]).toEqual([{ pages: 1 }, { pages: 1 }, 1]);
    const b = new DocumentService({ dataDir: dir, signingSecret: 's', linkTtlSeconds: 60, publicUrl: () => 'https://svc.example' });
    await b.ensure('doc-1', make);
    expect(produced).toBe(1);
    expect((await pdfPageTexts(readFileSync((await b.open('doc-1'))!.file)))[0]).toContain('hello');
    // Readable by the service's user only, whatever the data dir's own mode (here 0755) and the umask.
    const file = (await b.open('doc-1'))!.file;
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('makes absolute signed links that open at a page, valid for the configured lifetime', () => {
    const now = 1_700_000_000_000;
    const s = new DocumentService({ dataDir: tmp(), signingSecret: 's', linkTtlSeconds: 3600, publicUrl: () => 'https://svc.example', now: () => now });
    const url = new URL(s.signedUrl('doc-1', { page: 4 }));
    expect(url.origin + url.pathname).toBe('https://svc.example/v1/documents/doc-1.pdf');
    expect(url.hash).toBe('#page=4');
    expect(url.searchParams.get('expires')).toBe(String(now / 1000 + 3600));
    expect(s.verify('doc-1', url.searchParams.get('expires')!, url.searchParams.get('signature')!)).toBe(now / 1000 + 3600);
    expect(() => s.verify('doc-1', url.searchParams.get('expires')!, 'f'.repeat(64))).toThrow(expect.objectContaining({ kind: 'permission', code: 'invalid_signature' }));
    expect(() => s.verify('../etc/passwd', url.searchParams.get('expires')!, url.searchParams.get('signature')!)).toThrow(expect.objectContaining({ kind: 'permission' }));
  });

  it('asks the producer registered for an id prefix for documents it has not rendered; unknown ones are null', async () => {
    const s = new DocumentService({ dataDir: tmp(), signingSecret: 's', linkTtlSeconds: 60, publicUrl: () => 'x' });
    s.registerProducer('demo', async (id) => (id === 'demo-1' ? doc('made on request') : null));
    expect(await s.open('demo-1')).not.toBeNull();
    expect(await s.open('demo-2')).toBeNull();
    expect(await s.open('other-1')).toBeNull();
  });
});

describe('a link issued by one replica opens on another (same SVC_SIGNING_SECRET)', () => {
  let fake: FakeSec;
  beforeAll(async () => {
    fake = await startFakeSec(DEMO_WORLD);
  });
  afterAll(() => fake.close());

  it('the second replica renders the filing on request and shows the figure on the cited page', async () => {
    const env = { SVC_SEC_API_URL: fake.url, SVC_SEC_WWW_URL: fake.url, SVC_SEC_USER_AGENT: 'svc tests ops@example.com', SVC_SIGNING_SECRET: 'shared-secret-for-tests' };
    const a = await startService({ env });
    const b = await startService({ env });
    try {
      const { apiKey } = await a.account();
      const res = await post(`${a.baseURL}/chat/completions`, apiKey, { model: 'svc-sec-agent', messages: [{ role: 'user', content: 'Microsoft revenue Q2 FY2025' }] });
      const citation = ((await res.json()) as any).choices[0].citations[0];
      const onB = citation.url.replace(a.url, b.url).split('#')[0];
      const pdf = await fetch(onB);
      expect(pdf.status).toBe(200);
      const texts = await pdfPageTexts(new Uint8Array(await pdf.arrayBuffer()));
      expect(texts[Number(citation.url.split('#page=')[1]) - 1]).toContain('69,632');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('serves byte ranges as PDF viewers ask for them (206, If-Range, 416, HEAD, 304)', async () => {
    const s = await startService({ env: { SVC_SEC_API_URL: fake.url, SVC_SEC_WWW_URL: fake.url, SVC_SEC_USER_AGENT: 'svc tests ops@example.com' } });
    try {
      const { apiKey } = await s.account();
      const res = await post(`${s.baseURL}/chat/completions`, apiKey, { model: 'svc-sec-agent', messages: [{ role: 'user', content: 'Microsoft revenue Q2 FY2025' }] });
      const link = ((await res.json()) as any).choices[0].citations[0].url.split('#')[0];
      const whole = await fetch(link);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      const etag = whole.headers.get('etag')!;
      const bytes = Buffer.from(await whole.arrayBuffer());
      expect(Number(whole.headers.get('content-length'))).toBe(bytes.length);

      const part = await fetch(link, { headers: { range: 'bytes=100-299' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-299/${bytes.length}`);
      expect(part.headers.get('content-length')).toBe('200');
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 300))).toBe(true);

      const tail = await fetch(link, { headers: { range: 'bytes=-50', 'if-range': etag } });
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 50))).toBe(true);

      // A range of a copy the viewer holds from another rendering: the whole current file instead.
      const stale = await fetch(link, { headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
      expect(stale.status).toBe(200);
      expect(Buffer.from(await stale.arrayBuffer()).equals(bytes)).toBe(true);

      const outside = await fetch(link, { headers: { range: `bytes=${bytes.length}-` } });
      expect(outside.status).toBe(416);
      expect(outside.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
      expect(await outside.json()).toMatchObject({ error: { code: 'range_not_satisfiable', param: 'Range', type: 'invalid_request_error' } });
      const twice = await fetch(`${link}&signature=${new URL(link).searchParams.get('signature')}`);
      expect(twice.status).toBe(403);
      expect(((await twice.json()) as any).error).toMatchObject({ code: 'invalid_signature', param: 'signature', message: expect.stringContaining('appears more than once') });
      // An error, not the document: none of its caching or naming headers.
      for (const h of ['etag', 'last-modified', 'content-disposition']) expect(outside.headers.get(h), h).toBeNull();
      expect(outside.headers.get('cache-control') ?? '').not.toContain('immutable');

      const head = await fetch(link, { method: 'HEAD', headers: { range: 'bytes=0-9' } });
      expect(head.status).toBe(206);
      expect(head.headers.get('content-length')).toBe('10');
      expect(await head.text()).toBe('');

      const cached = await fetch(link, { headers: { 'if-none-match': etag } });
      expect(cached.status).toBe(304);
      expect(await cached.text()).toBe('');
      // The signature still decides: a known tag opens nothing without it.
      expect((await fetch(link.replace(/signature=[0-9a-f]+/, `signature=${'0'.repeat(64)}`), { headers: { 'if-none-match': etag } })).status).toBe(403);
    } finally {
      await s.close();
    }
  });
});
