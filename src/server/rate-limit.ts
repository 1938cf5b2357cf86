import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatDuration } from '../billing/rate-limit.js';
import { SvcError } from '../errors.js';
import type { ServerDeps } from './deps.js';

/** Per-key requests-per-minute by plan, with OpenAI's x-ratelimit-* headers on every response. */
export function rateLimit(deps: ServerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { account, keyId } = request.auth!;
    const limit = deps.config.rateLimits[account.plan];
    const d = await deps.rateLimiter.take(keyId, limit);
    reply.header('x-ratelimit-limit-requests', String(d.limit));
    reply.header('x-ratelimit-remaining-requests', String(d.remaining));
    reply.header('x-ratelimit-reset-requests', formatDuration(d.resetSeconds));
    if (!d.allowed) {
      throw new SvcError('rate_limited', {
        code: 'rate_limit_exceeded',
        message: `Rate limit reached for this API key: ${limit} requests per minute on the ${account.plan} plan. Retry in ${d.retryAfterSeconds}s.`,
        retryAfterSeconds: d.retryAfterSeconds,
      });
    }
  };
}
