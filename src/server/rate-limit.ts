import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { formatDuration, type RateDecision } from '../billing/rate-limit.js';
import { SvcError } from '../errors.js';
import type { ServerDeps } from './deps.js';

/**
 * Per-key requests-per-minute by plan, with OpenAI's x-ratelimit-* headers on every response.
 * Callback style: with in-memory counters the decision is synchronous and costs no promise.
 */
export function rateLimit(deps: ServerDeps) {
  const apply = (request: FastifyRequest, reply: FastifyReply, d: RateDecision, done: HookHandlerDoneFunction) => {
    reply.header('x-ratelimit-limit-requests', String(d.limit));
    reply.header('x-ratelimit-remaining-requests', String(d.remaining));
    reply.header('x-ratelimit-reset-requests', formatDuration(d.resetSeconds));
    if (d.allowed) return done();
    const { account, keyId } = request.auth!;
    // The playground signs in with a session, not a key: its requests count against the account.
    const whose = keyId.startsWith('web:') ? 'the playground on this account' : 'this API key';
    done(
      new SvcError('rate_limited', {
        code: 'rate_limit_exceeded',
        message: `Rate limit reached for ${whose}: ${d.limit} request${d.limit === 1 ? '' : 's'} per minute on the ${account.plan} plan. Retry in ${d.retryAfterSeconds}s.`,
        retryAfterSeconds: d.retryAfterSeconds,
      }),
    );
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const { account, keyId } = request.auth!;
    let decision: RateDecision | Promise<RateDecision>;
    try {
      decision = deps.rateLimiter.take(keyId, deps.config.rateLimits[account.plan]);
    } catch (err) {
      return done(err as Error);
    }
    if (!(decision instanceof Promise)) return apply(request, reply, decision, done);
    decision.then(
      (d) => apply(request, reply, d, done),
      (err: Error) => done(err),
    );
  };
}
