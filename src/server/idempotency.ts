import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { fingerprint, validateKey, type IdempotencyStore, type StoredResult } from '../billing/idempotency.js';
import { SvcError } from '../errors.js';
import type { ServerDeps } from './deps.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdempotencySession;
  }
}

/** Headers that are part of a result and replayed with it. */
const KEPT = ['content-type', 'cache-control', 'x-accel-buffering', 'x-report-cache', 'x-report-generated-at', 'x-credits-charged', 'x-credits-remaining'];

function keptHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of KEPT) if (headers[h] !== undefined) out[h] = String(headers[h]);
  return out;
}

/** A request refused as sent (a 4xx other than 409): nothing ran, and the client will change it. */
const refusedAsSent = (status: number) => status >= 400 && status < 500 && status !== 409;

/**
 * One request running under an Idempotency-Key: keeps its lock alive while it runs, records
 * what is sent, and settles the key exactly once: its result stored on success; forgotten when
 * the request was refused as sent (a 4xx other than 409: nothing ran, and the client will change
 * it); otherwise unlocked, so that a retry takes over this same life of the key. Work it started
 * (a report generation whose client left, one that failed and gave its credits back) is then
 * found again under the same `requestKey`, never paid for twice.
 */
export class IdempotencySession {
  readonly #frames: string[] = [];
  #headers: Record<string, string> = {};
  #done = false;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly store: IdempotencyStore,
    readonly accountId: string,
    readonly key: string,
    /** When this life of the key began. */
    readonly since: number,
    private readonly onError: (err: unknown) => void,
    /** Stores its result encrypted (see IdempotencyStore.seal). */
    private readonly sealed = false,
  ) {
    // Every third of the lock, so that one late renewal never lets it lapse under a running request.
    this.#timer = setInterval(() => void this.store.renew(accountId, key).catch(onError), Math.max(100, Math.floor(store.lockMs / 3)));
    this.#timer.unref();
  }

  /**
   * The logical request, for agents: the key within this life of it, so work keyed by it (a paid
   * generation's hold) is never confused with the same key reused after it expired.
   */
  get requestKey(): string {
    return `${this.key}@${this.since}`;
  }

  get done(): boolean {
    return this.#done;
  }

  streamOpened(headers: Record<string, unknown>): void {
    this.#headers = keptHeaders(headers);
  }

  frame(frame: string): void {
    if (!frame.startsWith(':')) this.#frames.push(frame);
  }

  /**
   * Settled before the stream's last byte, so a client that saw the end can replay at once.
   * `failedStatus`: the HTTP status of the error it ended with (sent in the stream because it
   * came after the stream opened), when its client was still there to read it.
   */
  streamEnded(succeeded: boolean, failedStatus: number | null = null): Promise<void> {
    if (succeeded) return this.#finish({ statusCode: 200, headers: this.#headers, body: this.#frames.join('') });
    return this.#finish(failedStatus !== null && refusedAsSent(failedStatus) ? 'forget' : 'unlock');
  }

  /** Settled before the body is sent (onSend), for the same reason. */
  sent(statusCode: number, headers: Record<string, unknown>, payload: unknown, clientGone = false): Promise<void> {
    if (statusCode >= 200 && statusCode < 300) {
      const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      const body = this.sealed ? this.store.seal(this.accountId, this.key, text) : text;
      return this.#finish({ statusCode, headers: keptHeaders(headers), body });
    }
    // An error written to a client that already left says why it left, not that the request was wrong.
    return this.#finish(!clientGone && refusedAsSent(statusCode) ? 'forget' : 'unlock');
  }

  /** The request ended without a result (its client left, or it failed before sending): a retry takes over. */
  abandon(): Promise<void> {
    return this.#finish('unlock');
  }

  async #finish(outcome: StoredResult | 'forget' | 'unlock'): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    clearInterval(this.#timer);
    try {
      if (outcome === 'forget') await this.store.forget(this.accountId, this.key);
      else if (outcome === 'unlock') await this.store.unlock(this.accountId, this.key);
      else await this.store.complete(this.accountId, this.key, outcome);
    } catch (err) {
      this.onError(err);
    }
  }
}

/**
 * A handler ending without a reply because its client left: fastify runs no onResponse for it,
 * so its key is settled here (else the lock was renewed for as long as the process lived).
 */
export function unanswered(reply: FastifyReply): FastifyReply {
  void reply.request.idempotency?.abandon();
  return reply;
}

/**
 * Whose keys a route's Idempotency-Keys are among: by default the caller's account; the admin API's
 * are the target account's, apart from the account's own (`namespace`).
 */
export interface KeyOwner {
  accountOf(request: FastifyRequest): Promise<string>;
  namespace: string;
}

