import { createReadStream } from 'node:fs';
import type { FastifyError, FastifyInstance } from 'fastify';
import { SvcError, notFound } from '../../errors.js';
import type { ServerDeps } from '../deps.js';
import { errorHandler, toSvcError } from '../errors.js';
import { requestedRange } from '../ranges.js';
import { html } from '../web/html.js';
import { PAGE_HEADERS } from '../web/headers.js';
import { statusOf } from '../../wire/errors.js';

/**
 * Rendered documents behind signed links: no API key, the signature is the permission. A
 * missing, altered or expired signature is 403; a valid one for an unknown document is 404.
 * PDF viewers fetch large files in byte ranges (206), resuming with If-Range.
 */
export async function documentRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  // A source link opened in a browser tab: a refusal is a page saying what to do, not JSON.
  app.setErrorHandler((err, request, reply) => {
    const known = toSvcError(err, deps.config.server.bodyLimitBytes);
    if (!known || !/\btext\/html\b/.test(request.headers.accept ?? '')) return onError(err as FastifyError, request, reply);
    const title = known.code === 'link_expired' ? 'This document link has expired' : known.kind === 'not_found' ? 'Document not found' : 'This document link is not valid';
    return reply
      .code(statusOf(known))
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(
        html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · svc</title><link rel="stylesheet" href="/assets/style.css"></head>
<body><main id="main"><h1>${title}</h1><p>${known.message}</p>
<p>Source links in answers are signed and last a limited time: ask the question again (in the <a href="/playground">playground</a> or the API) for fresh ones.</p></main></body></html>`.value,
      );
  });
  const onError = errorHandler(deps.config.server.bodyLimitBytes);
  app.get('/v1/documents/:file', async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const query = request.query as Record<string, unknown>;
    const id = file.endsWith('.pdf') ? file.slice(0, -4) : file;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    // A parameter given twice is not the link as it was signed.
    if (Array.isArray(query.expires) || Array.isArray(query.signature)) {
      throw new SvcError('permission', { code: 'invalid_signature', message: 'This document link is not valid: its expires or signature parameter appears more than once. Use the link exactly as the answer gave it.', param: Array.isArray(query.signature) ? 'signature' : 'expires' });
    }
    const expires = deps.documents.verify(id, text(query.expires), text(query.signature));
    const missing = () => notFound('document_not_found', `No document '${file}' exists on this server.`);
    // Checked before opening, which may render the document.
    if (!file.endsWith('.pdf')) throw missing();
    const found = await deps.documents.open(id);
    if (!found) throw missing();
    const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
    // Per stored file: a replica that rendered the document again has another tag, so no
    // viewer joins ranges of two renderings.
    const etag = `"${found.size.toString(16)}-${Math.floor(found.modified.getTime()).toString(16)}"`;
    const lastModified = found.modified.toUTCString();
    // The document's own headers: not on a 416, whose body is an error, not this PDF.
    const asDocument = () =>
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${id}.pdf"`)
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('x-content-type-options', 'nosniff')
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('last-modified', lastModified);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) return asDocument().code(304).send();
    const ifRange = request.headers['if-range'];
    // A range of another version of the file would corrupt the copy the viewer holds: send it whole.
    const range = ifRange === undefined || ifRange === etag || ifRange === lastModified ? requestedRange(request.headers.range, found.size) : 'whole';
    if (range === 'unsatisfiable') {
      reply.header('accept-ranges', 'bytes').header('content-range', `bytes */${found.size}`);
      throw new SvcError('range_not_satisfiable', {
        code: 'range_not_satisfiable',
        message: `The requested range (${request.headers.range}) is outside this document of ${found.size} bytes; ask for bytes 0-${Math.max(0, found.size - 1)} or fewer.`,
        param: 'Range',
      });
    }
    asDocument();
    if (range === 'whole') return reply.header('content-length', String(found.size)).send(createReadStream(found.file));
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${found.size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(createReadStream(found.file, { start: range.start, end: range.end }));
  });
}
