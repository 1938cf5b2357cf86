import type { ErrorKind, SvcError } from '../errors.js';

/** OpenAI's error object: `{"error": ErrorBody}`. */
export interface ErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string;
}

const BY_KIND: Record<ErrorKind, { status: number; type: string }> = {
  invalid_request: { status: 400, type: 'invalid_request_error' },
  authentication: { status: 401, type: 'authentication_error' },
  payment_required: { status: 402, type: 'billing_error' },
  permission: { status: 403, type: 'permission_error' },
  not_found: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  conflict: { status: 409, type: 'conflict_error' },
  unprocessable: { status: 422, type: 'invalid_request_error' },
  payload_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  range_not_satisfiable: { status: 416, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  upstream: { status: 502, type: 'upstream_error' },
  upstream_timeout: { status: 504, type: 'upstream_error' },
  unavailable: { status: 503, type: 'server_error' },
  internal: { status: 500, type: 'server_error' },
};

export function errorBody(err: SvcError): ErrorBody {
  return { message: err.message, type: BY_KIND[err.kind].type, param: err.param, code: err.code };
}

export function statusOf(err: SvcError): number {
  return BY_KIND[err.kind].status;
}
