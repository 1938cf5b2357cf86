import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { secretFile } from '../../secret-file.js';

/** SVC_SIGNING_SECRET when set; otherwise a secret generated once into the data dir (mode 0600). */
export function resolveSigningSecret(configured: string, dataDir: string): { secret: string; file: string | null } {
  if (configured) return { secret: configured, file: null };
  const file = path.join(dataDir, 'signing.key');
  return { secret: secretFile(file, 'signing secret', () => randomBytes(32).toString('hex')).secret, file };
}

/** The longest a signed link may be valid (SVC_DOCUMENT_LINK_TTL_S's maximum): a later expiry is refused. */
export const MAX_LINK_TTL_SECONDS = 7 * 86_400;

/** Hex HMAC-SHA256 of a document id and its link's expiry (unix seconds). */
export function signDocument(secret: string, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`${id}\n${expires}`).digest('hex');
}

export type LinkCheck = 'valid' | 'missing' | 'invalid' | 'expired';

/** Checks a link's signature (in constant time) and then its expiry. */
export function checkDocumentLink(secret: string, id: string, expires: string | undefined, signature: string | undefined, nowSeconds: number): LinkCheck {
  if (!expires || !signature) return 'missing';
  if (!/^[1-9]\d{0,11}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
  const expected = Buffer.from(signDocument(secret, id, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
  if (Number(expires) < nowSeconds) return 'expired';
  // No link is made to live longer than the longest lifetime allowed (SVC_DOCUMENT_LINK_TTL_S).
  return Number(expires) > nowSeconds + MAX_LINK_TTL_SECONDS + 60 ? 'invalid' : 'valid';
}
