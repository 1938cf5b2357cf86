import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Ids are minted on every request: draw random bytes from a pool refilled 4 KiB at a time
// instead of asking the kernel for a few bytes each time.
const pool = Buffer.alloc(4096);
let offset = pool.length;

function randomByte(): number {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  return pool[offset++]!;
}

/** A random base62 string from a CSPRNG, without modulo bias; 22 characters carry 130 bits. */
export function randomToken(length = 22): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

export const newId = (prefix: string, length = 24) => `${prefix}${randomToken(length)}`;
