import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, SETTINGS, loadConfig, publicUrl, readDefaults, unknownVariableWarnings } from '../src/config.js';
import { redactUrl } from '../src/redact.js';
import { runCli, svcProcess } from './helpers/cli.js';

/** `svc serve`, killed if it is still running after `ms` (a server that should have refused to start). */
function serveBriefly(env: Record<string, string>, ms = 15_000): Promise<{ code: number | null; stderr: string }> {
  const child = svcProcess(['serve'], env);
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(timer), resolve({ code, stderr }))));
}

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
    ['SVC_PUBLIC_URL', 'https:api.example.com', /SVC_PUBLIC_URL.*absolute URL, like https:\/\/host\/path/],
    ['SVC_KALSHI_API_URL', 'http:127.0.0.1:9000', /SVC_KALSHI_API_URL.*absolute URL/],
    ['SVC_WEB_SIGNUP', '', /SVC_WEB_SIGNUP.*set but empty: unset it to keep the default/],
    ['SVC_WEB_SIGNUP', 'maybe', /SVC_WEB_SIGNUP.*must be true or false/],
    ['SVC_PUBLIC_URL', 'ftp://x', /SVC_PUBLIC_URL.*http or https/],
    ['SVC_DATABASE_URL', 'mysql://x', /SVC_DATABASE_URL.*postgres/],
    ['SVC_LOG_LEVEL', 'loud', /SVC_LOG_LEVEL.*one of/],
    ['SVC_KEEPALIVE_MS', '60000', /SVC_KEEPALIVE_MS.*between/],
    ['SVC_CORS_ORIGINS', 'https://app.example.com/path', /SVC_CORS_ORIGINS.*scheme, host and port only/],
    ['SVC_CORS_ORIGINS', 'app.example.com', /SVC_CORS_ORIGINS.*not an origin/],
    ['SVC_CORS_ORIGINS', '*, https://app.example.com', /SVC_CORS_ORIGINS.*stands alone/],
    ['SVC_TRUST_PROXY', 'nginx', /SVC_TRUST_PROXY.*'nginx' is not a proxy address/],
    ['SVC_TRUST_PROXY', '10.0.0.0/40', /SVC_TRUST_PROXY.*'10\.0\.0\.0\/40' is not a proxy address/],
    ['SVC_TRUST_PROXY', '50', /SVC_TRUST_PROXY.*at most 10 proxies/],
    // An empty host would listen on every interface, exposing the admin API.
    ['SVC_HOST', '', /SVC_HOST.*must not be empty.*0\.0\.0\.0/],
    ['SVC_HOST', '   ', /SVC_HOST.*must not be empty/],
    ['SVC_HOST', 'http://127.0.0.1', /SVC_HOST.*not a URL/],
    ['SVC_ADMIN_KEY', 'short-admin-key', /SVC_ADMIN_KEY \(environment\) = \(hidden\): must be at least 16 characters; generate one with `openssl rand -hex 32`/],
    ['SVC_ADMIN_KEY', ' '.repeat(20), /SVC_ADMIN_KEY.*at least 16 characters/],
    // Paths are appended to these: a query or fragment would break every link or request.
    ['SVC_PUBLIC_URL', 'http://127.0.0.1:8080/#top', /SVC_PUBLIC_URL.*must not have a query string or fragment/],
    ['SVC_PUBLIC_URL', 'https://svc.example.com/?a=1', /SVC_PUBLIC_URL.*must not have a query string or fragment/],
    ['SVC_KALSHI_API_URL', 'https://api.example.com/trade-api/v2?x', /SVC_KALSHI_API_URL.*must not have a query string or fragment/],
    // Where data comes from is never empty (every request would fail with an unparseable URL).
    ['SVC_KALSHI_API_URL', '', /SVC_KALSHI_API_URL.*must not be empty/],
    ['SVC_SEC_API_URL', ' ', /SVC_SEC_API_URL.*must not be empty/],
    ['SVC_SEC_WWW_URL', '', /SVC_SEC_WWW_URL.*must not be empty/],
    ['SVC_SIGNING_SECRET', 'x', /SVC_SIGNING_SECRET \(environment\) = \(hidden\): must be at least 16 characters/],
    // A report holds its cost; the ledger refuses a hold of 0.
    ['SVC_REPORT_COST_CREDITS', '0', /SVC_REPORT_COST_CREDITS.*between 1 and 1000000/],
  ])('rejects %s=%s naming the setting', (env, value, message) => {
    expect(() => loadConfig({ [env]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [env]: value })).toThrow(message);
  });

  it('accepts an explicit host, an admin key of 16 characters or more, or none', () => {
    expect(loadConfig({ SVC_HOST: ' 0.0.0.0 ' }).server.host).toBe('0.0.0.0');
    expect(loadConfig({ SVC_HOST: '::1' }).server.host).toBe('::1');
    expect(loadConfig({ SVC_ADMIN_KEY: 'a'.repeat(16) }).auth.adminKey).toBe('a'.repeat(16));
    expect(loadConfig({ SVC_ADMIN_KEY: '' }).auth.adminKey).toBe('');
    expect(loadConfig({ SVC_REPORT_COST_CREDITS: '1' }).billing.reportCostCredits).toBe(1);
  });

  it('a bad SVC_HOST or SVC_ADMIN_KEY stops the process with one line naming it', async () => {
    for (const [env, value] of [['SVC_HOST', ''], ['SVC_ADMIN_KEY', 'tooshort']] as const) {
      const r = await serveBriefly({ [env]: value, SVC_PORT: '0', SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-config-')) });
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^svc: invalid setting ${env} `))]);
    }
  });

  it('warns about SVC_* variables that nothing reads, suggesting the closest setting', () => {
    expect(unknownVariableWarnings({ SVC_DATABASE: 'postgres://db/svc', SVC_PROT: '80', svc_port: '80', SVC_FROBNICATE: '1' })).toEqual([
      'SVC_DATABASE is not a setting svc knows, so it is ignored; did you mean SVC_DATABASE_URL?',
      'SVC_FROBNICATE is not a setting svc knows, so it is ignored (the settings are listed in the README)',
      'SVC_PROT is not a setting svc knows, so it is ignored; did you mean SVC_PORT?',
      'svc_port is not a setting svc knows, so it is ignored; did you mean SVC_PORT?',
    ]);
    // Core settings, the adapters' (they share the environment), tooling variables and others are known.
    expect(unknownVariableWarnings({ SVC_PORT: '1', SVC_API_URL: 'x', SVC_SLACK_PORT: '1', SVC_DISCORD_SEND_RATE: 'x', SVC_TEST_DATABASE_URL: 'x', SVC_TEST_ADAPTER_LOG: 'x', SVC_KEY: 'x', PATH: '/bin' })).toEqual([]);
  });

  it('warns on stderr, one line per unknown variable, and still runs the command', async () => {
    const r = await runCli(['ledger', 'verify'], { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-config-')), SVC_DATABASE: 'postgres://db.example/svc' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual(['svc: warning: SVC_DATABASE is not a setting svc knows, so it is ignored; did you mean SVC_DATABASE_URL?']);
  });

  it('reads CORS origins as a list: none by default, * alone, or origins', () => {
    expect(loadConfig({}).server.corsOrigins).toEqual([]);
    expect(loadConfig({ SVC_CORS_ORIGINS: '*' }).server.corsOrigins).toEqual(['*']);
    expect(loadConfig({ SVC_CORS_ORIGINS: ' https://app.example.com/ , http://localhost:3000' }).server.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:3000']);
  });

  it('reads SVC_TRUST_PROXY as the proxies in front: true is one, a number of them, or their addresses', () => {
    const trust = (v: string) => loadConfig({ SVC_TRUST_PROXY: v }).server.trustProxy;
    expect(loadConfig({}).server.trustProxy).toBe(false);
    for (const v of ['false', '0', ' off ', '']) expect(trust(v), v).toBe(false);
    // Trusting every hop would take the left-most X-Forwarded-For address, which the client writes.
    for (const v of ['true', 'YES', '1']) expect(trust(v), v).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.168.1.5 ,loopback, fd00::/8')).toEqual(['10.0.0.0/8', '192.168.1.5', 'loopback', 'fd00::/8']);
  });

  it('refuses half an LLM upstream, which would leave LLM writing off without a word', () => {
    expect(() => loadConfig({ SVC_LLM_BASE_URL: 'http://127.0.0.1:9/v1' })).toThrow(/^invalid setting SVC_LLM_MODEL: it is empty while SVC_LLM_BASE_URL is set/);
    expect(() => loadConfig({ SVC_LLM_MODEL: 'gpt-x' })).toThrow(/^invalid setting SVC_LLM_BASE_URL: it is empty while SVC_LLM_MODEL is set/);
    expect(loadConfig({ SVC_LLM_BASE_URL: 'http://127.0.0.1:9/v1', SVC_LLM_MODEL: ' gpt-x ' }).llm).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-x' });
  });

  it('never shows a database password in a setting error, however it is written', () => {
    const shown = (url: string) => {
      try {
        loadConfig({ SVC_DATABASE_URL: url });
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    // A password with a slash does not parse as a URL; a password as a query parameter does.
    for (const url of ['postgres://svc:pa/ssLEAK2@127.0.0.1:5432/db', 'mysql://svc:LEAK3@db/x', 'mysql://db/x?password=LEAK5&sslmode=require']) {
      const message = shown(url);
      expect(message, url).toMatch(/^invalid setting SVC_DATABASE_URL/);
      expect(message, url).not.toMatch(/LEAK/);
    }
    expect(redactUrl('postgres://127.0.0.1:5432/db?password=LEAK5&application_name=svc')).toBe('postgres://127.0.0.1:5432/db?password=***&application_name=svc');
    expect(redactUrl('/var/lib/svc')).toBe('/var/lib/svc');
    // With nothing to hide, a value is shown as typed, not as the URL parser rewrites it ("ftp://x/").
    expect(() => loadConfig({ SVC_PUBLIC_URL: 'ftp://x' })).toThrow('invalid setting SVC_PUBLIC_URL (environment) = "ftp://x": must use http or https');
  });

  it('never echoes a secret setting in its error', () => {
    const spec = SETTINGS.find((s) => s.kind.type === 'secret')!;
    expect(() => loadConfig({}, { ...readDefaults(), auth: { adminKey: 42, keyCacheTtlMs: 1 } })).toThrow(/\(hidden\)/);
    expect(spec.env).toBe('SVC_ADMIN_KEY');
  });

  it('reads values as operators write them: a secret without its trailing newline, a URL scheme in capitals, spaces around (choices too); refuses an empty data dir and shows no database password', () => {
    const key = 'abcdefghijklmnopqrstuvwxyz012345';
    expect(loadConfig({ SVC_ADMIN_KEY: `${key}\n` }).auth.adminKey).toBe(key);
    expect(() => loadConfig({ SVC_ADMIN_KEY: 'abcdefgh ijklmnopqrstuvwxyz' })).toThrow(/SVC_ADMIN_KEY .*must not contain spaces/);
    expect(loadConfig({ SVC_PUBLIC_URL: ' HTTPS://svc.example.com/ ' }).server.publicUrl).toBe('https://svc.example.com');
    expect(loadConfig({ SVC_KALSHI_API_URL: 'https://api.example.com/trade-api/v2\n' }).kalshi.apiUrl).toBe('https://api.example.com/trade-api/v2');
    expect(() => loadConfig({ SVC_DATA_DIR: '' })).toThrow(/SVC_DATA_DIR .*must not be empty/);
    expect(loadConfig({ SVC_LOG_LEVEL: 'info\n', SVC_SECURE_COOKIES: ' auto ' })).toMatchObject({ server: { logLevel: 'info' }, web: { secureCookies: 'auto' } });
    expect(() => loadConfig({ SVC_DATA_DIR: '  ' })).toThrow(/SVC_DATA_DIR/);
    let message = '';
    try {
      loadConfig({ SVC_DATABASE_URL: 'mysql://svc:TopSecretPw@db.internal/svc' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SVC_DATABASE_URL/);
    expect(message).not.toContain('TopSecretPw');
  });

  it('rejects unknown keys in config/default.json', () => {
    expect(() => loadConfig({}, { ...readDefaults(), server: { ...(readDefaults().server as object), prot: 1 } })).toThrow(/unknown setting "server.prot"/);
  });

  it('documents every setting in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const s of SETTINGS) expect(readme, s.env).toContain(`\`${s.env}\``);
    // And the range of every number, as it is checked.
    for (const s of SETTINGS) if (s.kind.type === 'int') expect(readme, s.env).toContain(`\`${s.env}\` ${s.kind.min}–${s.kind.max}`);
  });

  it('a bad setting stops the process with one clear line', async () => {
    const r = await runCli(['serve'], { SVC_PORT: 'abc' });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc: invalid setting SVC_PORT/);
  });
});
