import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError, isSvcError } from '../errors.js';
import { newId } from '../ids.js';
import { errorBody, statusOf } from '../wire/errors.js';
import { metaHeaders } from './stream.js';
import { PAGE_HEADERS } from './web/headers.js';

/** The router's limit on one path parameter (its `maxParamLength`): longer than any id or name. */
export const MAX_PATH_SEGMENT = 100;

/**
 * Why a JSON body the parser refused was refused (only called then). Valid JSON is refused when
 * it has a key that could rewrite object prototypes; anything else is said with JSON.parse's own
 * words, which point at the fault ("Unexpected end of JSON input", "… at position 12").
 */
export function jsonProblem(body: string): SvcError {
  try {
    JSON.parse(body);
  } catch (err) {
    return new SvcError('invalid_request', {
      code: 'invalid_json',
      message: `We could not parse the JSON body of your request (${(err as Error).message}). Send valid JSON with 'Content-Type: application/json'.`,
    });
  }
  return new SvcError('invalid_request', {
    code: 'forbidden_json_key',
    message: "The JSON body has a key named '__proto__' (or a 'constructor' key holding 'prototype'), which svc refuses because such keys can alter objects on the server. Rename that key (in metadata, for example).",
  });
}

/** " (1 MiB)", " (1.50 KiB)": a byte count in the largest unit it fills; nothing under a KiB. */
function sizeInUnits(bytes: number): string {
  const [unit, size] = bytes >= 1048576 ? ['MiB', 1048576] : bytes >= 1024 ? ['KiB', 1024] : [null, 1];
  return unit ? ` (${(bytes / size).toFixed(bytes % size ? 2 : 0)} ${unit})` : '';
}

