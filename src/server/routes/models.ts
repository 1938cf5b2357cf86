import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { ServerDeps } from '../deps.js';

export async function modelRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  const model = (m: { id: string; description: string }) => ({ id: m.id, object: 'model', created: deps.startedAt, owned_by: 'svc', description: m.description });

  app.get('/v1/models', async () => ({ object: 'list', data: deps.agents.models().map(model) }));

  app.get('/v1/models/*', async (request) => {
    // Wildcard: model ids may contain ':' (variants), which a named parameter would split on.
    // The router has already percent-decoded it: decoding again would turn '%' into a 500.
    const id = (request.params as { '*': string })['*'];
    const found = deps.agents.model(id);
    if (!found) throw notFound('model_not_found', `The model '${id}' does not exist.${deps.agents.meant(id)} GET /v1/models lists the available models.`, 'model');
    return model(found);
  });
}
