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

/** Keys carry 238 random bits, so a fast hash is enough: nothing to brute-force. */
export const hashKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
