import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionStore, WebSession } from '../../accounts/sessions.js';
import { SvcError } from '../../errors.js';
import { randomToken } from '../../ids.js';
import { parseCookies, serializeCookie } from './cookies.js';

declare module 'fastify' {
  interface FastifyRequest {
    webSession?: WebSession | null;
  }
}

export type SecureCookies = 'auto' | 'always' | 'never';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/**
 * Whether cookies get the Secure attribute. `auto`: yes over https (directly or as the public
 * URL says, behind a TLS proxy) and on loopback hosts, which browsers treat as secure contexts;
 * no only for plain http to another host, where a browser would drop a Secure cookie.
 */
export function cookiesSecure(mode: SecureCookies, request: FastifyRequest, publicUrl: string): boolean {
  if (mode !== 'auto') return mode === 'always';
  return request.protocol === 'https' || publicUrl.startsWith('https:') || LOOPBACK.test(request.headers.host ?? '');
}

/**
 * The browser side of sign-in: the session cookie, and the CSRF token every form and every
 * playground request must echo. A signed-in browser's token lives in its session row; before
 * sign-in (the sign-up and log-in forms) it is a random cookie echoed in the form, which a
 * page on another site can neither read nor set.
 */
export class WebAuth {
  constructor(
    private readonly sessions: SessionStore,
    private readonly options: { secureCookies: SecureCookies; publicUrl: () => string; sessionMaxAgeSeconds: number },
  ) {}

  #secure(request: FastifyRequest) {
    return cookiesSecure(this.options.secureCookies, request, this.options.publicUrl());
  }

  // The __Host- prefix pins a cookie to this host and path /, so no subdomain can plant one.
  #name(request: FastifyRequest, base: string) {
    return this.#secure(request) ? `__Host-${base}` : base;
  }

  #cookie(request: FastifyRequest, base: string): string | undefined {
    return parseCookies(request.headers.cookie).get(this.#name(request, base));
  }

  /** Loads the signed-in session, if any, onto `request.webSession`. */
  async load(request: FastifyRequest): Promise<WebSession | null> {
    if (request.webSession !== undefined) return request.webSession;
    const token = this.#cookie(request, 'svc_session');
    request.webSession = token ? await this.sessions.lookup(token) : null;
    return request.webSession;
  }

  async signIn(request: FastifyRequest, reply: FastifyReply, accountId: string): Promise<WebSession> {
    // A new token at every sign-in: a token planted before sign-in is never promoted.
    const old = this.#cookie(request, 'svc_session');
    if (old) await this.sessions.destroy(old);
    const { token, session } = await this.sessions.create(accountId);
    this.#set(request, reply, 'svc_session', token, this.options.sessionMaxAgeSeconds);
    request.webSession = session;
    return session;
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = this.#cookie(request, 'svc_session');
    if (token) await this.sessions.destroy(token);
    this.#set(request, reply, 'svc_session', '', 0);
    request.webSession = null;
  }

  /** The token forms must carry: the session's, or before sign-in the pre-session cookie's (set if missing). */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string {
    if (request.webSession) return request.webSession.csrfToken;
    let token = this.#cookie(request, 'svc_csrf');
    if (!token || token.length < 32 || token.length > 64) {
      token = randomToken(32);
      this.#set(request, reply, 'svc_csrf', token, 12 * 3600);
    }
    return token;
  }

  /** Whether `sent` (the form field or x-csrf-token header) is this browser's token. */
  csrfValid(request: FastifyRequest, sent: unknown): boolean {
    const expected = request.webSession ? request.webSession.csrfToken : this.#cookie(request, 'svc_csrf');
    if (typeof sent !== 'string' || !expected || sent.length !== expected.length) return false;
    return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
  }

  #set(request: FastifyRequest, reply: FastifyReply, base: string, value: string, maxAgeSeconds: number) {
    const cookie = serializeCookie(this.#name(request, base), value, { maxAgeSeconds, secure: this.#secure(request), sameSite: 'Lax' });
    reply.header('set-cookie', cookie); // fastify appends to earlier Set-Cookie headers
  }
}

/**
 * For the playground's API mount: the signed-in browser stands in for an API key. Requests
 * that change anything must echo the CSRF token in x-csrf-token, which no other site can read.
 */
export function requireWebSession(auth: WebAuth) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const session = await auth.load(request);
    if (!session) throw new SvcError('authentication', { code: 'not_signed_in', message: 'Sign in at /login to use the playground.' });
    if (request.method !== 'GET' && request.method !== 'HEAD' && !auth.csrfValid(request, request.headers['x-csrf-token'])) {
      throw new SvcError('permission', { code: 'invalid_csrf_token', message: "Missing or wrong 'x-csrf-token' header: reload the playground page and try again.", param: 'x-csrf-token' });
    }
    // Playground requests count against the account's own bucket, at its plan's rate.
    request.auth = { account: session.account, keyId: `web:${session.account.id}` };
  };
}