/** What a route's replays need besides the stored answer. */
export interface ReplayOptions {
  /** The result is stored encrypted (it holds a secret, a new API key's). */
  sealed?: boolean;
  /**
   * The API key object within the answer, for answers that issued one: a replay shows its state
   * now, so a key revoked since is not handed back as if it worked (`revoked_at` set, `revoked: true`,
   * as DELETE answers a revoked key).
   */
  issuedKey?: (answer: Record<string, unknown>) => unknown;
  /** Where to see what the request made, when its sealed answer cannot be read back (default: GET on its path). */
  check?: (accountId: string) => string;
}

/** A stored answer's key object with its revocation, when the key was revoked since the answer was given. */
async function withKeyStateNow(deps: ServerDeps, body: string, issuedKey: NonNullable<ReplayOptions['issuedKey']>): Promise<string> {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return body;
  }
  if (!answer || typeof answer !== 'object') return body;
  const k = issuedKey(answer as Record<string, unknown>) as Record<string, unknown> | undefined;
  if (!k || typeof k !== 'object' || typeof k.id !== 'string') return body;
  const now = await deps.accounts.getKey(k.id);
  if (!now?.revokedAt) return body;
  k.revoked_at = Math.floor(now.revokedAt / 1000);
  k.revoked = true;
  return JSON.stringify(answer);
}

/**
 * Sends a stored result again, marked `idempotent-replayed: true`: opened when sealed, with an
 * issued key's state now, and today's balance in place of a charge.
 */
export async function sendReplay(
  deps: ServerDeps,
  reply: FastifyReply,
  stored: { accountId: string; key: string; given: string; endpoint: string; result: StoredResult },
  options: ReplayOptions = {},
): Promise<FastifyReply> {
  const { accountId, key, given, endpoint, result } = stored;
  let body = result.body;
  if (options.sealed) {
    const opened = deps.idempotency.unseal(accountId, key, body);
    // Sealed under another secret (SVC_SIGNING_SECRET changed since): what it made is there, but its answer cannot be given again.
    if (opened === null) {
      throw new SvcError('unprocessable', {
        code: 'idempotency_result_unreadable',
        message: `The request with the Idempotency-Key '${given}' already ran, but its answer can no longer be read back (the server's signing secret changed). Check what it made (${options.check?.(accountId) ?? `GET ${endpoint.replace(/^POST /, '')}`}) and use a new key.`,
        param: 'Idempotency-Key',
      });
    }
    body = opened;
  }
  if (options.issuedKey) body = await withKeyStateNow(deps, body, options.issuedKey);
  const headers: Record<string, string> = { ...result.headers, 'idempotent-replayed': 'true' };
  // A replay charges nothing; the balance shown is today's.
  if (headers['x-credits-charged'] !== undefined) {
    headers['x-credits-charged'] = '0';
    headers['x-credits-remaining'] = String(await deps.billing.balance(accountId));
  }
  return reply.code(result.statusCode).headers(headers).send(body);
}

/**
 * preHandler for the POST endpoints: claims the key, or replays the stored result. Requests without
 * a key pass at once. `sealed`: the result is stored encrypted (it holds a secret, a new API key's).
 */
export function idempotency(deps: ServerDeps, endpoint: string, owner?: KeyOwner, options: ReplayOptions = {}) {
  const claimOrReplay = async (request: FastifyRequest, reply: FastifyReply, given: string): Promise<boolean> => {
    const accountId = owner ? await owner.accountOf(request) : request.auth!.account.id;
    const key = owner ? `${owner.namespace}${given}` : given;
    const claim = await deps.idempotency.claim({ accountId, key, endpoint, fingerprint: fingerprint(endpoint, request.body) });
    if (claim.kind === 'replay') {
      await sendReplay(deps, reply, { accountId, key, given, endpoint, result: claim.result }, options);
      return true;
    }
    request.idempotency = new IdempotencySession(deps.idempotency, accountId, key, claim.since, (err) => request.log.error({ err }, 'idempotency record failed'), options.sealed);
    return false;
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return done();
    let key: string | null;
    try {
      key = validateKey(header);
    } catch (err) {
      return done(err as Error);
    }
    if (!key) return done();
    // Replied from the hook: the chain stops there, so `done` is not called.
    claimOrReplay(request, reply, key).then(
      (replied) => (replied ? undefined : done()),
      (err: Error) => done(err),
    );
  };
}

/** Scope hooks: record plain (non-streamed) results, and forget keys of requests that ended otherwise. */
export function registerIdempotencyHooks(scope: FastifyInstance): void {
  scope.addHook('onSend', (request, reply, payload, done) => {
    const session = request.idempotency;
    if (!session || session.done) return done(null, payload);
    session.sent(reply.statusCode, reply.getHeaders(), payload, reply.raw.destroyed).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });
  scope.addHook('onResponse', (request, _reply, done) => {
    const session = request.idempotency;
    if (!session || session.done) return done();
    session.abandon().then(
      () => done(),
      (err: Error) => done(err),
    );
  });
}
