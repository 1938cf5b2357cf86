import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A message the browser carries to the next page (across a redirect) without being able to read
 * it: AES-256-GCM under a key derived from a secret of the session's row, so that any replica can
 * open it while neither the cookie alone nor another session can.
 */
const keyFor = (sessionSecret: string) => Buffer.from(hkdfSync('sha256', sessionSecret, '', 'svc web flash', 32));

export function sealFlash(sessionSecret: string, message: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(sessionSecret), iv);
  const body = Buffer.concat([cipher.update(message, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

export function openFlash(sessionSecret: string, sealed: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 12 + 16) return null;
  const decipher = createDecipheriv('aes-256-gcm', keyFor(sessionSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(-16));
  try {
    return Buffer.concat([decipher.update(raw.subarray(12, -16)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