/** Fastify's own errors (body parsing, routing) in OpenAI's words. */
function fromFastify(err: FastifyError, limitBytes: number): SvcError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new SvcError('payload_too_large', {
        code: 'request_too_large',
        message: `The request body is larger than the limit of ${limitBytes} bytes${sizeInUnits(limitBytes)}. Send a shorter input.`,
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new SvcError('unsupported_media_type', {
        code: 'unsupported_media_type',
        message: "Unsupported Content-Type: send the body as JSON with the header 'Content-Type: application/json'.",
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new SvcError('invalid_request', { code: 'missing_body', message: "The request body is empty, but Content-Type is 'application/json': send a JSON object." });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new SvcError('invalid_request', { code: 'invalid_content_length', message: 'The request body size does not match its Content-Length header.' });
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_INVALID_URL':
      return new SvcError('invalid_request', { code: 'invalid_url', message: 'The request URL is malformed: check its percent-encoding (%XX escapes of UTF-8 bytes).' });
    // Postgres cancelled a query at the statement timeout (a lock held elsewhere): the request may succeed again.
    case '57014':
      return storageTimeout();
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new SvcError('invalid_request', { code: 'invalid_url', message: `A segment of the request URL's path is longer than ${MAX_PATH_SEGMENT} characters; no id or name is that long.` });
  }
  if (err.name === 'SyntaxError' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new SvcError('invalid_request', {
      code: 'invalid_json',
      message: `We could not parse the JSON body of your request (${err.message.replace(/^FST_ERR_\w+: /, '')}). Send valid JSON with 'Content-Type: application/json'.`,
    });
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return new SvcError('invalid_request', { code: 'invalid_request', message: err.message });
  return null;
}

const storageTimeout = () =>
  new SvcError('unavailable', { code: 'storage_timeout', message: 'The database did not answer in time. Retry the request shortly.', retryAfterSeconds: 1 });

export function toSvcError(err: unknown, limitBytes: number): SvcError | null {
  if (isSvcError(err)) return err;
  // node-postgres gave up on a connection that stopped answering (query_timeout).
  if (err instanceof Error && err.message === 'Query read timeout') return storageTimeout();
  if (err && typeof err === 'object' && ('code' in err || 'statusCode' in err || (err as Error).name === 'SyntaxError')) {
    return fromFastify(err as FastifyError, limitBytes);
  }
  return null;
}

/**
 * Requests Node's HTTP parser refuses before fastify sees them (headers over the size limit,
 * malformed HTTP), answered in OpenAI's error format rather than fastify's.
 */
export function clientErrorHandler(log: FastifyBaseLogger) {
  return (err: Error & { code?: string }, socket: Socket) => refuseUnreadable(err, socket, log);
}

/**
 * On the response of a request fastify is handling: its id, and, when Node's parser refused the
 * rest of it (its body came too slowly), what the client was sent instead, for its access-log line.
 */
export const IN_FLIGHT = Symbol('svc.inFlight');
export interface InFlight {
  id: string;
  refused?: { status: number; code: string };
}

/**
 * With an id and an access-log line: a slow or oversized client otherwise left no trace. A request
 * already being handled (its body too slow) keeps its own id and line, which says what was sent.
 */
function refuseUnreadable(err: Error & { code?: string }, socket: Socket, log: FastifyBaseLogger): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy(err);
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'request_headers_too_large', 'The request headers are larger than the server accepts (16 KiB in all): send a shorter Authorization header or fewer, smaller headers.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive (SVC_REQUEST_TIMEOUT_MS for headers and body together); send it again.']
        : [400, 'malformed_request', 'The request is not valid HTTP/1.1; it could not be read.'];
  const body = JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } });
  // Node's own: the response the socket is serving, when a request was dispatched on it.
  const current = (socket as Socket & { _httpMessage?: { [IN_FLIGHT]?: InFlight } })._httpMessage?.[IN_FLIGHT];
  const id = current?.id ?? newId('req_');
  if (current) current.refused = { status, code };
  else log.info({ reqId: id, status, code, remote: socket.remoteAddress }, 'request');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nx-content-type-options: nosniff\r\nConnection: close\r\n\r\n${body}`);
}

export const INTERNAL = () =>
  new SvcError('internal', { code: 'server_error', message: 'The server had an error while processing your request. It was logged with the x-request-id of this response.' });

/** Sends `{"error": …}` with the status of its kind, Retry-After when the error knows one, `x-should-retry: false` when no retry can help. */
export function sendError(reply: FastifyReply, err: SvcError): FastifyReply {
  reply.code(statusOf(err)).header('content-type', 'application/json; charset=utf-8');
  if (err.meta) reply.headers(metaHeaders(err.meta));
  if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
  // openai-node retries 408, 409, 429 and 5xx unless told otherwise.
  if (err.permanent) reply.header('x-should-retry', 'false');
  return reply.send({ error: errorBody(err) });
}

export function errorHandler(limitBytes: number) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = toSvcError(err, limitBytes);
    if (!known) request.log.error({ err }, 'unhandled error');
    return sendError(reply, known ?? INTERNAL());
  };
}

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found · svc</title><link rel="stylesheet" href="/assets/style.css"></head>
<body><main id="main"><h1>Page not found</h1><p>There is no page at this address.</p>
<p><a href="/">Go to the start page</a> · <a href="/playground">Playground</a> · <a href="/settings">Settings</a></p></main></body></html>`;

/** A browser asking for a page (not the API) gets an HTML answer. */
const wantsPage = (request: FastifyRequest, path: string) =>
  (request.method === 'GET' || request.method === 'HEAD') && !/^\/(v1|playground\/v1)(\/|$)/.test(path) && /\btext\/html\b/.test(request.headers.accept ?? '');

/** The methods a request may be made with, besides OPTIONS (the CORS preflight route, when on, takes every /v1 path). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The methods the router has a route for at `path` (its own method has none, or it would not be
 * here). A match with an empty id (`/v1/responses//input_items`) is no URL of the API.
 */
function allowedMethods(request: FastifyRequest, path: string): string[] {
  return METHODS.filter((method) => {
    if (method === request.method) return false;
    const route = request.server.findRoute({ method, url: path });
    return route !== null && !Object.values(route.params as Record<string, string>).includes('');
  });
}

/** Whether the router has a route at `path`, for `method` or (no method given) any. */
function routed(request: FastifyRequest, path: string, method?: string): boolean {
  return (method ? [method] : METHODS).some((m) => {
    const route = request.server.findRoute({ method: m as (typeof METHODS)[number], url: path });
    return route !== null && !Object.values(route.params as Record<string, string>).includes('');
  });
}

