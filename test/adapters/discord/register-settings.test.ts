import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDiscordRegistrationSettings } from '../../../adapters/shared/config.js';
import { runCli } from '../../helpers/cli.js';
import { FakeHttpServer } from '../../helpers/fake-http.js';

const APP_ID = '123456789012345678';
const GUILD = '987654321098765432';

// `svc discord register-commands` asked for SVC_API_URL and SVC_API_KEY, which only the bot uses:
// an operator registering commands before the service exists was stopped for nothing.
describe('svc discord register-commands needs only what it uses', () => {
  it('registers with DISCORD_TOKEN and DISCORD_APPLICATION_ID alone (SVC_API_URL and SVC_API_KEY unset)', async () => {
    const fake = await new FakeHttpServer((req) => ({ json: req.method === 'PUT' ? JSON.parse(req.body) : [] })).start();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-register-'));
    try {
      // An empty variable counts as unset (the adapters read both alike), and overrides any in this test's environment.
      const r = await runCli(['discord', 'register-commands', '--guild', GUILD], {
        SVC_API_URL: '',
        SVC_API_KEY: '',
        DISCORD_TOKEN: 'token-x',
        DISCORD_APPLICATION_ID: APP_ID,
        SVC_DISCORD_API_URL: `${fake.url}/api`,
        SVC_ADAPTER_DATA_DIR: dir,
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ registered: ['svc'], scope: 'guild', guild_id: GUILD });
      expect(fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`PUT /api/v10/applications/${APP_ID}/guilds/${GUILD}/commands`]);
    } finally {
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('still names a missing setting it does use, and refuses a bad --guild before reading any (exit 2)', async () => {
    const missing = await runCli(['discord', 'register-commands'], { SVC_API_URL: '', SVC_API_KEY: '', DISCORD_TOKEN: '', DISCORD_APPLICATION_ID: APP_ID });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^svc: missing setting DISCORD_TOKEN: /);
    const badGuild = await runCli(['discord', 'register-commands', '--guild', 'general'], { DISCORD_TOKEN: '', DISCORD_APPLICATION_ID: '' });
    expect(badGuild.code).toBe(2);
    expect(badGuild.stderr).toBe('svc: --guild must be a numeric guild id, got "general"\n');
  }, 60_000);

  it('reads exactly the token, the application id and Discord\'s address', () => {
    expect(loadDiscordRegistrationSettings({ DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: APP_ID })).toEqual({ token: 't', applicationId: APP_ID, discordApiUrl: 'https://discord.com/api' });
    expect(() => loadDiscordRegistrationSettings({ DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: 'my-app' })).toThrow(/invalid setting DISCORD_APPLICATION_ID: must be a numeric application id/);
  });
});
