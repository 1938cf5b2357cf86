import type { FastifyInstance } from 'fastify';
import { SvcError } from '../../errors.js';
import type { ServerDeps } from '../deps.js';
import { sendError } from '../errors.js';
import { STILL_WAITING, settledWithin } from '../stream.js';

export async function healthRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      // A database that stalls answers nothing: after 2 s that is not ready either.
      if ((await settledWithin(deps.store.ping(), 2000)) === STILL_WAITING) throw new Error('storage did not answer within 2 s');
    } catch (err) {
      request.log.warn({ err }, 'storage unreachable');
      return sendError(reply, new SvcError('unavailable', { code: 'storage_unreachable', message: `Storage (${deps.store.dialect}) is unreachable.` }));
    }
    if (deps.inflight.deadline.aborted) return sendError(reply, new SvcError('unavailable', { code: 'shutting_down', message: 'The server is shutting down.' }));
    return { status: 'ready', storage: deps.store.dialect };
  });
}
