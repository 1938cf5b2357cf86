import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { SvcError } from '../errors.js';

/**
 * Password hashing with scrypt at OWASP's recommended cost (N=2^17, r=8, p=1: 128 MiB, a few
 * hundred milliseconds), run on libuv's thread pool so the event loop keeps serving. The
 * parameters are stored with each hash, so raising them later only affects new hashes
 * (and `needsRehash` tells when a sign-in should upgrade an old one).
 */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
const KEY_BYTES = 32;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/**
 * Hashes computed at once in this process. Each holds one of libuv's four threads (and 128 MiB)
 * for a few hundred milliseconds; file reads (documents, the storage check behind /readyz) queue
 * on the same threads. Unbounded, a crowd of log-in attempts within every rate limit took all
 * four, and /readyz failed: two always stay free.
 */
export const MAX_CONCURRENT_HASHES = 2;
/** Attempts waiting for a turn beyond which another is turned away at once (some seconds of work). */
export const MAX_WAITING_HASHES = 32;

let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) {
    if (waiting.length >= MAX_WAITING_HASHES) {
      throw new SvcError('unavailable', { code: 'sign_in_busy', message: 'Too many sign-ins are being checked right now. Wait a few seconds, then try again.', retryAfterSeconds: 2 });
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await work();
  } finally {
    // The turn passes straight to the next waiter, so `running` never drops below what runs.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return inTurn(() => new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)))));
}

/** Hashes running and waiting now (for tests and metrics). */
export const hashingLoad = () => ({ running, waiting: waiting.length });

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0)) return null;
  return { params: { N, r, p }, salt: Buffer.from(parts[4]!, 'base64url'), key: Buffer.from(parts[5]!, 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p;
}

// The most common choices that pass a length rule; checked case-insensitively.
const COMMON = new Set([
  'password1234', 'password12345', 'password123456', 'passwordpassword', '123456789012', '1234567890123', '12345678901234',
  'qwertyuiop12', 'qwertyuiopasdf', 'qwerty123456', '1q2w3e4r5t6y', 'iloveyou1234', 'letmein12345', 'welcome12345',
  'administrator', 'changeme1234', 'abcdefghijkl', 'abc123456789', 'aaaaaaaaaaaa', '111111111111', '000000000000',
  'trustno11234', 'football1234', 'baseball1234', 'superman1234', 'sunshine1234', 'princess1234', 'monkey123456',
  'correcthorsebatterystaple', 'p@ssw0rd1234', 'passw0rd1234',
]);

/**
 * Why a password is refused, or null. Length and a list of the most common choices, as NIST
 * SP 800-63B advises; no composition rules, which make passwords weaker in practice.
 */
export function passwordProblem(password: string, email: string): string | null {
  const chars = [...password];
  if (chars.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters (this one has ${chars.length}).`;
  if (chars.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const lower = password.toLowerCase();
  if (new Set(chars).size <= 2) return 'This password repeats one or two characters; choose something harder to guess.';
  if (COMMON.has(lower)) return 'This password is one of the most commonly used; choose another.';
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (local.length >= 4 && lower.includes(local)) return 'The password contains your email address; choose another.';
  return null;
}
