import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { ServerDeps } from '../deps.js';

/**
 * Rendered documents behind signed links: no API key, the signature is the permission. A
 * missing, altered or expired signature is 403; a valid one for an unknown document is 404.
 */
export async function documentRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.get('/v1/documents/:file', async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const query = request.query as Record<string, unknown>;
    const id = file.endsWith('.pdf') ? file.slice(0, -4) : file;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const expires = deps.documents.verify(id, text(query.expires), text(query.signature));
    const missing = () => notFound('document_not_found', `No document '${file}' exists on this server.`);
    // Checked before opening, which may render the document.
    if (!file.endsWith('.pdf')) throw missing();
    const found = await deps.documents.open(id);
    if (!found) throw missing();
    const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
    return reply
      .header('content-type', 'application/pdf')
      .header('content-length', String(found.size))
      .header('content-disposition', `inline; filename="${id}.pdf"`)
      .header('cache-control', `private, max-age=${maxAge}, immutable`)
      .header('x-content-type-options', 'nosniff')
      .send(createReadStream(found.file));
  });
}
