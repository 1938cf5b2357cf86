import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, SETTINGS, loadConfig, publicUrl, readDefaults } from '../src/config.js';
import { runCli } from './helpers/cli.js';

describe('configuration', () => {
  it('has working embedded defaults', () => {
    const c = loadConfig({});
    expect(c.server).toMatchObject({ host: '127.0.0.1', port: 8080, bodyLimitBytes: 1048576 });
    expect(c.storage.dataDir).toMatch(/data$/);
    expect(c.storage.databaseUrl).toBe('');
    expect(publicUrl(c)).toBe('http://127.0.0.1:8080');
  });

  it('environment variables override config/default.json', () => {
    const c = loadConfig({ SVC_PORT: '9001', SVC_HOST: '0.0.0.0', SVC_PUBLIC_URL: 'https://api.example.com/', SVC_LOG_LEVEL: 'debug' });
    expect(c.server.port).toBe(9001);
    expect(publicUrl(c)).toBe('https://api.example.com');
    expect(c.server.logLevel).toBe('debug');
  });

  it.each([
    ['SVC_PORT', 'eighty', /SVC_PORT.*must be an integer/],
    ['SVC_PORT', '70000', /SVC_PORT.*between 0 and 65535/],
    ['SVC_PUBLIC_URL', 'not a url', /SVC_PUBLIC_URL.*absolute URL/],
    ['SVC_PUBLIC_URL', 'ftp://x', /SVC_PUBLIC_URL.*http or https/],
    ['SVC_DATABASE_URL', 'mysql://x', /SVC_DATABASE_URL.*postgres/],
    ['SVC_LOG_LEVEL', 'loud', /SVC_LOG_LEVEL.*one of/],
    ['SVC_KEEPALIVE_MS', '60000', /SVC_KEEPALIVE_MS.*between/],
    ['SVC_CORS_ORIGINS', 'https://app.example.com/path', /SVC_CORS_ORIGINS.*scheme, host and port only/],
    ['SVC_CORS_ORIGINS', 'app.example.com', /SVC_CORS_ORIGINS.*not an origin/],
    ['SVC_CORS_ORIGINS', '*, https://app.example.com', /SVC_CORS_ORIGINS.*stands alone/],
  ])('rejects %s=%s naming the setting', (env, value, message) => {
    expect(() => loadConfig({ [env]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [env]: value })).toThrow(message);
  });

  it('reads CORS origins as a list: none by default, * alone, or origins', () => {
    expect(loadConfig({}).server.corsOrigins).toEqual([]);
    expect(loadConfig({ SVC_CORS_ORIGINS: '*' }).server.corsOrigins).toEqual(['*']);
    expect(loadConfig({ SVC_CORS_ORIGINS: ' https://app.example.com/ , http://localhost:3000' }).server.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:3000']);
  });

  it('never echoes a secret setting in its error', () => {
    const spec = SETTINGS.find((s) => s.kind.type === 'secret')!;
    expect(() => loadConfig({}, { ...readDefaults(), auth: { adminKey: 42, keyCacheTtlMs: 1 } })).toThrow(/\(hidden\)/);
    expect(spec.env).toBe('SVC_ADMIN_KEY');
  });

  it('rejects unknown keys in config/default.json', () => {
    expect(() => loadConfig({}, { ...readDefaults(), server: { ...(readDefaults().server as object), prot: 1 } })).toThrow(/unknown setting "server.prot"/);
  });

  it('documents every setting in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const s of SETTINGS) expect(readme, s.env).toContain(`\`${s.env}\``);
  });

  it('a bad setting stops the process with one clear line', async () => {
    const r = await runCli(['serve'], { SVC_PORT: 'abc' });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc: invalid setting SVC_PORT/);
  });
});