/**
 * An unknown URL that is a known one written in the wrong case (`/V1/Models`), without its `/v1`
 * (a base URL missing it), or with it twice (a base URL ending in /v1 and a path starting with
 * it): the 404 names the URL meant. Only a path's fixed words change case, never an id in it.
 */
function didYouMean(request: FastifyRequest, path: string): string | null {
  const segments = path.split('/');
  const candidates: string[] = [];
  const changeable = segments.map((s, i) => (s !== s.toLowerCase() ? i : -1)).filter((i) => i >= 0);
  if (changeable.length && changeable.length <= 6) {
    // Fewest segments lowered first, so that an id's case is kept where a fixed word suffices.
    const masks = Array.from({ length: (1 << changeable.length) - 1 }, (_, m) => m + 1).sort((a, b) => bits(a) - bits(b));
    for (const mask of masks) candidates.push(segments.map((s, i) => (changeable.some((c, j) => c === i && mask & (1 << j)) ? s.toLowerCase() : s)).join('/'));
  }
  if (!/^\/v1(\/|$)/i.test(path)) candidates.push(`/v1${path}`);
  if (/^\/v1\/v1(\/|$)/i.test(path)) candidates.push(path.slice(3));
  for (const method of [request.method, undefined]) {
    const found = candidates.find((c) => routed(request, c, method));
    if (found) return `Unknown request URL: ${request.method} ${path}. Did you mean ${found}? Paths are case-sensitive and the API lives under /v1.`;
  }
  return null;
}

const bits = (n: number) => n.toString(2).replace(/0/g, '').length;

const ANSWER = 'POST /v1/responses or POST /v1/chat/completions';

/**
 * OpenAI endpoints this service does not have, by path (with or without its `/v1`, in any case):
 * what a client tried, and what the service offers instead. A bare "Unknown request URL" left an
 * OpenAI user guessing whether the base URL, the key or the path was wrong.
 */
const NOT_OFFERED: readonly { path: RegExp; what: string; instead: string }[] = [
  { path: /^completions$|^engines\/[^/]+\/completions$/, what: 'the legacy completions endpoint', instead: `use ${ANSWER} (the same models, GET /v1/models)` },
  { path: /^edits$/, what: 'the legacy edits endpoint', instead: `use ${ANSWER}` },
  { path: /^engines(\/|$)/, what: 'engines (a legacy endpoint)', instead: 'GET /v1/models lists the models' },
  { path: /^embeddings$/, what: 'embeddings', instead: `its models are research agents that answer in text: ${ANSWER} (GET /v1/models lists them)` },
  { path: /^images(\/|$)/, what: 'image generation or editing', instead: `its models answer in text: ${ANSWER}` },
  { path: /^audio(\/|$)/, what: 'audio (speech, transcriptions, translations)', instead: `its models take and answer text: ${ANSWER}` },
  { path: /^(files|uploads)(\/|$)/, what: 'file uploads', instead: `put the text in the request itself (the input of POST /v1/responses, the messages of POST /v1/chat/completions)` },
  { path: /^vector_stores(\/|$)/, what: 'vector stores', instead: `ask the research agents directly: ${ANSWER}` },
  { path: /^(assistants|threads)(\/|$)/, what: 'the Assistants API (assistants, threads, runs)', instead: 'use POST /v1/responses, continued with previous_response_id or in a conversation (POST /v1/conversations)' },
  { path: /^moderations$/, what: 'moderation', instead: `its models are research agents: ${ANSWER}` },
  { path: /^batches(\/|$)/, what: 'the Batch API', instead: 'send requests one by one; POST /v1/responses with "background": true answers at once and runs on (GET /v1/responses/{id} for its result)' },
  { path: /^(fine_tuning|fine-tunes)(\/|$)/, what: 'fine-tuning', instead: 'its models are fixed research agents: GET /v1/models lists them' },
  { path: /^videos(\/|$)/, what: 'video generation', instead: `its models answer in text: ${ANSWER}` },
  { path: /^containers(\/|$)/, what: 'containers (code interpreter)', instead: `its research agents run their own tools: ${ANSWER}` },
  { path: /^evals(\/|$)/, what: 'evals', instead: `ask the models directly: ${ANSWER}` },
  { path: /^realtime(\/|$)/, what: 'the Realtime API', instead: `stream an answer with "stream": true on ${ANSWER}` },
  { path: /^responses\/(input_tokens|compact)$/, what: 'token counting or compaction of responses', instead: 'send the request to POST /v1/responses; with "truncation": "auto" it leaves out the oldest earlier turns that do not fit' },
];

