import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '../errors.js';
import { sendError } from './errors.js';

// Browser pages on the allowed origins may call the API-key routes under /v1 (what OpenAI's API
// allows, for SDKs run in the browser). Never the admin API (its key must not be in a page), the
// signed document links (opened, not fetched), or anything signed in by cookie: no credentials
// are allowed, so a browser sends no cookies on these requests.

/** Response headers a page may read: the request id, rate limits, billing and report headers. */
const EXPOSED = [
  'x-request-id',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'retry-after',
  'x-should-retry',
  'x-credits-charged',
  'x-credits-remaining',
  'x-report-cache',
  'x-report-generated-at',
  'idempotent-replayed',
].join(', ');

/** Request headers allowed when a preflight does not list its own (it always does in browsers). */
const DEFAULT_REQUEST_HEADERS = 'authorization, content-type, idempotency-key';
const HEADER_LIST = /^\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*\s*$/;

/**
 * Whether a request URL is one of the API-key routes that CORS opens, judged on its first two
 * path segments as the router reads them (percent-decoded: `/v1/%61dmin` is the admin API). A
 * segment that cannot be decoded there is not opened; one further on (a bad id) leaves the
 * route's error readable.
 */
function isApiPath(url: string): boolean {
  const q = url.indexOf('?');
  const [, first, second] = (q === -1 ? url : url.slice(0, q)).split('/', 3);
  if (first === undefined || second === undefined) return false;
  try {
    const area = decodeURIComponent(second);
    return decodeURIComponent(first) === 'v1' && !area.startsWith('admin') && !area.startsWith('documents');
  } catch {
    return false;
  }
}

export class CorsPolicy {
  readonly #any: boolean;
  readonly #origins: Set<string>;

  constructor(origins: readonly string[]) {
    this.#any = origins.includes('*');
    this.#origins = new Set(origins);
  }

  #allows(origin: string): boolean {
    return this.#any || this.#origins.has(origin);
  }

  /** onRequest: the CORS headers of a cross-origin API request, set before anything can refuse it (errors stay readable). */
  decorate(request: FastifyRequest, reply: FastifyReply): void {
    const origin = request.headers.origin;
    if (!origin || !isApiPath(request.url) || !this.#allows(origin)) return;
    reply.header('access-control-allow-origin', this.#any ? '*' : origin);
    reply.header('access-control-expose-headers', EXPOSED);
    if (!this.#any) reply.header('vary', 'Origin');
  }

  /** `OPTIONS /v1/*`: the preflight a browser sends before a request with an Authorization header. */
  register(app: FastifyInstance): void {
    app.options('/v1/*', (request, reply) => {
      const origin = request.headers.origin;
      if (!origin || !isApiPath(request.url) || !this.#allows(origin)) {
        return sendError(
          reply,
          new SvcError('permission', {
            code: 'cors_origin_not_allowed',
            message: !origin
              ? 'A CORS preflight needs an Origin header.'
              : this.#allows(origin)
                ? `${request.url.split('?')[0]} is not open to pages on any origin: the admin API is called from servers, and document links are opened, not fetched.`
                : `Pages on ${origin} may not call this API from the browser; the operator lists allowed origins in SVC_CORS_ORIGINS.`,
          }),
        );
      }
      const asked = request.headers['access-control-request-headers'];
      // Chrome asks before a public page reaches a server on a private network (this one on a LAN or
      // localhost): an origin the operator allowed may.
      if (request.headers['access-control-request-private-network'] === 'true') reply.header('access-control-allow-private-network', 'true');
      return reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS')
        .header('access-control-allow-headers', typeof asked === 'string' && HEADER_LIST.test(asked) ? asked.trim() : DEFAULT_REQUEST_HEADERS)
        .header('access-control-max-age', '600')
        .header('vary', 'Origin, Access-Control-Request-Headers')
        .send();
    });
  }
}
