import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Authenticated } from '../accounts/service.js';
import { sameSecret } from '../accounts/keys.js';
import { SvcError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Authenticated;
  }
}

const unauthorized = (message: string) => new SvcError('authentication', { code: 'invalid_api_key', message });

const bearerOf = (header: string) => /^Bearer[ ]+(\S+)\s*$/i.exec(header)?.[1] ?? null;

/** The bearer token of the Authorization header; a missing or malformed header is a 401. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthorized("You didn't provide an API key. Send it in the header 'Authorization: Bearer <API key>'.");
  const token = bearerOf(header);
  if (!token) throw unauthorized("Malformed Authorization header: expected 'Authorization: Bearer <API key>'.");
  return token;
}

export interface KeyAuthenticator {
  /** A remembered outcome (null: known bad key), or undefined when it must be looked up. */
  cachedAuthentication(secret: string): Authenticated | null | undefined;
  authenticate(secret: string): Promise<Authenticated | null>;
  touch(keyId: string): void;
}

/**
 * onRequest hook for API keys. Callback style: a remembered key is admitted without a promise.
 * `adminKey`: the admin key, which an operator may try here by mistake; it is told so, rather than
 * that the key is unknown or revoked.
 */
export function requireApiKey(keys: KeyAuthenticator, adminKey?: string) {
  const admit = (request: FastifyRequest, secret: string, auth: Authenticated | null, done: HookHandlerDoneFunction) => {
    if (!auth && adminKey && sameSecret(secret, adminKey)) {
      return done(
        unauthorized(
          'This is the admin key: it opens the admin API (/v1/admin) only. Other /v1 routes take an account\'s API key; create one with POST /v1/admin/accounts/{id}/keys or `svc keys create --account ID`.',
        ),
      );
    }
    if (!auth) return done(unauthorized(`Incorrect API key provided: ${mask(secret)}. The key is unknown or has been revoked.`));
    request.auth = auth;
    keys.touch(auth.keyId);
    done();
  };
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    let secret: string;
    try {
      secret = bearerToken(request);
    } catch (err) {
      return done(err as Error);
    }
    const known = keys.cachedAuthentication(secret);
    if (known !== undefined) return admit(request, secret, known, done);
    keys.authenticate(secret).then(
      (auth) => admit(request, secret, auth, done),
      (err: Error) => done(err),
    );
  };
}

export function requireAdminKey(adminKey: string) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    // Missing, malformed or wrong alike: what it needs is the admin key, not an API key.
    const token = bearerOf(request.headers.authorization ?? '');
    if (!token || !sameSecret(token, adminKey)) {
      throw new SvcError('authentication', { code: 'invalid_admin_key', message: "The admin API needs the admin key (SVC_ADMIN_KEY) as its bearer token: 'Authorization: Bearer <admin key>'." });
    }
  };
}

/** Shows a key the way OpenAI does in errors: its start and its last four characters. */
export function mask(secret: string): string {
  if (secret.length <= 12) return '*'.repeat(secret.length);
  return `${secret.slice(0, 7)}${'*'.repeat(Math.min(secret.length - 11, 20))}${secret.slice(-4)}`;
}
