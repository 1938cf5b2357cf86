import { createHmac } from 'node:crypto';
import type { Clock } from '../../../adapters/shared/clock.js';
import { FakeHttpServer, type FakeReply, type FakeRequest } from '../../helpers/fake-http.js';

export const TEAM = 'T0TEAM';
export const BOT_USER = 'U0BOT';
export const BOT_ID = 'B0BOT';
export const SIGNING_SECRET = 'test-signing-secret';

/** Arguments the Web API client sends as JSON. */
const JSON_ARGS = new Set(['metadata', 'blocks', 'attachments', 'chunks']);

export interface SlackMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  user: string;
  bot_id?: string;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** Natively streamed messages: their Markdown, and whether the stream is still open. */
  markdown?: string;
  streaming?: boolean;
  deleted?: boolean;
}

export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  /** Time on the test's clock when the call arrived. */
  at: number;
  /** The HTTP status it got (429 when over `limits`). */
  status: number;
}

/**
 * A loopback Slack Web API: records every call, keeps the messages the app posts (including
 * native streams), serves threads back through conversations.replies, fails the calls a test
 * asks it to, and answers 429 past the rate limits a test sets.
 */
export class FakeSlack {
  readonly http: FakeHttpServer;
  readonly calls: SlackCall[] = [];
  readonly messages: SlackMessage[] = [];
  /** Replies to a response_url (ephemeral command answers). */
  readonly responses: Array<Record<string, unknown>> = [];
  #failures = new Map<string, Array<string | { status: number; retryAfter: number }>>();
  #seq = 0;
  clock: Clock = { now: () => Date.now(), setTimeout, clearTimeout };
  /** Calls of a method beyond this many per window get a 429 (Retry-After): chat.postMessage per channel, the others per workspace (the fake has one). */
  limits: Record<string, { count: number; perMs: number }> = {};
  /** When set, conversations.replies returns at most this many messages per page (Slack: 15 for non-Marketplace apps). */
  repliesPageSize: number | null = null;
  /** When set, chat.postMessage and chat.update refuse a `text` longer than this with `msg_too_long` (Slack does from about 4,000 characters). */
  textLimit: number | null = null;
  readonly #accepted = new Map<string, number[]>();

