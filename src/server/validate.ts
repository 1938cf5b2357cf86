import { invalidRequest } from '../errors.js';

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}

export const wrongType = (param: string, expected: string, got: unknown) =>
  invalidRequest('invalid_type', `Invalid type for '${param}': expected ${expected}, but got ${typeName(got)} instead.`, param);

export const missing = (param: string, hint = '') => invalidRequest('missing_required_parameter', `Missing required parameter: '${param}'.${hint ? ` ${hint}` : ''}`, param);

export const invalidValue = (param: string, message: string) => invalidRequest('invalid_value', `Invalid value for '${param}': ${message}`, param);

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON request body as an object (fastify has parsed it); anything else is a 400. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') {
    throw invalidRequest('missing_body', 'The request needs a JSON object body (Content-Type: application/json).', null);
  }
  if (!isObject(body)) throw invalidRequest('invalid_body', `The request body must be a JSON object, but got ${typeName(body)}.`, null);
  return body;
}

interface StringOptions {
  nonEmpty?: boolean;
  maxLength?: number;
  hint?: string;
}

const NO_OPTIONS: StringOptions = {};

/**
 * Reads typed fields from one JSON object, naming each parameter by its full path
 * (`input[2].content`) in errors. Absent and null read as undefined: OpenAI treats an
 * explicit null as "use the default".
 */
export class Fields {
  constructor(
    readonly obj: Record<string, unknown>,
    readonly prefix = '',
  ) {}

  param(key: string): string {
    return this.prefix ? `${this.prefix}.${key}` : key;
  }

  has(key: string): boolean {
    return this.obj[key] !== undefined && this.obj[key] !== null;
  }

  string(key: string, opts: StringOptions = NO_OPTIONS, required = false): string | undefined {
    const v = this.obj[key];
    if (v === undefined || v === null) {
      if (required) throw missing(this.param(key), opts.hint);
      return undefined;
    }
    if (typeof v !== 'string') throw wrongType(this.param(key), 'a string', v);
    if (opts.nonEmpty && !v.trim()) {
      const param = this.param(key);
      throw invalidRequest('empty_value', `Invalid '${param}': the value must not be empty.${opts.hint ? ` ${opts.hint}` : ''}`, param);
    }
    if (opts.maxLength !== undefined && v.length > opts.maxLength) {
      throw invalidValue(this.param(key), `string too long: ${v.length} characters, the maximum is ${opts.maxLength}.`);
    }
    return v;
  }

  requiredString(key: string, opts: StringOptions = NO_OPTIONS): string {
    return this.string(key, opts, true)!;
  }

