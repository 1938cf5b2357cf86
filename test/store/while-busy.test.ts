import { describe, expect, it } from 'vitest';
import { whileBusy } from '../../src/store/db.js';

/**
 * SQLite answers SQLITE_BUSY at once, without its busy handler, while another process's last
 * connection cleans up the WAL as it closes (sqlite.org/wal.html#busy): a process opening the
 * database just then failed its start with "database is locked" (seen in CI, in the test of
 * processes opening a new database at once). Opening now tries again until the busy timeout.
 */
const busy = (code = 'SQLITE_BUSY') => Object.assign(new Error('database is locked'), { code });

describe('whileBusy', () => {
  it('tries again while SQLite is busy, and returns what succeeds', () => {
    let calls = 0;
    const result = whileBusy(() => {
      calls++;
      if (calls < 3) throw busy(calls === 1 ? 'SQLITE_BUSY' : 'SQLITE_BUSY_RECOVERY');
      return 'wal';
    }, 1000, 1);
    expect(result).toBe('wal');
    expect(calls).toBe(3);
  });

  it('passes any other error on at once', () => {
    let calls = 0;
    const readonly = Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    expect(() =>
      whileBusy(() => {
        calls++;
        throw readonly;
      }, 1000, 1),
    ).toThrow(readonly);
    expect(calls).toBe(1);
  });

  it('gives up with the busy error once the timeout has passed', () => {
    let calls = 0;
    expect(() =>
      whileBusy(() => {
        calls++;
        throw busy();
      }, 30, 5),
    ).toThrow('database is locked');
    expect(calls).toBeGreaterThan(1);
  });
});
