import { isUtf8 } from 'node:buffer';
import type { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SvcError } from '../errors.js';
import { newId } from '../ids.js';
import { requireApiKey } from './auth.js';
import { CorsPolicy } from './cors.js';
import { registerIdempotencyHooks } from './idempotency.js';
import { rateLimit } from './rate-limit.js';
import type { ServerDeps } from './deps.js';
import { IN_FLIGHT, MAX_PATH_SEGMENT, clientErrorHandler, errorHandler, jsonProblem, notFoundHandler, recordAdminRoutes, sendError, type InFlight } from './errors.js';
import { refuseNul } from './nul.js';
import { accountRoutes, accountViewRoute } from './routes/account.js';
import { adminRoutes } from './routes/admin.js';
import { chatRoutes } from './routes/chat.js';
import { conversationRoutes } from './routes/conversations.js';
import { documentRoutes } from './routes/documents.js';
import { healthRoutes } from './routes/health.js';
import { modelRoutes } from './routes/models.js';
import { reportRoutes } from './routes/reports.js';
import { responsesRoutes } from './routes/responses.js';
import { requestLogger } from './request-logger.js';
import { webRoutes } from './web/routes.js';
import { WebAuth, requireWebSession } from './web/session.js';

export interface ServerHandle {
  app: FastifyInstance;
  /** Stop accepting requests: later ones get 503 while in-flight ones finish. */
  beginClosing(): void;
}

export function buildServer(deps: ServerDeps): ServerHandle {
  const limit = deps.config.server.bodyLimitBytes;
  // The access line holds only fields written here (no headers, no query string), so it skips the
  // redaction every other line goes through, which costs about twice the rest of writing it.
  const accessLog = deps.log.child({}, { redact: [] });
  const onError = errorHandler(limit);
  const trustProxy = deps.config.server.trustProxy;
  const cors = deps.config.server.corsOrigins.length ? new CorsPolicy(deps.config.server.corsOrigins) : null;
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    // One access line per request is written by the onRequest hook below instead.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newId('req_'),
    requestIdHeader: false,
    bodyLimit: limit,
    // Fastify turns Node's 300 s request timeout off by default: a body trickled a byte at a time
    // held its connection for ever. Node checks the deadline every connectionsCheckingInterval.
    requestTimeout: deps.config.server.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, deps.config.server.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(deps.config.server.requestTimeoutMs / 4))),
    },
    // A number of hops is counted here: fastify reads a bare number as trusting no one.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_SEGMENT },
    clientErrorHandler: clientErrorHandler(deps.log as FastifyBaseLogger),
    childLoggerFactory: requestLogger,
    // A URL the router cannot read (bad percent-encoding, an over-long path segment) is answered
    // before any hook runs; without this, fastify would answer it in its own error format.
    frameworkErrors: (err, request, reply) => {
      reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
      if (cors && request.headers.origin) cors.decorate(request, reply);
      if (deps.log.isLevelEnabled('info')) logWhenClosed(accessLog, request, reply);
      onError(err, request, reply);
    },
  });
  // Node's header and request timeouts start with a request's first byte: a connection opened and
  // left silent was held for ever, so one client could use up the process's file descriptors.
  // One that has sent nothing by the headers timeout is closed (a timer, not the socket's idle
  // timeout, which would also end a long first request).
  const silentMs = Math.min(60_000, deps.config.server.requestTimeoutMs);
  app.server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.bytesRead === 0 && socket.destroy(), silentMs).unref();
    socket.once('close', () => clearTimeout(timer));
  });
  let closing = false;
  // How long the rest of a body answered early may take to come (see lingerForBody): less than the
  // request timeout, so that it never ends in a 408 the client did not ask for.
  const lingerMs = Math.min(5_000, Math.floor(deps.config.server.requestTimeoutMs / 2));
  // Declared up front, so that every request object keeps one shape (V8 hidden class) whichever
  // hooks set them, as fastify recommends, instead of changing shape as each is added.
  app.decorateRequest('auth', undefined);
  app.decorateRequest('idempotency', undefined);
  app.decorateRequest('webSession', undefined);

  const refuseClosing = () => new SvcError('unavailable', { code: 'shutting_down', message: 'The server is shutting down; retry the request.', retryAfterSeconds: 1 });
  app.addHook('onRequest', (request, reply, done) => {
    // Every answer is JSON, an event stream, a PDF or a page, each labelled: never to be sniffed as another type.
    reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
    if (deps.log.isLevelEnabled('info')) logWhenClosed(accessLog, request, reply);
    if (cors && request.headers.origin) cors.decorate(request, reply);
    if (closing) return void sendError(reply, refuseClosing());
    done();
  });

  // Once closing, every response says so: a client must not send its next request on a
  // connection about to close (it would get no answer), but open a new one elsewhere. So does one
  // answered before a body of unknown or very large length was read (see drainable).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing || (!request.raw.complete && !drainable(request.raw))) reply.header('connection', 'close');
    else {
      if (!request.raw.complete) lingerForBody(request.raw, lingerMs);
      // Fastify closes after a body it could not parse (too large, malformed): that body is read, or
      // will be and dropped, so the connection can carry on, and a client still sending gets the answer.
      if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
    }
    done(null, payload);
  });

  app.addHook('preValidation', refuseNul);

  // JSON only: a text/plain body would otherwise reach the routes as a string.
  app.removeContentTypeParser('text/plain');
  // An empty body is no body, not malformed JSON: the OpenAI Python SDK sends Content-Type JSON on
  // every POST and DELETE, including those with nothing to send (cancel, delete); routes that need
  // a body say so themselves. A compressed body is refused as such rather than as bad JSON.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding && encoding.toLowerCase() !== 'identity') {
      return done(new SvcError('unsupported_media_type', { code: 'unsupported_media_type', message: `Content-Encoding '${encoding}' is not supported: send the JSON body uncompressed.` }), undefined);
    }
    // JSON is UTF-8 (RFC 8259): another charset, or bytes that are not UTF-8, would reach the agents as replacement characters.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset && !/^utf-?8$/i.test(charset)) {
      return done(new SvcError('unsupported_media_type', { code: 'unsupported_media_type', message: `charset=${charset} is not supported: send the JSON body in UTF-8 (charset=utf-8, or no charset).` }), undefined);
    }
    const bytes = raw as Buffer;
    if (!isUtf8(bytes)) return done(new SvcError('invalid_request', { code: 'invalid_json', message: 'The body is not valid UTF-8: send the JSON encoded as UTF-8.' }), undefined);
    const body = bytes.toString('utf8');
    if (body.trim() === '') return done(null, undefined);
    json(request, body, (err, parsed) => (err ? done(jsonProblem(body), undefined) : done(null, parsed)));
  });
  app.setErrorHandler(onError);
  app.setNotFoundHandler(notFoundHandler);
  recordAdminRoutes(app);

  cors?.register(app);
  app.register(async (scope) => healthRoutes(scope, deps));
  // Signed links: the signature is the permission, so no API key (nor its rate limit) applies.
  app.register(async (scope) => documentRoutes(scope, deps));
  app.register(async (scope) => adminRoutes(scope, deps));
  const web = deps.config.web;
  const webAuth = new WebAuth(deps.sessions, {
    secureCookies: web.secureCookies,
    publicUrl: () => deps.publicUrl(),
  });
  app.register(async (scope) => webRoutes(scope, deps, webAuth));
  // The playground calls the same /v1 routes, signed in by its session cookie instead of an API key.
  app.register(
    async (scope) => {
      // Account data and answers of a signed-in person, as on the pages: never cached, never framed.
      scope.addHook('onRequest', async (_request, reply) => void reply.header('cache-control', 'no-store').header('x-frame-options', 'DENY'));
      scope.addHook('onRequest', requireWebSession(webAuth));
      scope.addHook('onRequest', rateLimit(deps));
      // Its routes claim Idempotency-Keys as the API's do, so they settle them the same way.
      registerIdempotencyHooks(scope);
      await modelRoutes(scope, deps);
      await responsesRoutes(scope, deps);
      await accountViewRoute(scope, deps);
    },
    { prefix: '/playground' },
  );
  app.register(async (scope) => {
    apiKeyHooks(scope, deps);
    await modelRoutes(scope, deps);
    await responsesRoutes(scope, deps);
    await chatRoutes(scope, deps);
    await conversationRoutes(scope, deps);
    await accountRoutes(scope, deps);
    await reportRoutes(scope, deps);
  });

  return { app, beginClosing: () => void (closing = true) };
}

