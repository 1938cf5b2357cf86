import path from 'node:path';
import type { Rate } from './rate-budget.js';

/**
 * The adapters' settings, read from environment variables. They are separate from the core's
 * (src/config.ts) because an adapter is a client that may run far from the service. Every
 * setting is listed here once; the README's tables are checked against this list by a test.
 */

export class AdapterSettingsError extends Error {
  override name = 'AdapterSettingsError';
}

type Kind =
  | { type: 'string'; pattern?: RegExp; hint?: string }
  | { type: 'secret' }
  | { type: 'url' }
  | { type: 'int'; min: number; max: number }
  | { type: 'bool' }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'path' }
  /** `count/window`, e.g. `5/5s`: at most `count` calls in any window (`ms`, `s` or `min`). */
  | { type: 'rate' };

export type AdapterName = 'slack' | 'discord';

export interface AdapterSetting {
  env: string;
  kind: Kind;
  /** The value when the variable is unset or empty; absent means required (unless `optional`). */
  default?: string;
  optional?: boolean;
  doc: string;
  adapters: readonly AdapterName[];
}

const BOTH = ['slack', 'discord'] as const;

export const ADAPTER_SETTINGS: readonly AdapterSetting[] = [
  { env: 'SVC_API_URL', kind: { type: 'url' }, doc: 'Base URL of the svc API the adapter calls (e.g. `http://127.0.0.1:8080`); `/v1` is appended.', adapters: BOTH },
  { env: 'SVC_API_KEY', kind: { type: 'secret' }, doc: "The workspace's API key: used for everyone who has not linked their own key.", adapters: BOTH },
  { env: 'SVC_API_TIMEOUT_MS', kind: { type: 'int', min: 1000, max: 3_600_000 }, default: '900000', doc: 'How long the adapter waits for an answer to start streaming (new reports take minutes).', adapters: BOTH },
  {
    env: 'SVC_API_IDLE_TIMEOUT_MS',
    kind: { type: 'int', min: 20_000, max: 3_600_000 },
    default: '60000',
    doc: 'How long a streaming answer may stay silent before the adapter gives it up and says so (the service sends a keep-alive at least every 15 s).',
    adapters: BOTH,
  },
  {
    env: 'SVC_ADAPTER_STOP_GRACE_MS',
    kind: { type: 'int', min: 0, max: 600_000 },
    default: '20000',
    doc: "On SIGTERM or SIGINT, how long answers in progress may go on before they are stopped, each ending with a note that the bot restarted (up to 5 s more to write those). Keep it 5 s below the supervisor's kill timeout: `docker stop` waits 10 s (use 5000), Kubernetes 30 s.",
    adapters: BOTH,
  },
  { env: 'SVC_ADAPTER_DATA_DIR', kind: { type: 'path' }, default: './data/adapters', doc: "The adapters' own small database: linked keys (encrypted), answered threads, delivered-event ids.", adapters: BOTH },
  {
    env: 'SVC_ADAPTER_SECRET',
    kind: { type: 'secret' },
    optional: true,
    doc: '32 bytes (64 hex characters or base64) that encrypt linked API keys at rest (AES-256-GCM). When empty, one is generated into `SVC_ADAPTER_DATA_DIR/adapter-secret.key` (mode 0600).',
    adapters: BOTH,
  },
  { env: 'SVC_LOG_LEVEL', kind: { type: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] }, default: 'info', doc: 'Log level (the same variable as the service).', adapters: BOTH },
  { env: 'SLACK_BOT_TOKEN', kind: { type: 'secret' }, doc: 'Bot token (`xoxb-…`) from the Slack app\'s "OAuth & Permissions" page.', adapters: ['slack'] },
  { env: 'SLACK_SIGNING_SECRET', kind: { type: 'secret' }, optional: true, doc: 'Signing secret ("Basic Information" page); required in HTTP mode, where every request is verified with it.', adapters: ['slack'] },
  { env: 'SLACK_APP_TOKEN', kind: { type: 'secret' }, optional: true, doc: 'App-level token (`xapp-…`, scope `connections:write`): when set, the adapter uses Socket Mode instead of HTTP.', adapters: ['slack'] },
  { env: 'SVC_SLACK_HOST', kind: { type: 'string' }, default: '0.0.0.0', doc: 'Interface the HTTP receiver listens on (HTTP mode).', adapters: ['slack'] },
  { env: 'SVC_SLACK_PORT', kind: { type: 'int', min: 0, max: 65535 }, default: '3000', doc: 'Port of the HTTP receiver (HTTP mode); Slack posts to `/slack/events` on it.', adapters: ['slack'] },
  { env: 'SVC_SLACK_API_URL', kind: { type: 'url' }, default: 'https://slack.com/api/', doc: "Slack's Web API address (tests point it at a local fake).", adapters: ['slack'] },
  { env: 'SVC_SLACK_NATIVE_STREAMING', kind: { type: 'bool' }, default: 'true', doc: "Use Slack's native streaming (`chat.startStream`); `false` always posts and edits.", adapters: ['slack'] },
  { env: 'SVC_SLACK_EDIT_INTERVAL_MS', kind: { type: 'int', min: 1000, max: 60_000 }, default: '1000', doc: 'Least time between two edits (or stream appends) of one message.', adapters: ['slack'] },
  { env: 'SVC_SLACK_POST_RATE', kind: { type: 'rate' }, default: '1/1s', doc: 'New messages (`chat.postMessage`) per channel, all answers together.', adapters: ['slack'] },
  { env: 'SVC_SLACK_UPDATE_RATE', kind: { type: 'rate' }, default: '50/60s', doc: 'Message edits (`chat.update`, Tier 3) per workspace, all answers together.', adapters: ['slack'] },
  { env: 'SVC_SLACK_STREAM_APPEND_RATE', kind: { type: 'rate' }, default: '100/60s', doc: 'Native stream appends (`chat.appendStream`, Tier 4) per workspace, all answers together.', adapters: ['slack'] },
  {
    env: 'SVC_SLACK_STREAM_START_STOP_RATE',
    kind: { type: 'rate' },
    default: '20/60s',
    doc: 'Native streams started (`chat.startStream`, Tier 2) per workspace, and separately streams stopped (`chat.stopStream`).',
    adapters: ['slack'],
  },
  { env: 'DISCORD_TOKEN', kind: { type: 'secret' }, doc: 'Bot token from the Discord Developer Portal ("Bot" page).', adapters: ['discord'] },
  {
    env: 'DISCORD_APPLICATION_ID',
    kind: { type: 'string', pattern: /^\d{5,25}$/, hint: 'a numeric application id' },
    doc: 'Application id ("General Information" page); commands are registered under it.',
    adapters: ['discord'],
  },
  { env: 'SVC_DISCORD_API_URL', kind: { type: 'url' }, default: 'https://discord.com/api', doc: "Discord's REST address; the gateway address is discovered through it (tests point both at a local fake).", adapters: ['discord'] },
  { env: 'SVC_DISCORD_EDIT_INTERVAL_MS', kind: { type: 'int', min: 1000, max: 60_000 }, default: '1200', doc: 'Least time between two edits of one message.', adapters: ['discord'] },
  {
    env: 'SVC_DISCORD_SEND_RATE',
    kind: { type: 'rate' },
    default: '5/5s',
    doc: "Message sends and edits per channel or thread (and per slash command's reply), all answers together.",
    adapters: ['discord'],
  },
];

