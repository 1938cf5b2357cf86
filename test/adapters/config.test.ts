import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTER_SETTINGS, AdapterSettingsError, loadDiscordSettings, loadSlackSettings } from '../../adapters/shared/config.js';
import { SecretBox } from '../../adapters/shared/secret-box.js';
import { AdapterStore } from '../../adapters/shared/store.js';
import { runCli } from '../helpers/cli.js';
import { FakeHttpServer } from '../helpers/fake-http.js';
import { APP_ID, FakeDiscord, GUILD } from './discord/fake-discord.js';

const SLACK_ENV = { SVC_API_URL: 'http://127.0.0.1:8080/', SVC_API_KEY: 'sk-svc-x', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };
const DISCORD_ENV = { SVC_API_URL: 'https://svc.example.com/v1', SVC_API_KEY: 'sk-svc-x', DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: '123456789012345678' };

describe('adapter settings', () => {
  it('have working defaults and read the environment', () => {
    const slack = loadSlackSettings(SLACK_ENV);
    expect(slack).toMatchObject({ apiUrl: 'http://127.0.0.1:8080', mode: 'http', port: 3000, host: '0.0.0.0', slackApiUrl: 'https://slack.com/api/', nativeStreaming: true, editIntervalMs: 1000 });
    expect(loadSlackSettings({ ...SLACK_ENV, SLACK_SIGNING_SECRET: '', SLACK_APP_TOKEN: 'xapp-1', SVC_SLACK_API_URL: 'http://127.0.0.1:9/api' })).toMatchObject({
      mode: 'socket',
      slackApiUrl: 'http://127.0.0.1:9/api/',
    });
    const discord = loadDiscordSettings(DISCORD_ENV);
    expect(discord).toMatchObject({ apiUrl: 'https://svc.example.com', discordApiUrl: 'https://discord.com/api', editIntervalMs: 1200, stopGraceMs: 20_000 });
    // Below a supervisor's kill timeout (docker stop: 10 s).
    expect(loadSlackSettings({ ...SLACK_ENV, SVC_ADAPTER_STOP_GRACE_MS: '5000' }).stopGraceMs).toBe(5000);
    expect(() => loadDiscordSettings({ ...DISCORD_ENV, SVC_ADAPTER_STOP_GRACE_MS: '-1' })).toThrow(/SVC_ADAPTER_STOP_GRACE_MS/);
  });

  it('rate budgets default to the platforms\' limits and read as calls per window', () => {
    expect(loadSlackSettings(SLACK_ENV)).toMatchObject({
      postRate: { count: 1, perMs: 1000 },
      updateRate: { count: 50, perMs: 60_000 },
      streamAppendRate: { count: 100, perMs: 60_000 },
      streamStartStopRate: { count: 20, perMs: 60_000 },
    });
    expect(loadDiscordSettings(DISCORD_ENV).sendRate).toEqual({ count: 5, perMs: 5000 });
    expect(loadDiscordSettings({ ...DISCORD_ENV, SVC_DISCORD_SEND_RATE: '4 / 6000ms' }).sendRate).toEqual({ count: 4, perMs: 6000 });
    expect(loadSlackSettings({ ...SLACK_ENV, SVC_SLACK_UPDATE_RATE: '100/2min' }).updateRate).toEqual({ count: 100, perMs: 120_000 });
  });

  it.each([
    [{ ...SLACK_ENV, SVC_API_URL: '' }, /^missing setting SVC_API_URL: /],
    [{ ...SLACK_ENV, SLACK_BOT_TOKEN: '' }, /^missing setting SLACK_BOT_TOKEN: /],
    [{ ...SLACK_ENV, SLACK_SIGNING_SECRET: '' }, /^missing setting SLACK_SIGNING_SECRET: .*SLACK_APP_TOKEN/],
    [{ ...SLACK_ENV, SVC_SLACK_PORT: 'eighty' }, /^invalid setting SVC_SLACK_PORT: must be an integer, got "eighty"$/],
    [{ ...SLACK_ENV, SVC_SLACK_EDIT_INTERVAL_MS: '200' }, /^invalid setting SVC_SLACK_EDIT_INTERVAL_MS: must be between 1000 and 60000/],
    [{ ...SLACK_ENV, SVC_SLACK_API_URL: 'ftp://x' }, /^invalid setting SVC_SLACK_API_URL: must be an http or https URL/],
    [{ ...SLACK_ENV, SVC_SLACK_NATIVE_STREAMING: 'maybe' }, /^invalid setting SVC_SLACK_NATIVE_STREAMING: must be true or false/],
    [{ ...SLACK_ENV, SLACK_APP_TOKEN: 'xoxb-wrong' }, /^invalid setting SLACK_APP_TOKEN: .*\(hidden\)$/],
    [{ ...SLACK_ENV, SVC_SLACK_UPDATE_RATE: '50' }, /^invalid setting SVC_SLACK_UPDATE_RATE: must be calls per window, like 5\/5s/],
    [{ ...SLACK_ENV, SVC_SLACK_POST_RATE: '0/1s' }, /^invalid setting SVC_SLACK_POST_RATE: must allow between 1 and 10000 calls/],
  ])('Slack: %o is refused naming the setting', (env, message) => {
    expect(() => loadSlackSettings(env)).toThrow(AdapterSettingsError);
    expect(() => loadSlackSettings(env)).toThrow(message);
  });

  it.each([
    [{ ...DISCORD_ENV, DISCORD_TOKEN: '' }, /^missing setting DISCORD_TOKEN/],
    [{ ...DISCORD_ENV, DISCORD_APPLICATION_ID: 'my-app' }, /^invalid setting DISCORD_APPLICATION_ID: must be a numeric application id, got "my-app"$/],
    [{ ...DISCORD_ENV, SVC_DISCORD_API_URL: 'not a url' }, /^invalid setting SVC_DISCORD_API_URL: must be an absolute URL/],
    [{ ...DISCORD_ENV, SVC_DISCORD_API_URL: 'http:discord.test' }, /^invalid setting SVC_DISCORD_API_URL: must be an absolute URL, like https:\/\/host\/path/],
    [{ ...DISCORD_ENV, SVC_ADAPTER_SECRET: 'short' }, /^invalid setting SVC_ADAPTER_SECRET: .*\(hidden\)$/],
    [{ ...DISCORD_ENV, SVC_DISCORD_SEND_RATE: '5/10ms' }, /^invalid setting SVC_DISCORD_SEND_RATE: must have a window between 100ms and 60min, got "5\/10ms"$/],
  ])('Discord: %o is refused naming the setting', (env, message) => {
    expect(() => loadDiscordSettings(env)).toThrow(AdapterSettingsError);
    expect(() => loadDiscordSettings(env)).toThrow(message);
  });

  it('never echo a secret in an error', () => {
    expect(() => loadSlackSettings({ ...SLACK_ENV, SLACK_APP_TOKEN: 'xoxb-very-secret' })).toThrow(/\(hidden\)/);
    expect(() => loadSlackSettings({ ...SLACK_ENV, SLACK_APP_TOKEN: 'xoxb-very-secret' })).not.toThrow(/very-secret/);
    expect(() => loadDiscordSettings({ ...DISCORD_ENV, SVC_ADAPTER_SECRET: 'not-so-secret' })).not.toThrow(/not-so-secret/);
  });

  it('are all documented in the README, in the Slack and Discord tables', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = (title: string) => {
      const start = readme.indexOf(`\n## ${title}\n`);
      expect(start, `README has a "## ${title}" section`).toBeGreaterThan(-1);
      const end = readme.indexOf('\n## ', start + 1);
      return readme.slice(start, end === -1 ? undefined : end);
    };
    const slack = section('Slack');
    const discord = section('Discord');
    for (const s of ADAPTER_SETTINGS) {
      if (s.adapters.includes('slack')) expect(slack, s.env).toMatch(new RegExp(`^\\| \`${s.env}\` \\|`, 'm'));
      if (s.adapters.includes('discord')) expect(discord, s.env).toMatch(new RegExp(`^\\| \`${s.env}\` \\|`, 'm'));
    }
  });
});

