import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ORDERED_SETTINGS, SETTINGS, loadConfig, readDefaults } from '../src/config.js';
import { runCli } from './helpers/cli.js';

// SVC_SESSION_IDLE_HOURS=1000 with SVC_SESSION_MAX_HOURS=720 was accepted without a word: each is
// in its own range, but the idle limit could never apply.
describe('settings that bound each other', () => {
  const message = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    return null;
  };

  it('refuses a session idle limit longer than its maximum lifetime, naming both settings, their values and where they came from', () => {
    expect(message({ SVC_SESSION_IDLE_HOURS: '1000' })).toBe(
      'invalid settings: SVC_SESSION_IDLE_HOURS (environment) = 1000 is more than SVC_SESSION_MAX_HOURS (config/default.json) = 720; a web session ends at its maximum lifetime anyway, so an idle limit longer than that never applies: make SVC_SESSION_IDLE_HOURS at most 720, or raise SVC_SESSION_MAX_HOURS',
    );
    expect(message({ SVC_SESSION_MAX_HOURS: '24' })).toMatch(/^invalid settings: SVC_SESSION_IDLE_HOURS \(config\/default\.json\) = 168 is more than SVC_SESSION_MAX_HOURS \(environment\) = 24;/);
    // Equal, or in order, is fine.
    expect(message({ SVC_SESSION_IDLE_HOURS: '24', SVC_SESSION_MAX_HOURS: '24' })).toBeNull();
    expect(message({ SVC_SESSION_IDLE_HOURS: '2', SVC_SESSION_MAX_HOURS: '3' })).toBeNull();
  });

  it('refuses an idempotency lock longer than the key it locks lives', () => {
    expect(message({ SVC_IDEMPOTENCY_LOCK_MS: '3600000', SVC_IDEMPOTENCY_TTL_MS: '600000' })).toMatch(
      /^invalid settings: SVC_IDEMPOTENCY_LOCK_MS \(environment\) = 3600000 is more than SVC_IDEMPOTENCY_TTL_MS \(environment\) = 600000; .*: make SVC_IDEMPOTENCY_LOCK_MS at most 600000, or raise SVC_IDEMPOTENCY_TTL_MS$/,
    );
    expect(message({ SVC_IDEMPOTENCY_LOCK_MS: '600000', SVC_IDEMPOTENCY_TTL_MS: '600000' })).toBeNull();
  });

  it('every pair names two numeric settings, and the shipped defaults are in order', () => {
    const defaults = loadConfig({}, readDefaults());
    for (const [shorter, longer] of ORDERED_SETTINGS) {
      for (const p of [shorter, longer]) expect(SETTINGS.find((s) => s.path === p)?.kind.type, p).toBe('int');
      const at = (p: string) => p.split('.').reduce<any>((o, k) => o[k], defaults) as number;
      expect(at(shorter)).toBeLessThanOrEqual(at(longer));
    }
  });

  it('stops `svc serve` with that one line and exit 1', async () => {
    const r = await runCli(['serve'], { SVC_PORT: '0', SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-order-')), SVC_SESSION_IDLE_HOURS: '200', SVC_SESSION_MAX_HOURS: '100' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: invalid settings: SVC_SESSION_IDLE_HOURS \(environment\) = 200 is more than SVC_SESSION_MAX_HOURS \(environment\) = 100; /)]);
  }, 60_000);
});
