import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KEY_PREFIX } from './keys.js';
import { randomToken } from '../ids.js';
import { ConfigError } from '../config.js';

/** The shortest admin key accepted, from the setting or the file (as SVC_ADMIN_KEY's rule says). */
export const MIN_ADMIN_KEY_LENGTH = 16;

export interface AdminKey {
  secret: string;
  /** Where it came from: the SVC_ADMIN_KEY setting or a file in the data dir. */
  source: 'setting' | 'file';
  file?: string;
  created: boolean;
}

/** SVC_ADMIN_KEY when set; otherwise the key stored in the data dir, generated on first start. */
export function resolveAdminKey(configured: string, dataDir: string): AdminKey {
  if (configured) return { secret: configured, source: 'setting', created: false };
  const file = path.join(dataDir, 'admin.key');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    // Held to the same rule as SVC_ADMIN_KEY: a short key written into the file by hand is guessable.
    if (secret && secret.length < MIN_ADMIN_KEY_LENGTH) {
      throw new ConfigError(`the admin key in ${file} is shorter than ${MIN_ADMIN_KEY_LENGTH} characters: write a longer one (\`openssl rand -hex 32\`), or delete the file to have one generated`);
    }
    if (secret) return { secret, source: 'file', file, created: false };
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = `${KEY_PREFIX}admin-${randomToken(40)}`;
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'w' });
  chmodSync(file, 0o600);
  return { secret, source: 'file', file, created: true };
}
