import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KEY_PREFIX } from './keys.js';
import { randomToken } from '../ids.js';

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
    if (secret) return { secret, source: 'file', file, created: false };
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = `${KEY_PREFIX}admin-${randomToken(40)}`;
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'w' });
  chmodSync(file, 0o600);
  return { secret, source: 'file', file, created: true };
}
