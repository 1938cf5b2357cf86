import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.js';
import { makeDir } from './make-dir.js';

/** The shortest secret accepted from a file of the data dir, as from its setting (SVC_ADMIN_KEY, SVC_SIGNING_SECRET). */
export const MIN_SECRET_LENGTH = 16;

/**
 * A secret kept in a file of the data dir: the one there (held to the setting's length, and made
 * readable by its owner only if it was not), or one generated into it (mode 0600) on first start.
 */
export function secretFile(file: string, what: string, generate: () => string): { secret: string; created: boolean } {
  if (existsSync(file)) {
    if (!statSync(file).isFile()) {
      throw new ConfigError(`${file} should hold the ${what} but is not a file (a directory?): remove it to have one generated, or write the ${what} into it as a file`);
    }
    const secret = readFileSync(file, 'utf8').trim();
    const fix = `write one of printable characters without spaces (\`openssl rand -hex 32\`), or delete the file to have one generated`;
    // A short secret written into the file by hand is guessable.
    if (secret && secret.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`the ${what} in ${file} is shorter than ${MIN_SECRET_LENGTH} characters: write a longer one (\`openssl rand -hex 32\`), or delete the file to have one generated`);
    }
    // It travels in an Authorization header (the admin key) or is shared by replicas as written:
    // a space, a line break or a character outside ASCII would make it unusable or ambiguous.
    if (/[^\x21-\x7e]/.test(secret)) throw new ConfigError(`the ${what} in ${file} holds spaces, line breaks or characters outside ASCII: ${fix}`);
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
  makeDir(path.dirname(file));
  const secret = generate();
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'w' });
  chmodSync(file, 0o600);
  return { secret, created: true };
}