  constructor() {
    this.http = new FakeHttpServer((req) => this.#handle(req));
  }

  async start(): Promise<this> {
    await this.http.start();
    return this;
  }

  get url(): string {
    return this.http.url;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The next calls of `method` fail with these Slack errors (or HTTP 429s), in order. */
  fail(method: string, ...errors: Array<string | { status: number; retryAfter: number }>): void {
    this.#failures.set(method, [...(this.#failures.get(method) ?? []), ...errors]);
  }

  nextTs(): string {
    return `${1_700_000_000 + ++this.#seq}.${String(this.#seq).padStart(6, '0')}`;
  }

  /** A message a person wrote (for threads the app reads back). */
  addUserMessage(channel: string, user: string, text: string, threadTs?: string): SlackMessage {
    const m: SlackMessage = { channel, ts: this.nextTs(), thread_ts: threadTs, text, user };
    this.messages.push(m);
    return m;
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** The bot's messages in a thread (root excluded), oldest first, as Slack shows them now. */
  threadReplies(channel: string, threadTs: string): SlackMessage[] {
    return this.messages.filter((m) => m.channel === channel && m.thread_ts === threadTs && m.ts !== threadTs && m.user === BOT_USER && !m.deleted);
  }

  rootMessages(channel: string): SlackMessage[] {
    return this.messages.filter((m) => m.channel === channel && !m.thread_ts && m.user === BOT_USER);
  }

  #find(channel: unknown, ts: unknown): SlackMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts && !m.deleted);
  }

  /** Seconds to wait when a call of `method` now would pass its limit; otherwise counts it and null. */
  #overLimit(method: string, args: Record<string, unknown>): number | null {
    const limit = this.limits[method];
    if (!limit) return null;
    const key = method === 'chat.postMessage' ? `${method} ${String(args.channel)}` : method;
    const now = this.clock.now();
    const recent = (this.#accepted.get(key) ?? []).filter((at) => at > now - limit.perMs);
    this.#accepted.set(key, recent);
    if (recent.length < limit.count) {
      recent.push(now);
      return null;
    }
    return Math.max(1, Math.ceil((recent[0]! + limit.perMs - now) / 1000));
  }

  #handle(req: FakeRequest): FakeReply {
    const u = new URL(req.path, 'http://x');
    if (u.pathname.startsWith('/response/')) {
      this.responses.push(JSON.parse(req.body) as Record<string, unknown>);
      return { json: { ok: true } };
    }
    const method = u.pathname.replace(/^\/api\//, '');
    const args: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(req.body)) {
      // Text arguments may start with "[" too (a citation marker): only structured ones are JSON.
      args[k] = JSON_ARGS.has(k) && /^[[{]/.test(v) ? JSON.parse(v) : v;
    }
    const call: SlackCall = { method, args, at: this.clock.now(), status: 200 };
    this.calls.push(call);
    const retryAfter = this.#overLimit(method, args);
    if (retryAfter !== null) {
      call.status = 429;
      return { status: 429, headers: { 'retry-after': String(retryAfter) }, json: { ok: false, error: 'ratelimited' } };
    }
    const failure = this.#failures.get(method)?.shift();
    if (failure !== undefined) {
      if (typeof failure === 'string') return { json: { ok: false, error: failure } };
      call.status = failure.status;
      return { status: failure.status, headers: { 'retry-after': String(failure.retryAfter) }, json: { ok: false, error: 'ratelimited' } };
    }
    if (this.textLimit !== null && (method === 'chat.postMessage' || method === 'chat.update') && String(args.text ?? '').length > this.textLimit) {
      return { json: { ok: false, error: 'msg_too_long' } };
    }
    const ok = (extra: Record<string, unknown> = {}) => ({ json: { ok: true, ...extra } });
    const bot = { user: BOT_USER, bot_id: BOT_ID };
    switch (method) {
      case 'auth.test':
        return ok({ url: 'https://test.slack.com/', team: 'Test', user: 'svc', team_id: TEAM, user_id: BOT_USER, bot_id: BOT_ID });
      case 'chat.postMessage': {
        const m: SlackMessage = {
          channel: String(args.channel),
          ts: this.nextTs(),
          thread_ts: args.thread_ts as string | undefined,
          text: String(args.text ?? ''),
          metadata: args.metadata as SlackMessage['metadata'],
          ...bot,
        };
        this.messages.push(m);
        return ok({ channel: m.channel, ts: m.ts, message: m });
      }
      case 'chat.update': {
        const m = this.#find(args.channel, args.ts);
        if (!m) return { json: { ok: false, error: 'message_not_found' } };
        m.text = String(args.text ?? '');
        // The text now shown replaces what a native stream wrote.
        m.markdown = undefined;
        return ok({ channel: m.channel, ts: m.ts, text: m.text });
      }
      case 'chat.delete': {
        const m = this.#find(args.channel, args.ts);
        if (!m) return { json: { ok: false, error: 'message_not_found' } };
        m.deleted = true;
        return ok({ channel: m.channel, ts: m.ts });
      }
      case 'chat.startStream': {
        if (!args.thread_ts) return { json: { ok: false, error: 'invalid_thread_ts' } };
        const m: SlackMessage = { channel: String(args.channel), ts: this.nextTs(), thread_ts: String(args.thread_ts), text: '', markdown: String(args.markdown_text ?? ''), streaming: true, ...bot };
        this.messages.push(m);
        return ok({ channel: m.channel, ts: m.ts });
      }
      case 'chat.appendStream':
      case 'chat.stopStream': {
        const m = this.#find(args.channel, args.ts);
        if (!m) return { json: { ok: false, error: 'message_not_found' } };
        if (!m.streaming) return { json: { ok: false, error: 'message_not_in_streaming_state' } };
        m.markdown = (m.markdown ?? '') + String(args.markdown_text ?? '');
        m.text = m.markdown;
        if (method === 'chat.stopStream') m.streaming = false;
        return ok({ channel: m.channel, ts: m.ts });
      }
      case 'conversations.replies': {
        const thread = this.messages
          .filter((m) => m.channel === args.channel && (m.ts === args.ts || m.thread_ts === args.ts) && !m.deleted)
          .map(({ markdown: _m, streaming: _s, deleted: _d, ...m }) => (args.include_all_metadata ? m : { ...m, metadata: undefined }));
        if (this.repliesPageSize) {
          const start = Number(args.cursor ?? 0);
          const page = thread.slice(start, start + this.repliesPageSize);
          const more = start + this.repliesPageSize < thread.length;
          return ok({ messages: page, has_more: more, response_metadata: { next_cursor: more ? String(start + this.repliesPageSize) : '' } });
        }
        return ok({ messages: thread, has_more: false, response_metadata: { next_cursor: '' } });
      }
      case 'chat.postEphemeral':
      case 'assistant.threads.setStatus':
        return ok({});
    }
    return { json: { ok: false, error: 'unknown_method' } };
  }
}

/** Slack's v0 request signature: HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the signing secret. */
export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** A request signed as Slack signs it; `timestamp` (seconds) defaults to now. */
export async function postSigned(url: string, body: string, contentType: string, headers: Record<string, string> = {}, secret = SIGNING_SECRET, timestamp = Math.floor(Date.now() / 1000)): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': slackSignature(secret, timestamp, body), ...headers },
    body,
  });
}