/** What the service offers instead of an OpenAI endpoint it does not have, or null. */
function notOffered(method: string, path: string): string | null {
  const rest = path.replace(/^\/(v1\/)*/i, '').replace(/\/+$/, '');
  const found = NOT_OFFERED.find((e) => e.path.test(rest.toLowerCase()));
  return found ? `This service does not offer ${found.what} (${method} ${path}); ${found.instead}.` : null;
}

/** Each server's admin routes ("GET /v1/admin/accounts/{id}"), as registered: what an unknown admin URL's 404 lists. */
const ADMIN_ROUTES = new WeakMap<object, string[]>();

/** Records `app`'s admin routes as they are registered (call before registering them). */
export function recordAdminRoutes(app: FastifyInstance): void {
  const routes: string[] = [];
  ADMIN_ROUTES.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (!/^\/v1\/admin(\/|$)/.test(route.url)) return;
    // With the query a route takes (`GET /v1/admin/accounts?email=…`).
    const query = ((route.config as { query?: readonly string[] } | undefined)?.query ?? []).map((q, i) => `${i ? '&' : '?'}${q}=…`).join('');
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}${query}`);
    // By path, then method: the routes of one resource together.
    const order = ['POST', 'GET', 'PATCH', 'DELETE'];
    routes.sort((a, b) => a.split(' ')[1]!.localeCompare(b.split(' ')[1]!) || order.indexOf(a.split(' ')[0]!) - order.indexOf(b.split(' ')[0]!));
  });
}

/** An unknown URL under /v1/admin: the routes the admin API has (an operator guessing `GET /v1/admin/keys`). */
function adminRoutesMessage(request: FastifyRequest, path: string): string | null {
  if (!/^\/v1\/admin(\/|$)/i.test(path)) return null;
  const routes = ADMIN_ROUTES.get(request.server);
  if (!routes?.length) return null;
  return `Unknown request URL: ${request.method} ${path}. The admin API has ${routes.join(', ')}.`;
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0]!;
  // An OpenAI endpoint this service does not have (`POST /v1/embeddings`): 404 saying what it offers instead.
  const instead = notOffered(request.method, path);
  if (instead) return sendError(reply, new SvcError('not_found', { code: 'unknown_url', message: instead }));
  // A known path asked with another method: 405 with the methods it takes (RFC 9110), not "unknown URL".
  const allowed = allowedMethods(request, path);
  if (allowed.length) {
    // A plain OPTIONS asks which methods the path takes; a CORS preflight not opened (CORS off, the
    // playground, the pages) still gets no answer a browser would act on.
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] === undefined) {
      return reply.code(204).header('allow', [...allowed, 'OPTIONS'].join(', ')).send();
    }
    if (request.method !== 'OPTIONS') {
      reply.header('allow', [...allowed, 'OPTIONS'].join(', '));
      return sendError(
        reply,
        new SvcError('method_not_allowed', {
          code: 'method_not_allowed',
          message: `Method ${request.method} is not allowed on ${path}: it takes ${orList(allowed.filter((m) => m !== 'HEAD'))}.`,
        }),
      );
    }
  }
  if (wantsPage(request, path)) return reply.code(404).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
  return sendError(
    reply,
    new SvcError('not_found', {
      code: 'unknown_url',
      message: didYouMean(request, path) ?? adminRoutesMessage(request, path) ?? `Unknown request URL: ${request.method} ${path}. Check the method and path; the API lives under /v1 (POST /v1/responses, POST /v1/chat/completions, GET /v1/models).`,
    }),
  );
}

/** "POST", "GET or POST", "GET, POST or DELETE". */
const orList = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : items[0]!);
