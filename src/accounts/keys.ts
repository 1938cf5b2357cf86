import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../ids.js';

export const KEY_PREFIX = 'sk-svc-';

export interface NewKey {
  /** The secret, shown to its owner once and never stored. */
  secret: string;
  hash: string;
  prefix: string;
  last4: string;
}

/** A new API key: 40 base62 characters (238 bits) after a recognisable prefix. */
export function generateApiKey(): NewKey {
  const secret = `${KEY_PREFIX}${randomToken(40)}`;
  return { secret, hash: hashKey(secret), prefix: secret.slice(0, KEY_PREFIX.length + 4), last4: secret.slice(-4) };
}

/**
 * Whether a bearer token has the shape of an svc key (prefix, base62, no longer than one). Any
 * other token is refused without a lookup and is not remembered: remembering each of 12,000 bad
 * 16 KB tokens held 150 MB.
 */
export const mayBeApiKey = (token: string): boolean => token.length <= KEY_PREFIX.length + 40 && token.startsWith(KEY_PREFIX) && /^[0-9A-Za-z]+$/.test(token.slice(KEY_PREFIX.length));

/** Keys carry 238 random bits, so a fast hash is enough: nothing to brute-force. */
export const hashKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
