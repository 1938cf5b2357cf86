import type { RunMeta } from './agents/types.js';

/**
 * Errors the core raises on purpose. `kind` says what went wrong in domain terms; the
 * HTTP layer alone turns a kind into a status code (server/errors.ts), so agents and
 * services stay ignorant of HTTP.
 */
export type ErrorKind =
  | 'invalid_request' // the caller sent something wrong
  | 'authentication' // no or bad credentials
  | 'payment_required' // not enough credits
  | 'permission' // the caller may not do this (plan, admin)
  | 'not_found'
  | 'method_not_allowed' // a known path, another method
  | 'conflict' // state conflict, e.g. an idempotent request still running
  | 'unprocessable' // well-formed but cannot be applied (idempotency key reused)
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'range_not_satisfiable' // a byte range outside the document
  | 'rate_limited'
  | 'upstream' // an exchange or data source failed
  | 'upstream_timeout'
  | 'unavailable' // shutting down, storage unreachable
  | 'internal';

export interface ErrorDetails {
  code: string;
  message: string;
  param?: string | null;
  /** Seconds after which a retry may succeed (rate limits, busy upstreams). */
  retryAfterSeconds?: number;
  /** What the failed run had decided (credits state), reported like a successful run's. */
  meta?: RunMeta;
  /** A retry of the same request soon cannot succeed (SDKs are told not to retry it). */
  permanent?: boolean;
}

export class SvcError extends Error {
  override name = 'SvcError';
  readonly kind: ErrorKind;
  readonly code: string;
  readonly param: string | null;
  readonly retryAfterSeconds: number | undefined;
  readonly meta: RunMeta | undefined;
  readonly permanent: boolean;

  constructor(kind: ErrorKind, details: ErrorDetails, options?: { cause?: unknown }) {
    super(details.message, options);
    this.kind = kind;
    this.code = details.code;
    this.param = details.param ?? null;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.meta = details.meta;
    this.permanent = details.permanent ?? false;
  }
}

/** The same error reporting `meta` (e.g. the credits state once a failed run was refunded). */
export function withMessage(err: SvcError, message: string): SvcError {
  return new SvcError(err.kind, { code: err.code, message, param: err.param, retryAfterSeconds: err.retryAfterSeconds, meta: err.meta, permanent: err.permanent }, { cause: err.cause });
}

export function withMeta(err: SvcError, meta: RunMeta): SvcError {
  return new SvcError(err.kind, { code: err.code, message: err.message, param: err.param, retryAfterSeconds: err.retryAfterSeconds, meta: { ...err.meta, ...meta }, permanent: err.permanent }, { cause: err.cause });
}

export const invalidRequest = (code: string, message: string, param: string | null = null) =>
  new SvcError('invalid_request', { code, message, param });

export const notFound = (code: string, message: string, param: string | null = null) => new SvcError('not_found', { code, message, param });

export function isSvcError(err: unknown): err is SvcError {
  return err instanceof SvcError;
}
