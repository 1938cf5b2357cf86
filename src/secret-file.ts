import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.js';

/** The shortest secret accepted from a file of the data dir, as from its setting (SVC_ADMIN_KEY, SVC_SIGNING_SECRET). */
export const MIN_SECRET_LENGTH = 16;

/**
 * A secret kept in a file of the data dir: the one there (held to the setting's length, and made
 * readable by its owner only if it was not), or one generated into it (mode 0600) on first start.
 */
export function secretFile(file: string, what: string, generate: () => string): { secret: string; created: boolean } {
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    // A short secret written into the file by hand is guessable.
    if (secret && secret.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`the ${what} in ${file} is shorter than ${MIN_SECRET_LENGTH} characters: write a longer one (\`openssl rand -hex 32\`), or delete the file to have one generated`);
    }
    if (secret) {
      if (statSync(file).mode & 0o077) {
        try {
          chmodSync(file, 0o600);
        } catch {
          // Not ours to change (another owner): it is read as it is.
        }
      }
      return { secret, created: false };
    }
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = generate();
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'w' });
  chmodSync(file, 0o600);
  return { secret, created: true };
}
