import path from 'node:path';
import { KEY_PREFIX } from './keys.js';
import { randomToken } from '../ids.js';
import { secretFile } from '../secret-file.js';

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
  const { secret, created } = secretFile(file, 'admin key', () => `${KEY_PREFIX}admin-${randomToken(40)}`);
  return { secret, source: 'file', file, created };
}