  boolean(key: string): boolean | undefined {
    const v = this.obj[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') throw wrongType(this.param(key), 'a boolean', v);
    return v;
  }

  number(key: string, opts: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    const v = this.obj[key];
    const param = this.param(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number') throw wrongType(param, opts.integer ? 'an integer' : 'a number', v);
    // 1e400 parses to Infinity: a number, but out of any range.
    if (!Number.isFinite(v)) throw invalidValue(param, 'the number is too large: send a finite number.');
    if (opts.integer && !Number.isInteger(v)) throw wrongType(param, 'an integer', v);
    if (opts.min !== undefined && v < opts.min) throw invalidValue(param, `${v} is below the minimum of ${opts.min}.`);
    if (opts.max !== undefined && v > opts.max) throw invalidValue(param, `${v} is above the maximum of ${opts.max}.`);
    return v;
  }

  object(key: string): Fields | undefined {
    const v = this.obj[key];
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) throw wrongType(this.param(key), 'an object', v);
    return new Fields(v, this.param(key));
  }

  array(key: string, opts: { required?: boolean; nonEmpty?: boolean; hint?: string } = {}): unknown[] | undefined {
    const v = this.obj[key];
    const param = this.param(key);
    if (v === undefined || v === null) {
      if (opts.required) throw missing(param, opts.hint);
      return undefined;
    }
    if (!Array.isArray(v)) throw wrongType(param, 'an array', v);
    if (opts.nonEmpty && v.length === 0) throw invalidRequest('empty_array', `Invalid '${param}': expected a non-empty array.${opts.hint ? ` ${opts.hint}` : ''}`, param);
    return v;
  }

  /** OpenAI's `metadata`: at most 16 string pairs, keys up to 64 characters, values up to 512. */
  metadata(key: string): Record<string, string> | undefined {
    const f = this.object(key);
    if (!f) return undefined;
    const entries = Object.entries(f.obj);
    if (entries.length > 16) throw invalidValue(f.prefix, `at most 16 keys are allowed, got ${entries.length}.`);
    const out: Record<string, string> = {};
    // Lengths in characters (code points), not UTF-16 units: an emoji is one.
    for (const [k, v] of entries) {
      if (!k) throw invalidValue(f.prefix, 'keys must not be empty.');
      if (k.length > 64 && [...k].length > 64) throw invalidValue(f.prefix, `key '${k.slice(0, 20)}…' is longer than 64 characters.`);
      if (typeof v !== 'string') throw wrongType(`${f.prefix}.${k}`, 'a string', v);
      if (v.length > 512 && [...v].length > 512) throw invalidValue(`${f.prefix}.${k}`, 'values are limited to 512 characters.');
      out[k] = v;
    }
    return out;
  }
}

/** A boolean query parameter: true/1 or false/0 (absent is false). */
export function boolQuery(v: unknown, param: string): boolean {
  if (v === undefined || v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  throw wrongType(param, "'true' or 'false'", v);
}

/** A string query parameter such as a cursor id, or undefined when absent; given twice or as an object, it is refused. */
export function stringQuery(v: unknown, param: string): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw invalidRequest('invalid_type', `Invalid type for '${param}': expected one string (it was given ${Array.isArray(v) ? 'more than once' : `as ${typeName(v)}`}).`, param);
  return v;
}

/** An integer query parameter within bounds, or the fallback when absent. */
export function intQuery(v: unknown, param: string, fallback: number, min = -1, max = Number.MAX_SAFE_INTEGER): number {
  if (v === undefined || v === '') return fallback;
  if (Array.isArray(v)) throw invalidRequest('invalid_type', `Invalid type for '${param}': expected one integer (it was given more than once).`, param);
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw invalidRequest('invalid_type', `Invalid type for '${param}': expected an integer.`, param);
  const n = Number(v);
  if (n < min || n > max) throw invalidRequest('invalid_value', `Invalid value for '${param}': must be between ${min} and ${max}.`, param);
  return n;
}

/** `order` of a list: 'asc' or 'desc', `fallback` when absent. */
export function orderQuery(v: unknown, fallback: 'asc' | 'desc'): 'asc' | 'desc' {
  const order = stringQuery(v, 'order') ?? fallback;
  if (order !== 'asc' && order !== 'desc') throw invalidValue('order', `'${order}' is not one of 'asc', 'desc'.`);
  return order;
}

/** Refuses a body field other than those named: sent, it would silently not be done. */
export function onlyFields(f: Fields, allowed: readonly string[], what: string): void {
  const other = Object.keys(f.obj).find((k) => !allowed.includes(k));
  if (other !== undefined) throw invalidRequest('unknown_parameter', `Unknown parameter: '${other}'. ${what}`, other);
}

/** The body of an update of a stored object's metadata, `{"metadata": {…}}` (null clears it), and nothing else. */
export function metadataUpdate(body: unknown, what: string): Record<string, string> {
  const f = new Fields(bodyObject(body));
  onlyFields(f, ['metadata'], `Only the 'metadata' of ${what} can be modified.`);
  if (!('metadata' in f.obj)) throw missing('metadata', 'Send {"metadata": {…}} (null clears it).');
  return f.metadata('metadata') ?? {};
}
