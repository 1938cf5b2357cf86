import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_HASHES, MAX_WAITING_HASHES, hashPassword, hashingLoad, needsRehash, passwordProblem, verifyPassword } from '../../src/accounts/passwords.js';
import { AccountService } from '../../src/accounts/service.js';
import { openStore } from '../../src/store/db.js';

const CHEAP = { N: 1024, r: 8, p: 1 };

describe('passwords', () => {
  it('hashes with a fresh salt and verifies only the same password (after NFKC normalisation)', async () => {
    const a = await hashPassword('plum orbit canyon lantern', CHEAP);
    const b = await hashPassword('plum orbit canyon lantern', CHEAP);
    expect(a).not.toBe(b);
    expect(await verifyPassword('plum orbit canyon lantern', a)).toBe(true);
    expect(await verifyPassword('plum orbit canyon lanterN', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
    const composed = await hashPassword('caf\u00e9 au lait tous les jours', CHEAP);
    expect(await verifyPassword('cafe\u0301 au lait tous les jours', composed)).toBe(true);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
  });

  it(`computes at most ${MAX_CONCURRENT_HASHES} hashes at once, queues ${MAX_WAITING_HASHES} more, and turns the next away at once`, async () => {
    const stored = await hashPassword('plum orbit canyon lantern', CHEAP);
    const attempts = Array.from({ length: MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES }, (_, i) => verifyPassword(i % 2 ? 'plum orbit canyon lantern' : 'wrong guess here', stored));
    expect(hashingLoad()).toEqual({ running: MAX_CONCURRENT_HASHES, waiting: MAX_WAITING_HASHES });
    await expect(verifyPassword('plum orbit canyon lantern', stored)).rejects.toMatchObject({ kind: 'unavailable', code: 'sign_in_busy', retryAfterSeconds: 2 });
    const results = await Promise.all(attempts);
    expect(results.filter(Boolean)).toHaveLength(attempts.length / 2);
    expect(hashingLoad()).toEqual({ running: 0, waiting: 0 });
    expect(await verifyPassword('plum orbit canyon lantern', stored)).toBe(true);
  });

  it('uses OWASP’s scrypt cost by default and asks to rehash weaker hashes', async () => {
    const strong = await hashPassword('plum orbit canyon lantern');
    expect(strong.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);
    expect(needsRehash(strong)).toBe(false);
    expect(needsRehash(await hashPassword('x', CHEAP))).toBe(true);
  });

  it.each([
    ['short', 'Use at least 12 characters (this one has 5).'],
    ['x'.repeat(257), 'Use at most 256 characters.'],
    ['abababababab', 'This password repeats one or two characters; choose something harder to guess.'],
    ['PASSWORD1234', 'This password is one of the most commonly used; choose another.'],
    ['ana.lopez-2026!', 'The password contains your email address; choose another.'],
    ['plum orbit canyon lantern', null],
    ['🔑🌲🍎🔑🌲🍎🔑🌲🍎🔑🌲🍎', null],
  ])('password %j → %j', (password, problem) => {
    expect(passwordProblem(password, 'ana.lopez@example.com')).toBe(problem);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(passwordProblem('🔑🌲🔑🌲🔑🌲', 'a@example.com')).toBe('Use at least 12 characters (this one has 6).');
  });

  it('upgrades an old hash at the next successful sign-in', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-passwords-'));
    const store = await openStore({ dataDir, databaseUrl: '' });
    try {
      const weak = new AccountService(store.db, { keyCacheTtlMs: 0, scrypt: CHEAP });
      const account = await weak.signUp({ email: 'Up@Example.com', password: 'plum orbit canyon lantern' });
      expect(account.email).toBe('up@example.com');
      const stronger = new AccountService(store.db, { keyCacheTtlMs: 0, scrypt: { N: 2048, r: 8, p: 1 } });
      expect(await stronger.signIn('up@example.com', 'wrong password here')).toBeNull();
      const before = (await store.db.selectFrom('accounts').select('password_hash').executeTakeFirstOrThrow()).password_hash!;
      expect(before).toMatch(/^scrypt\$1024\$/);
      expect((await stronger.signIn(' UP@example.com ', 'plum orbit canyon lantern'))?.id).toBe(account.id);
      const after = (await store.db.selectFrom('accounts').select('password_hash').executeTakeFirstOrThrow()).password_hash!;
      expect(after).toMatch(/^scrypt\$2048\$/);
      expect((await stronger.signIn('up@example.com', 'plum orbit canyon lantern'))?.id).toBe(account.id);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