/** What every route called with an API key runs besides its own work: the key, its rate limit, Idempotency-Key records. */
export function apiKeyHooks(scope: FastifyInstance, deps: ServerDeps): void {
  scope.addHook('onRequest', requireApiKey(deps.accounts, deps.adminKey));
  scope.addHook('onRequest', rateLimit(deps));
  registerIdempotencyHooks(scope);
}

/**
 * One access-log line per request, written when its connection is done with it (aborted ones too).
 * The request id is a field, as a request's child logger would bind it, so no child is built per request.
 */
function logWhenClosed(log: ServerDeps['log'], request: FastifyRequest, reply: FastifyReply): void {
  const started = process.hrtime.bigint();
  const inFlight: InFlight = { id: request.id };
  (reply.raw as typeof reply.raw & { [IN_FLIGHT]?: InFlight })[IN_FLIGHT] = inFlight;
  reply.raw.once('close', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    log.info(
      {
        reqId: request.id,
        method: request.method,
        url: pathLogged(request.url),
        // Nothing sent (the client left first): no status, rather than Node's default 200; the
        // parser's answer when it refused the rest of the request (a body too slow: 408).
        status: inFlight.refused?.status ?? (reply.raw.headersSent ? reply.raw.statusCode : null),
        code: inFlight.refused?.code,
        ms: Math.round(ms * 10) / 10,
        account: request.auth?.account.id,
        aborted: (!inFlight.refused && !reply.raw.writableFinished) || undefined,
      },
      'request',
    );
  });
}

/** A request's path for the access log: no query string, and no API key's secret (one sent in place of a key's id, `DELETE /v1/admin/keys/sk-svc-…`). */
function pathLogged(url: string): string {
  const path = url.split('?')[0]!;
  return path.includes('sk-svc-') ? path.replace(/sk-svc-[^/]*/g, 'sk-svc-…') : path;
}

/** A connection whose body, answered early, does not finish arriving in `ms` is closed (a client that declared more than it sends). */
function lingerForBody(raw: IncomingMessage, ms: number): void {
  // An injected request (fastify's inject, in tests and tools) has no socket to close.
  if (typeof raw.socket?.destroy !== 'function') return;
  const timer = setTimeout(() => raw.complete || raw.socket.destroy(), ms).unref();
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
}

/** The most of an unread body read and dropped after its answer, so that its sender gets the answer. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * A body of declared length, up to DRAIN_BYTES, answered before it was read (a 413, a 401): Node
 * reads the rest and drops it, and the connection carries on, so that a client still sending it
 * reads the answer rather than a reset. Closing at once would cut that client off mid-upload.
 */
function drainable(raw: IncomingMessage): boolean {
  const length = Number(raw.headers['content-length']);
  return raw.headers['transfer-encoding'] === undefined && Number.isSafeInteger(length) && length <= DRAIN_BYTES;
}
