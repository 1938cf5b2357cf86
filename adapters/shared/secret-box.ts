import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AdapterSettingsError, decodeSecretKey } from './config.js';

/**
 * AES-256-GCM for secrets kept at rest (linked API keys). Each value is bound to its owner
 * through the additional authenticated data, so a stored value cannot be moved to another person.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new RangeError('a SecretBox key has 32 bytes');
    this.#key = key;
  }

  seal(plaintext: string, owner: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(owner, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** Throws if the value was tampered with, belongs to someone else, or was sealed with another key. */
  open(sealed: string, owner: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('unknown sealed format');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(owner, 'utf8'));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** The key from SVC_ADAPTER_SECRET, or the one generated into the data dir (mode 0600) on first use. */
  static resolve(dataDir: string, configured: string | undefined): SecretBox {
    if (configured) return new SecretBox(decodeKey(configured));
    const file = path.join(dataDir, 'adapter-secret.key');
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      try {
        writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another adapter process won the race
      }
    }
    return new SecretBox(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
  }
}

function decodeKey(value: string): Buffer {
  const key = decodeSecretKey(value);
  if (!key) throw new AdapterSettingsError('invalid setting SVC_ADAPTER_SECRET: must be 32 bytes as 64 hex characters or base64, got (hidden)');
  return key;
}
