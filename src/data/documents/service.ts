import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SvcError } from '../../errors.js';
import type { PagedDocument } from './model.js';
import { renderPdf } from './pdf.js';
import { checkDocumentLink, signDocument } from './signing.js';

/** Bumped when rendering changes how content falls on pages: older PDFs are rendered again. */
const LAYOUT_VERSION = 1;

export const DOCUMENT_ID = /^[a-z0-9][a-z0-9_-]{0,127}$/;

/** Makes the document for an id on request (for a PDF another replica linked to), or null when it does not exist. */
export type DocumentProducer = (id: string) => Promise<PagedDocument | null>;

export interface DocumentServiceOptions {
  dataDir: string;
  signingSecret: string;
  linkTtlSeconds: number;
  /** The base URL clients reach the server at. */
  publicUrl: () => string;
  now?: () => number;
}

interface StoredMeta {
  id: string;
  title: string;
  pages: number;
  layout: number;
  renderedAt: string;
}

/**
 * Rendered documents (PDFs) under the data dir, each rendered once and reused, and the
 * time-limited signed links through which clients fetch them without an API key.
 */
export class DocumentService {
  readonly dir: string;
  readonly #o: DocumentServiceOptions;
  readonly #rendering = new Map<string, Promise<StoredMeta>>();
  readonly #producers = new Map<string, DocumentProducer>();

  constructor(options: DocumentServiceOptions) {
    this.#o = options;
    this.dir = path.join(options.dataDir, 'documents');
    // Checked at start-up, where a failure names SVC_DATA_DIR: found at the first citation, it was a 500 on every SEC answer.
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    accessSync(this.dir, constants.W_OK);
  }

  #now(): number {
    return Math.floor((this.#o.now?.() ?? Date.now()) / 1000);
  }

  #files(id: string) {
    if (!DOCUMENT_ID.test(id)) throw new SvcError('internal', { code: 'server_error', message: `invalid document id ${JSON.stringify(id)}` });
    return { pdf: path.join(this.dir, `${id}.pdf`), meta: path.join(this.dir, `${id}.json`) };
  }

  #stored(id: string): StoredMeta | null {
    const files = this.#files(id);
    if (!existsSync(files.pdf) || !existsSync(files.meta)) return null;
    try {
      const meta = JSON.parse(readFileSync(files.meta, 'utf8')) as StoredMeta;
      return meta.layout === LAYOUT_VERSION ? meta : null;
    } catch {
      return null;
    }
  }

  /** Registers who can make documents whose ids start with `prefix-`. */
  registerProducer(prefix: string, producer: DocumentProducer): void {
    this.#producers.set(prefix, producer);
  }

  /** The stored PDF for an id, rendering it (once, even when asked concurrently) when it is not there yet. */
  ensure(id: string, produce: () => Promise<PagedDocument>): Promise<{ pages: number }> {
    const stored = this.#stored(id);
    if (stored) return Promise.resolve({ pages: stored.pages });
    let pending = this.#rendering.get(id);
    if (!pending) {
      pending = this.#render(id, produce).finally(() => this.#rendering.delete(id));
      this.#rendering.set(id, pending);
    }
    return pending.then((m) => ({ pages: m.pages }));
  }

  async #render(id: string, produce: () => Promise<PagedDocument>): Promise<StoredMeta> {
    const doc = await produce();
    const bytes = await renderPdf(doc);
    const files = this.#files(id);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const meta: StoredMeta = { id, title: doc.title, pages: doc.pages.length, layout: LAYOUT_VERSION, renderedAt: new Date().toISOString() };
    // Written under temporary names and renamed: a reader never sees half a file.
    const suffix = `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(files.pdf + suffix, bytes, { mode: 0o600 });
    renameSync(files.pdf + suffix, files.pdf);
    writeFileSync(files.meta + suffix, `${JSON.stringify(meta)}\n`, { mode: 0o600 });
    renameSync(files.meta + suffix, files.meta);
    return meta;
  }

  /** An absolute link to the PDF, signed and valid for `ttlSeconds` (default SVC_DOCUMENT_LINK_TTL_S), opening at `page`. */
  signedUrl(id: string, options: { page?: number; ttlSeconds?: number } = {}): string {
    this.#files(id);
    const expires = this.#now() + (options.ttlSeconds ?? this.#o.linkTtlSeconds);
    const signature = signDocument(this.#o.signingSecret, id, expires);
    const fragment = options.page ? `#page=${options.page}` : '';
    return `${this.#o.publicUrl()}/v1/documents/${id}.pdf?expires=${expires}&signature=${signature}${fragment}`;
  }

  /** Checks a link; a missing, altered or expired one is refused (403). Returns its expiry. */
  verify(id: string, expires: string | undefined, signature: string | undefined): number {
    const result = DOCUMENT_ID.test(id) ? checkDocumentLink(this.#o.signingSecret, id, expires, signature, this.#now()) : 'invalid';
    if (result === 'valid') return Number(expires);
    const message = {
      missing: 'This document link is not signed: it needs its expires and signature parameters. Ask the agent again for a fresh link.',
      invalid: 'This document link is not valid: its signature does not match. Use the link exactly as the answer gave it, or ask again for a fresh one.',
      expired: 'This document link has expired. Ask the agent again for a fresh link.',
    }[result];
    throw new SvcError('permission', { code: result === 'expired' ? 'link_expired' : 'invalid_signature', message, param: result === 'missing' ? 'signature' : null });
  }

  /** The PDF file for an id, made on request by its producer when this server has not rendered it; null when unknown. */
  async open(id: string): Promise<{ file: string; size: number; modified: Date } | null> {
    if (!this.#stored(id)) {
      const producer = this.#producers.get(id.split('-')[0]!);
      if (!producer) return null;
      let made = false;
      await this.ensure(id, async () => {
        const doc = await producer(id);
        if (!doc) throw new NotProduced();
        made = true;
        return doc;
      }).catch((err) => {
        if (!(err instanceof NotProduced)) throw err;
      });
      if (!made && !this.#stored(id)) return null;
    }
    const file = this.#files(id).pdf;
    const stat = statSync(file);
    return { file, size: stat.size, modified: stat.mtime };
  }
}

class NotProduced extends Error {}