const RATE_UNITS_MS = { ms: 1, s: 1000, min: 60_000 } as const;

function parse(setting: AdapterSetting, raw: string): string | number | boolean | Rate {
  const { env, kind } = setting;
  const shown = kind.type === 'secret' ? '(hidden)' : `"${raw}"`;
  const bad = (why: string) => new AdapterSettingsError(`invalid setting ${env}: ${why}, got ${shown}`);
  switch (kind.type) {
    case 'int': {
      if (!/^-?\d+$/.test(raw)) throw bad('must be an integer');
      const n = Number(raw);
      if (n < kind.min || n > kind.max) throw bad(`must be between ${kind.min} and ${kind.max}`);
      return n;
    }
    case 'bool':
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      throw bad('must be true or false');
    case 'url': {
      let url: URL;
      try {
        // `http:host` parses (as http://host/) but is a typo more often than not.
        if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) throw new TypeError('no //');
        url = new URL(raw);
      } catch {
        throw bad('must be an absolute URL, like https://host/path');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('must be an http or https URL');
      return raw;
    }
    case 'enum':
      if (!kind.values.includes(raw)) throw bad(`must be one of ${kind.values.join(', ')}`);
      return raw;
    case 'string':
      if (kind.pattern && !kind.pattern.test(raw)) throw bad(`must be ${kind.hint ?? `like ${kind.pattern}`}`);
      return raw;
    case 'path':
      return path.resolve(raw);
    case 'rate': {
      const m = /^(\d+)\s*\/\s*(\d+)\s*(ms|s|min)$/.exec(raw);
      if (!m) throw bad('must be calls per window, like 5/5s or 50/60s (units ms, s, min)');
      const rate = { count: Number(m[1]), perMs: Number(m[2]) * RATE_UNITS_MS[m[3] as keyof typeof RATE_UNITS_MS] };
      if (rate.count < 1 || rate.count > 10_000) throw bad('must allow between 1 and 10000 calls per window');
      if (rate.perMs < 100 || rate.perMs > 3_600_000) throw bad('must have a window between 100ms and 60min');
      return rate;
    }
    case 'secret':
      return raw;
  }
}

