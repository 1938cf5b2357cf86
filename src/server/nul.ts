import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { invalidRequest } from '../errors.js';
import { sendError } from './errors.js';

/** Where a NUL character is in a parsed JSON value (`messages[0].content`), or null. */
export function nulAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulAt(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\0')) return at;
      const found = nulAt(item, at);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Refuses the NUL character anywhere in a request (path, query or JSON body). Postgres cannot store
 * it in text, so it is refused on every database alike, with a 400 naming where it is.
 */
export function refuseNul(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.url.includes('%00')) return void sendError(reply, invalidRequest('invalid_url', 'The request URL contains a NUL character (%00); no id, name or parameter may.'));
  const at = request.body === undefined ? null : nulAt(request.body);
  if (at) return void sendError(reply, invalidRequest('invalid_value', `Invalid '${at}': text may not contain the NUL character (\\u0000).`, at));
  done();
}
