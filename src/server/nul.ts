import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { invalidRequest, type SvcError } from '../errors.js';
import { sendError } from './errors.js';

/** Deeper than any request svc or OpenAI defines; unbounded nesting overflowed the stack (a 500). */
export const MAX_DEPTH = 64;

/**
 * What in a parsed JSON value cannot be taken: a NUL character (`messages[0].content`) or nesting
 * deeper than MAX_DEPTH. Null when there is nothing.
 */
export function unacceptableAt(value: unknown, path = '', depth = 0): SvcError | null {
  if (typeof value === 'string') return value.includes('\0') ? nulError(path || 'body') : (value as WellFormed).isWellFormed() ? null : surrogateError(path || 'body');
  if (!value || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return invalidRequest('invalid_value', `Invalid '${path}': JSON may be nested at most ${MAX_DEPTH} levels deep.`, path);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unacceptableAt(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\0')) return nulError(at);
    const found = unacceptableAt(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Node 20 has String.prototype.isWellFormed; TypeScript's lib for our target does not declare it. */
type WellFormed = string & { isWellFormed(): boolean };

// A lone surrogate (\ud800 escaped in JSON) is no character: stored, it would come back as U+FFFD, not as sent.
const surrogateError = (at: string) => invalidRequest('invalid_value', `Invalid '${at}': the text has a lone UTF-16 surrogate (an escape such as \\ud800 without its pair), which is no character. Send whole characters.`, at);
const nulError = (at: string) => invalidRequest('invalid_value', `Invalid '${at}': text may not contain the NUL character (\\u0000).`, at);

/**
 * Refuses the NUL character anywhere in a request (path, query or JSON body), and bodies nested
 * too deeply to walk. Postgres cannot store NUL in text, so it is refused on every database alike,
 * with a 400 naming where it is.
 */
export function refuseNul(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.url.includes('%00')) return void sendError(reply, invalidRequest('invalid_url', 'The request URL contains a NUL character (%00); no id, name or parameter may.'));
  const refused = request.body === undefined ? null : unacceptableAt(request.body);
  if (refused) return void sendError(reply, refused);
  done();
}