/** The settings of `adapter` (only those named in `only`, when given), parsed; a missing required one is an error. */
function read(env: NodeJS.ProcessEnv, adapter: AdapterName, only?: readonly string[]): Map<string, string | number | boolean | Rate | undefined> {
  const values = new Map<string, string | number | boolean | Rate | undefined>();
  for (const setting of ADAPTER_SETTINGS) {
    if (!setting.adapters.includes(adapter) || (only && !only.includes(setting.env))) continue;
    const raw = env[setting.env]?.trim() || setting.default;
    if (raw === undefined) {
      if (!setting.optional) throw new AdapterSettingsError(`missing setting ${setting.env}: ${setting.doc.replace(/`/g, '')}`);
      values.set(setting.env, undefined);
      continue;
    }
    values.set(setting.env, parse(setting, raw));
  }
  return values;
}

export interface CommonSettings {
  apiUrl: string;
  apiKey: string;
  apiTimeoutMs: number;
  apiIdleTimeoutMs: number;
  stopGraceMs: number;
  dataDir: string;
  secret: string | undefined;
  logLevel: string;
}

export interface SlackSettings extends CommonSettings {
  botToken: string;
  signingSecret: string | undefined;
  appToken: string | undefined;
  mode: 'http' | 'socket';
  host: string;
  port: number;
  slackApiUrl: string;
  nativeStreaming: boolean;
  editIntervalMs: number;
  postRate: Rate;
  updateRate: Rate;
  streamAppendRate: Rate;
  streamStartStopRate: Rate;
}

export interface DiscordSettings extends CommonSettings {
  token: string;
  applicationId: string;
  discordApiUrl: string;
  editIntervalMs: number;
  sendRate: Rate;
}

/** 64 hex characters, or base64 of 32 bytes. */
export function decodeSecretKey(value: string): Buffer | null {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : null;
  return key?.length === 32 ? key : null;
}

function common(v: Map<string, unknown>): CommonSettings {
  const secret = v.get('SVC_ADAPTER_SECRET') as string | undefined;
  if (secret && !decodeSecretKey(secret)) throw new AdapterSettingsError('invalid setting SVC_ADAPTER_SECRET: must be 32 bytes as 64 hex characters or base64, got (hidden)');
  return {
    apiUrl: String(v.get('SVC_API_URL')).replace(/\/+$/, '').replace(/\/v1$/, ''),
    apiKey: v.get('SVC_API_KEY') as string,
    apiTimeoutMs: v.get('SVC_API_TIMEOUT_MS') as number,
    apiIdleTimeoutMs: v.get('SVC_API_IDLE_TIMEOUT_MS') as number,
    stopGraceMs: v.get('SVC_ADAPTER_STOP_GRACE_MS') as number,
    dataDir: v.get('SVC_ADAPTER_DATA_DIR') as string,
    secret: v.get('SVC_ADAPTER_SECRET') as string | undefined,
    logLevel: v.get('SVC_LOG_LEVEL') as string,
  };
}

export function loadSlackSettings(env: NodeJS.ProcessEnv = process.env): SlackSettings {
  const v = read(env, 'slack');
  const appToken = v.get('SLACK_APP_TOKEN') as string | undefined;
  const signingSecret = v.get('SLACK_SIGNING_SECRET') as string | undefined;
  if (!appToken && !signingSecret) {
    throw new AdapterSettingsError('missing setting SLACK_SIGNING_SECRET: HTTP mode verifies every request with it (or set SLACK_APP_TOKEN to use Socket Mode)');
  }
  if (appToken && !appToken.startsWith('xapp-')) throw new AdapterSettingsError('invalid setting SLACK_APP_TOKEN: must be an app-level token starting with xapp-, got (hidden)');
  let slackApiUrl = v.get('SVC_SLACK_API_URL') as string;
  if (!slackApiUrl.endsWith('/')) slackApiUrl += '/'; // the Web API client appends method names
  return {
    ...common(v),
    botToken: v.get('SLACK_BOT_TOKEN') as string,
    signingSecret,
    appToken,
    mode: appToken ? 'socket' : 'http',
    host: v.get('SVC_SLACK_HOST') as string,
    port: v.get('SVC_SLACK_PORT') as number,
    slackApiUrl,
    nativeStreaming: v.get('SVC_SLACK_NATIVE_STREAMING') as boolean,
    editIntervalMs: v.get('SVC_SLACK_EDIT_INTERVAL_MS') as number,
    postRate: v.get('SVC_SLACK_POST_RATE') as Rate,
    updateRate: v.get('SVC_SLACK_UPDATE_RATE') as Rate,
    streamAppendRate: v.get('SVC_SLACK_STREAM_APPEND_RATE') as Rate,
    streamStartStopRate: v.get('SVC_SLACK_STREAM_START_STOP_RATE') as Rate,
  };
}

export function loadDiscordSettings(env: NodeJS.ProcessEnv = process.env): DiscordSettings {
  const v = read(env, 'discord');
  return {
    ...common(v),
    token: v.get('DISCORD_TOKEN') as string,
    applicationId: v.get('DISCORD_APPLICATION_ID') as string,
    discordApiUrl: String(v.get('SVC_DISCORD_API_URL')).replace(/\/+$/, ''),
    editIntervalMs: v.get('SVC_DISCORD_EDIT_INTERVAL_MS') as number,
    sendRate: v.get('SVC_DISCORD_SEND_RATE') as Rate,
  };
}

/** What `svc discord register-commands` uses: the bot's token, its application and Discord's address; not the svc API's. */
export type DiscordRegistrationSettings = Pick<DiscordSettings, 'token' | 'applicationId' | 'discordApiUrl'>;

export function loadDiscordRegistrationSettings(env: NodeJS.ProcessEnv = process.env): DiscordRegistrationSettings {
  const v = read(env, 'discord', ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID', 'SVC_DISCORD_API_URL']);
  return {
    token: v.get('DISCORD_TOKEN') as string,
    applicationId: v.get('DISCORD_APPLICATION_ID') as string,
    discordApiUrl: String(v.get('SVC_DISCORD_API_URL')).replace(/\/+$/, ''),
  };
}