describe('adapter storage', () => {
  it('keeps linked keys encrypted, bound to their owner, with a generated secret file of mode 0600', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-adapter-store-'));
    try {
      const store = AdapterStore.open(dir, undefined);
      store.link('slack:T1:U1', 'sk-svc-secret-key');
      expect(store.linkedKey('slack:T1:U1')).toBe('sk-svc-secret-key');
      expect(store.sealedValue('slack:T1:U1')).not.toContain('sk-svc-secret-key');
      expect(readFileSync(path.join(dir, 'adapters.db')).includes(Buffer.from('sk-svc-secret-key'))).toBe(false);
      expect(statSync(path.join(dir, 'adapter-secret.key')).mode & 0o777).toBe(0o600);
      // A sealed value moved to another person does not open.
      const box = SecretBox.resolve(dir, undefined);
      expect(() => box.open(store.sealedValue('slack:T1:U1')!, 'slack:T1:U2')).toThrow();
      store.close();
      // Another secret cannot read it: the key counts as not linked.
      const other = AdapterStore.open(dir, 'ab'.repeat(32));
      expect(other.linkedKey('slack:T1:U1')).toBeNull();
      other.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('claims a delivery once', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-adapter-store-'));
    try {
      const store = AdapterStore.open(dir, undefined);
      expect(store.claim('slack:event:Ev1')).toBe(true);
      expect(store.claim('slack:event:Ev1')).toBe(false);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('svc slack / svc discord', () => {
  it('a missing or bad setting stops the process with one clear line', async () => {
    const slack = await runCli(['slack'], { SVC_API_URL: '', SVC_API_KEY: '' });
    expect(slack.code).toBe(1);
    expect(slack.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: missing setting SVC_API_URL: /)]);
    const discord = await runCli(['discord'], { ...DISCORD_ENV, DISCORD_APPLICATION_ID: 'x' });
    expect(discord.code).toBe(1);
    expect(discord.stderr.trim().split('\n')).toEqual(['svc: invalid setting DISCORD_APPLICATION_ID: must be a numeric application id, got "x"']);
  });

  it('a Slack that refuses the token, or cannot be reached, stops the process with one clear line', async () => {
    const refusing = await new FakeHttpServer(() => ({ json: { ok: false, error: 'invalid_auth' } })).start();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-slack-cli-'));
    try {
      const env = { ...SLACK_ENV, SVC_SLACK_PORT: '0', SVC_SLACK_HOST: '127.0.0.1', SVC_ADAPTER_DATA_DIR: dir };
      const refused = await runCli(['slack'], { ...env, SVC_SLACK_API_URL: `${refusing.url}/api/` });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toEqual(['svc: Slack refused SLACK_BOT_TOKEN (invalid_auth): check the bot token']);
      await refusing.close();
      const unreachable = await runCli(['slack'], { ...env, SVC_SLACK_API_URL: refusing.url + '/api/' });
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: cannot reach Slack's Web API at http:\/\/127\.0\.0\.1:\d+\/api\/: /)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('svc discord register-commands --guild ID registers /svc through the REST API', async () => {
    const fake = await new FakeDiscord().start();
    try {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-register-'));
      const r = await runCli(['discord', 'register-commands', '--guild', GUILD], {
        ...DISCORD_ENV,
        DISCORD_APPLICATION_ID: APP_ID,
        SVC_DISCORD_API_URL: `${fake.url}/api`,
        SVC_ADAPTER_DATA_DIR: dir,
      });
      rmSync(dir, { recursive: true, force: true });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ registered: ['svc'], scope: 'guild', guild_id: GUILD });
      expect(fake.commands.map((c) => c.path)).toEqual([`/applications/${APP_ID}/guilds/${GUILD}/commands`]);
    } finally {
      await fake.close();
    }
  });
});
