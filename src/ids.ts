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

const CODES = Buffer.from(ALPHABET, 'latin1');
// Characters are gathered here and read out as one string (adding them one by one made a string per character).
let scratch = Buffer.allocUnsafe(64);

/** A random base62 string from a CSPRNG, without modulo bias; 22 characters carry 130 bits. */
export function randomToken(length = 22): string {
  if (scratch.length < length) scratch = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; ) {
    const b = randomByte();
    if (b < 248) scratch[i++] = CODES[b % 62]!;
  }
  return scratch.toString('latin1', 0, length);
}

export const newId = (prefix: string, length = 24) => `${prefix}${randomToken(length)}`;
