import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * A loopback Discord: the REST routes the bot uses (messages, threads, interaction callbacks and
 * webhooks, command registration, gateway discovery) and a gateway WebSocket speaking HELLO,
 * IDENTIFY, READY, GUILD_CREATE, heartbeats and dispatches. It keeps messages per channel and
 * records every REST request with its arrival time on the fake's clock (`now`), and can hold
 * channels to a send limit, answering 429 past it like Discord (`sendLimit`). Interaction tokens
 * work for 15 minutes on that clock, then webhook calls with them get Discord's 401 "Invalid
 * Webhook Token".
 */

export const GUILD = '900000000000000001';
export const CHANNEL = '900000000000000002';
export const DM_CHANNEL = '900000000000000009';
export const APP_ID = '900000000000000003';
export const BOT = { id: '900000000000000004', username: 'svc', discriminator: '0', global_name: 'svc', avatar: null, bot: true };
export const ANA = { id: '900000000000000005', username: 'ana', discriminator: '0', global_name: 'Ana', avatar: null };
/** The role Discord makes for the bot when it joins a server (managed, tagged with its id): people often mention it instead of the bot. */
export const BOT_ROLE = '900000000000000010';
export const OTHER_BOT = { id: '900000000000000006', username: 'otherbot', discriminator: '0', global_name: null, avatar: null, bot: true };

export interface FakeMessage {
  id: string;
  channel_id: string;
  author: typeof BOT | typeof ANA | typeof OTHER_BOT;
  content: string;
  type: number;
  flags: number;
  /** For interaction replies: the token they belong to. */
  interaction_token?: string;
  /** For interaction replies: the interaction's id (Discord's `interaction_metadata.id`). */
  interaction_id?: string;
  /** A reply: the message it answers (`message_reference`). */
  reference?: FakeMessage;
  /** A reply that pings the author of the message it answers (Discord lists them in `mentions`). */
  pingsReplied?: boolean;
  deleted?: boolean;
  edits: number;
  /** When its author last edited it (Discord's `edited_timestamp`). */
  editedAt?: string;
  /** Link previews Discord added (`embeds`). */
  embeds?: Array<Record<string, unknown>>;
}

export interface RestCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  at: number;
  status: number;
}

interface Channel {
  id: string;
  type: number;
  /** None for a DM. */
  guild_id?: string;
  name: string;
  parent_id?: string;
  owner_id?: string;
}

const EPOCH = 1_420_070_400_000n;
const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60_000;

export class FakeDiscord {
  readonly calls: RestCall[] = [];
  readonly messages: FakeMessage[] = [];
  readonly channels = new Map<string, Channel>();
  readonly commands: Array<{ path: string; body: unknown }> = [];
  readonly interactionCallbacks: Array<{ id: string; token: string; type: number; at: number }> = [];
  /** Heartbeats received (each answered with HEARTBEAT_ACK). */
  heartbeats = 0;
  /** Short, so heartbeats happen during tests. */
  heartbeatIntervalMs = 400;
  /** The next PATCHes of messages get a 429 with this retry_after (seconds). */
  rateLimitEdits: number[] = [];
  /** When set, a channel's message sends and edits beyond this many per window get a 429. */
  sendLimit: { count: number; perMs: number } | null = null;
  readonly #sent = new Map<string, number[]>();
  /** While set, starting a thread gets this error (a 403 with 50013 Missing Permissions, a 502…). */
  threadError: { status: number; code: number; message: string } | null = null;
  /** While set, the bot's message sends get this error. */
  sendError: { status: number; code: number; message: string } | null = null;
  /** The next this many message sends are stored but answered 500 (the response was lost after Discord created the message). */
  sendsStoredThenFailed = 0;
  /** Nonces of created messages (Discord dedupes creates with `enforce_nonce`). */
  readonly #nonces = new Map<string, FakeMessage>();
  /** While set, the bot's message edits get this error. */
  editError: { status: number; code: number; message: string } | null = null;
  /** While set, the bot's message sends into threads get this error (it may start threads, not post in them). */
  threadSendError: { status: number; code: number; message: string } | null = null;
  /** The next this many reads of messages (history pages, a thread's starter) get a 429 with retry_after 1 s. */
  readRateLimits = 0;
  /** When set, the gateway closes the session with this code on IDENTIFY (4014: disallowed intents). */
  closeOnIdentify = 0;
  /** Interaction tokens Discord refuses from now on, whatever their age. */
  readonly refusedTokens = new Set<string>();
  readonly #tokenCreatedAt = new Map<string, number>();
  readonly #now: () => number;
  url = '';
  #server: http.Server;
  #wss = new WebSocketServer({ noServer: true });
  #sockets = new Set<Socket>();
  #clients = new Set<{ ws: WebSocket; seq: number }>();
  #lastId = 0n;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
    this.channels.set(CHANNEL, { id: CHANNEL, type: 0, guild_id: GUILD, name: 'general' });
    this.#server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => this.#rest(req, raw, res));
    });
    this.#server.on('connection', (s) => {
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
    this.#server.on('upgrade', (req, socket, head) => {
      if (!req.url?.startsWith('/gateway')) return socket.destroy();
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connect(ws));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const c of this.#clients) c.ws.terminate();
    this.#wss.close();
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((r) => this.#server.close(() => r()));
  }

  snowflake(): string {
    let id = (BigInt(Date.now()) - EPOCH) << 22n;
    if (id <= this.#lastId) id = this.#lastId + 1n;
    this.#lastId = id;
    return id.toString();
  }

  /** Messages in a channel (thread) as a person sees them now, oldest first. */
  shown(channelId: string): FakeMessage[] {
    return this.messages.filter((m) => m.channel_id === channelId && !m.deleted);
  }

  interactionReplies(token: string): FakeMessage[] {
    return this.messages.filter((m) => m.interaction_token === token && !m.deleted);
  }

  threads(): Channel[] {
    return [...this.channels.values()].filter((c) => c.type === 11);
  }

  callsTo(method: string, pattern: RegExp): RestCall[] {
    return this.calls.filter((c) => c.method === method && pattern.test(c.path));
  }

  // ---- what people do -------------------------------------------------------------------

  /** A person (or another bot) writes in a channel: stored, then dispatched as MESSAGE_CREATE. */
  userMessage(channelId: string, content: string, author: FakeMessage['author'] = ANA): FakeMessage {
    const m = this.#store({ channel_id: channelId, author, content });
    this.dispatch('MESSAGE_CREATE', { ...this.#wire(m), guild_id: GUILD, member: { roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 } });
    return m;
  }

  /** A person writes to the bot in a direct message (a DM channel, type 1, no guild). */
  dmMessage(content: string, author: FakeMessage['author'] = ANA): FakeMessage {
    if (!this.channels.has(DM_CHANNEL)) this.channels.set(DM_CHANNEL, { id: DM_CHANNEL, type: 1, name: '' });
    const m = this.#store({ channel_id: DM_CHANNEL, author, content });
    // Discord names a DM's channel type in the event (clients have no DM channel cached).
    this.dispatch('MESSAGE_CREATE', { ...this.#wire(m), channel_type: 1 });
    return m;
  }

  /**
   * A person replies (Discord's Reply, type 19) to `to`, pinging its author unless `ping` is false:
   * stored, then dispatched with `message_reference` and `referenced_message` as Discord does.
   */
  replyTo(to: FakeMessage, content: string, options: { ping?: boolean; author?: FakeMessage['author'] } = {}): FakeMessage {
    const m = this.#store({ channel_id: to.channel_id, author: options.author ?? ANA, content, type: 19, reference: to, pingsReplied: options.ping !== false });
    this.dispatch('MESSAGE_CREATE', { ...this.#wire(m), guild_id: GUILD, member: { roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 } });
    return m;
  }

  /**
   * A person edits their message: its content changes and Discord dispatches MESSAGE_UPDATE with
   * the whole message, `edited_timestamp` set (in a DM with `channel_type`, in a server with `guild_id` and `member`).
   */
  editMessage(m: FakeMessage, content: string): void {
    m.content = content;
    m.editedAt = new Date(Date.now() + m.edits).toISOString();
    m.edits++;
    this.#dispatchUpdate(m);
  }

  /**
   * Discord adds a link preview to a person's message: MESSAGE_UPDATE with the embed, the content
   * and `edited_timestamp` unchanged (no edit of the person's).
   */
  unfurl(m: FakeMessage, url: string): void {
    m.embeds = [...(m.embeds ?? []), { type: 'link', url, title: 'Kalshi', description: 'Trade on the outcome of events' }];
    this.#dispatchUpdate(m);
  }

  /** Dispatches MESSAGE_UPDATE for `m` as it is now (again, as a gateway may after a resume). */
  redeliverUpdate(m: FakeMessage): void {
    this.#dispatchUpdate(m);
  }

  #dispatchUpdate(m: FakeMessage): void {
    const where = this.channels.get(m.channel_id)?.type === 1 ? { channel_type: 1 } : { guild_id: GUILD, member: { roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 } };
    this.dispatch('MESSAGE_UPDATE', { ...this.#wire(m), ...where });
  }

  /** The gateway delivers a person's message again (as after a resume). */
  redeliver(m: FakeMessage): void {
    this.dispatch('MESSAGE_CREATE', { ...this.#wire(m), guild_id: GUILD, member: { roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 } });
  }

  /** Someone runs `/svc <sub> …`: dispatched as INTERACTION_CREATE; returns its token. */
  /** `/svc <sub>` run in the channel, or in a thread (`channelId`, a thread the bot has seen). */
  slashCommand(sub: string, options: Record<string, string>, channelId = CHANNEL, command = 'svc'): { id: string; token: string } {
    const id = this.snowflake();
    const token = `token-${id}`;
    this.#tokenCreatedAt.set(token, this.#now());
    this.dispatch('INTERACTION_CREATE', {
      id,
      application_id: APP_ID,
      type: 2,
      token,
      version: 1,
      guild_id: GUILD,
      channel_id: channelId,
      channel: channelId === CHANNEL ? { id: CHANNEL, type: 0, guild_id: GUILD, name: 'general' } : { id: channelId, type: 11, guild_id: GUILD, parent_id: CHANNEL, name: 'thread' },
      member: { user: ANA, roles: [], permissions: '2248473465835073', joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 },
      app_permissions: '2248473465835073',
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': GUILD },
      context: 0,
      data: {
        id: '900000000000000099',
        name: command,
        type: 1,
        guild_id: GUILD,
        options: [{ type: 1, name: sub, options: Object.entries(options).map(([name, value]) => ({ type: 3, name, value })) }],
      },
    });
    return { id, token };
  }

  /** Discord ends every gateway session with `code` (4004 authentication failed…). */
  closeSessions(code: number): void {
    for (const c of this.#clients) c.ws.close(code, 'closed by Discord');
  }

  /**
   * A thread of the bot's started on a person's message, created while the bot was not looking
   * (before a restart): returns the starter message. Announced with THREAD_CREATE unless `announce` is false.
   */
  existingThread(content: string, announce = true): FakeMessage {
    const starter = this.#store({ channel_id: CHANNEL, author: ANA, content });
    const thread: Channel = { id: starter.id, type: 11, guild_id: GUILD, name: 'earlier', parent_id: CHANNEL, owner_id: BOT.id };
    this.channels.set(thread.id, thread);
    if (announce) this.dispatch('THREAD_CREATE', { ...this.#threadJson(thread), newly_created: true });
    return starter;
  }

  /** A person starts a thread on `message` (its id is the thread's), as a person may on one of the bot's answers. */
  personStartsThread(message: FakeMessage, name = 'talk'): Channel {
    const thread: Channel = { id: message.id, type: 11, guild_id: GUILD, name, parent_id: message.channel_id, owner_id: ANA.id };
    this.channels.set(thread.id, thread);
    this.#markHasThread(message.id);
    this.dispatch('THREAD_CREATE', { ...this.#threadJson(thread), newly_created: true });
    return thread;
  }

  /** Discord flags a message a thread was started on (HAS_THREAD). */
  #markHasThread(messageId: string): void {
    const m = this.messages.find((x) => x.id === messageId);
    if (m) m.flags |= 32;
  }

  /** A message of the bot's, as if it had posted it earlier. */
  botMessage(channelId: string, content: string): FakeMessage {
    return this.#store({ channel_id: channelId, author: BOT, content });
  }

  dispatch(t: string, d: unknown): void {
    for (const c of this.#clients) c.ws.send(JSON.stringify({ op: 0, t, s: ++c.seq, d }));
  }

  // ---- gateway --------------------------------------------------------------------------

  #connect(ws: WebSocket): void {
    const client = { ws, seq: 0 };
    this.#clients.add(client);
    ws.on('close', () => this.#clients.delete(client));
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs }, s: null, t: null }));
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { op: number; d: unknown };
      if (frame.op === 1) {
        this.heartbeats++;
        ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      }
      if (frame.op === 2 && this.closeOnIdentify) return ws.close(this.closeOnIdentify, 'Disallowed intent(s).');
      if (frame.op === 2) this.#ready(client);
    });
  }

  #ready(client: { ws: WebSocket; seq: number }): void {
    const send = (t: string, d: unknown) => client.ws.send(JSON.stringify({ op: 0, t, s: ++client.seq, d }));
    send('READY', {
      v: 10,
      user: BOT,
      guilds: [{ id: GUILD, unavailable: true }],
      session_id: 'session-1',
      resume_gateway_url: `${this.url.replace('http', 'ws')}/gateway`,
      application: { id: APP_ID, flags: 1 << 19 },
      private_channels: [],
      shard: [0, 1],
    });
    const channels = [...this.channels.values()].filter((c) => c.type !== 11).map((c) => ({ ...c, position: 0, permission_overwrites: [], nsfw: false, topic: null, last_message_id: null, rate_limit_per_user: 0 }));
    send('GUILD_CREATE', {
      id: GUILD,
      name: 'Test guild',
      icon: null,
      owner_id: ANA.id,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: [
        { id: GUILD, name: '@everyone', color: 0, hoist: false, position: 0, permissions: '2248473465835073', managed: false, mentionable: false, flags: 0 },
        { id: BOT_ROLE, name: 'svc', color: 0, hoist: false, position: 1, permissions: '2248473465835073', managed: true, mentionable: true, flags: 0, tags: { bot_id: BOT.id } },
      ],
      emojis: [],
      stickers: [],
      features: [],
      mfa_level: 0,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      preferred_locale: 'en-US',
      public_updates_channel_id: null,
      nsfw_level: 0,
      premium_progress_bar_enabled: false,
      joined_at: new Date().toISOString(),
      large: false,
      unavailable: false,
      member_count: 2,
      members: [],
      channels,
      threads: this.threads().map((t) => this.#threadJson(t)),
      voice_states: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    });
  }

  // ---- REST -----------------------------------------------------------------------------

  #store(m: Pick<FakeMessage, 'channel_id' | 'author' | 'content'> & Partial<FakeMessage>): FakeMessage {
    const message: FakeMessage = { id: this.snowflake(), type: 0, flags: 0, edits: 0, ...m };
    this.messages.push(message);
    return message;
  }

  #wire(m: FakeMessage): Record<string, unknown> {
    return {
      id: m.id,
      channel_id: m.channel_id,
      author: m.author,
      content: m.content,
      timestamp: new Date(Number((BigInt(m.id) >> 22n) + EPOCH)).toISOString(),
      edited_timestamp: m.editedAt ?? (m.edits ? new Date().toISOString() : null),
      tts: false,
      mention_everyone: false,
      // As Discord does: the users the content mentions, so clients can show their names.
      mentions: [BOT, ANA, OTHER_BOT].filter((u) => new RegExp(`<@!?${u.id}>`).test(m.content) || (m.pingsReplied && m.reference?.author.id === u.id)),
      mention_roles: [...m.content.matchAll(/<@&(\d+)>/g)].map((r) => r[1]),
      attachments: [],
      embeds: m.embeds ?? [],
      pinned: false,
      type: m.type,
      flags: m.flags,
      components: [],
      ...(m.interaction_token ? { webhook_id: APP_ID, application_id: APP_ID } : {}),
      ...(m.interaction_id ? { interaction_metadata: { id: m.interaction_id, type: 2, user: ANA, authorizing_integration_owners: { '0': GUILD } } } : {}),
      ...(m.reference ? { message_reference: { type: 0, message_id: m.reference.id, channel_id: m.reference.channel_id, guild_id: GUILD }, referenced_message: this.#wire(m.reference) } : {}),
    };
  }

  #threadJson(t: Channel) {
    return {
      ...t,
      last_message_id: null,
      rate_limit_per_user: 0,
      flags: 0,
      member_count: 1,
      message_count: 0,
      total_message_sent: 0,
      thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false, create_timestamp: new Date().toISOString() },
    };
  }

  #rest(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const u = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(u.pathname).replace(/^\/api\/v10/, '');
    const method = req.method ?? 'GET';
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const reply = (status: number, json?: unknown, headers: Record<string, string> = {}) => {
      this.calls.push({ method, path, query: u.searchParams, body, at: this.#now(), status });
      res.writeHead(status, json === undefined ? headers : { 'content-type': 'application/json', ...headers });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    };
    const notFound = (code: number, message: string) => reply(404, { code, message });
    let m: RegExpExecArray | null;

    if (method === 'GET' && path === '/gateway/bot') {
      return reply(200, { url: `${this.url.replace('http', 'ws')}/gateway`, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 } });
    }
    if (method === 'PUT' && /^\/applications\/\d+(\/guilds\/\d+)?\/commands$/.test(path)) {
      this.commands.push({ path, body });
      return reply(200, (body as unknown as Array<Record<string, unknown>>).map((c, i) => ({ id: String(1000 + i), application_id: APP_ID, version: '1', ...c })));
    }
    if ((m = /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/.exec(path)) && method === 'POST') {
      const [, parent, messageId] = m;
      if (this.threadError) return reply(this.threadError.status, { code: this.threadError.code, message: this.threadError.message });
      if (this.channels.has(messageId!)) return reply(400, { code: 160004, message: 'A thread has already been created for this message' });
      const thread: Channel = { id: messageId!, type: 11, guild_id: GUILD, name: String(body.name), parent_id: parent!, owner_id: BOT.id };
      this.channels.set(thread.id, thread);
      this.#markHasThread(messageId!);
      this.dispatch('THREAD_CREATE', { ...this.#threadJson(thread), newly_created: true });
      return reply(201, this.#threadJson(thread));
    }
    if ((m = /^\/channels\/(\d+)\/typing$/.exec(path)) && method === 'POST') return reply(204);
    if ((m = /^\/channels\/(\d+)$/.exec(path)) && method === 'PATCH') {
      const c = this.channels.get(m[1]!);
      if (!c) return notFound(10003, 'Unknown Channel');
      if (typeof body.name === 'string') c.name = body.name;
      if (c.type === 11) this.dispatch('THREAD_UPDATE', this.#threadJson(c));
      return reply(200, c.type === 11 ? this.#threadJson(c) : { ...c, position: 0, permission_overwrites: [] });
    }
    if ((m = /^\/channels\/(\d+)$/.exec(path)) && method === 'GET') {
      const c = this.channels.get(m[1]!);
      if (!c) return notFound(10003, 'Unknown Channel');
      return reply(200, c.type === 11 ? this.#threadJson(c) : { ...c, position: 0, permission_overwrites: [] });
    }
    const readLimited = (): boolean => {
      if (method !== 'GET' || this.readRateLimits <= 0) return false;
      this.readRateLimits--;
      reply(429, { message: 'You are being rate limited.', retry_after: 1, global: false }, { 'retry-after': '1', 'x-ratelimit-scope': 'user' });
      return true;
    };
    if ((m = /^\/channels\/(\d+)\/messages$/.exec(path))) {
      const channelId = m[1]!;
      if (!this.channels.has(channelId)) return notFound(10003, 'Unknown Channel');
      if (method === 'POST') {
        if (this.sendError) return reply(this.sendError.status, { code: this.sendError.code, message: this.sendError.message });
        if (this.threadSendError && this.channels.get(channelId)!.type === 11) return reply(this.threadSendError.status, { code: this.threadSendError.code, message: this.threadSendError.message });
        const limited = this.#overSendLimit(channelId);
        if (limited) return reply(...limited);
        const nonce = body.enforce_nonce === true && body.nonce !== undefined ? String(body.nonce) : null;
        const seen = nonce ? this.#nonces.get(`${channelId}:${nonce}`) : undefined;
        if (seen) return reply(200, this.#wire(seen));
        const message = this.#store({ channel_id: channelId, author: BOT, content: String(body.content ?? ''), flags: Number(body.flags ?? 0) });
        if (nonce) this.#nonces.set(`${channelId}:${nonce}`, message);
        this.dispatch('MESSAGE_CREATE', { ...this.#wire(message), ...(this.channels.get(channelId)!.type === 1 ? { channel_type: 1 } : { guild_id: GUILD }) });
        if (this.sendsStoredThenFailed > 0) {
          this.sendsStoredThenFailed--;
          return reply(500, { message: '500: Internal Server Error', code: 0 });
        }
        return reply(200, this.#wire(message));
      }
      if (method === 'GET') {
        if (readLimited()) return;
        const before = u.searchParams.get('before');
        const limit = Number(u.searchParams.get('limit') ?? 50);
        const list = this.shown(channelId)
          .filter((x) => !before || BigInt(x.id) < BigInt(before))
          .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
          .slice(0, limit);
        return reply(200, list.map((x) => this.#wire(x)));
      }
    }
    if ((m = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path))) {
      const found = this.messages.find((x) => x.id === m![2] && x.channel_id === m![1] && !x.deleted);
      if (!found) return notFound(10008, 'Unknown Message');
      if (method === 'GET') return readLimited() ? undefined : reply(200, this.#wire(found));
      if (method === 'DELETE') {
        found.deleted = true;
        return reply(204);
      }
      if (method === 'PATCH') {
        if (this.editError) return reply(this.editError.status, { code: this.editError.code, message: this.editError.message });
        const limited = this.#overSendLimit(found.channel_id);
        if (limited) return reply(...limited);
        return this.#edit(found, body, reply);
      }
    }
    if ((m = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path)) && method === 'POST') {
      const [, id, token] = m;
      const type = Number(body.type);
      this.interactionCallbacks.push({ id: id!, token: token!, type, at: this.#now() });
      const data = (body.data ?? {}) as { content?: string; flags?: number };
      this.#store({ channel_id: CHANNEL, author: BOT, content: type === 4 ? String(data.content ?? '') : '', flags: Number(data.flags ?? 0) | (type === 5 ? 128 : 0), interaction_token: token!, interaction_id: id! });
      return reply(204);
    }
    if ((m = /^\/webhooks\/\d+\/([^/]+)/.exec(path)) && !this.#tokenValid(m[1]!)) return reply(401, { message: 'Invalid Webhook Token', code: 50027 });
    if ((m = /^\/webhooks\/(\d+)\/([^/]+)$/.exec(path)) && method === 'POST') {
      const interactionId = this.interactionCallbacks.find((c) => c.token === m![2])?.id;
      const message = this.#store({ channel_id: CHANNEL, author: BOT, content: String(body.content ?? ''), flags: Number(body.flags ?? 0), interaction_token: m[2]!, interaction_id: interactionId });
      return reply(200, this.#wire(message));
    }
    if ((m = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/.exec(path))) {
      const [, , token, which] = m;
      const replies = this.interactionReplies(token!);
      const found = which === '@original' ? replies[0] : replies.find((x) => x.id === which);
      if (!found) return notFound(10008, 'Unknown Message');
      if (method === 'DELETE') {
        found.deleted = true;
        return reply(204);
      }
      if (method === 'PATCH') return this.#edit(found, body, reply);
      if (method === 'GET') return reply(200, this.#wire(found));
    }
    return notFound(0, `fake discord: no route for ${method} ${path}`);
  }

  /** A 429 reply when a send or edit in `channelId` now would pass `sendLimit`; otherwise counts it. */
  #overSendLimit(channelId: string): [number, unknown, Record<string, string>] | null {
    if (!this.sendLimit) return null;
    const { count, perMs } = this.sendLimit;
    const now = this.#now();
    const recent = (this.#sent.get(channelId) ?? []).filter((at) => at > now - perMs);
    this.#sent.set(channelId, recent);
    if (recent.length < count) {
      recent.push(now);
      return null;
    }
    const retryAfter = (recent[0]! + perMs - now) / 1000;
    return [429, { message: 'You are being rate limited.', retry_after: retryAfter, global: false }, { 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': 'user' }];
  }

  #tokenValid(token: string): boolean {
    const createdAt = this.#tokenCreatedAt.get(token);
    return !this.refusedTokens.has(token) && (createdAt === undefined || this.#now() < createdAt + INTERACTION_TOKEN_LIFETIME_MS);
  }

  #edit(found: FakeMessage, body: Record<string, unknown>, reply: (status: number, json?: unknown, headers?: Record<string, string>) => void): void {
    const limited = this.rateLimitEdits.shift();
    if (limited !== undefined) {
      return reply(429, { message: 'You are being rate limited.', retry_after: limited, global: false }, { 'retry-after': String(limited), 'x-ratelimit-scope': 'user' });
    }
    if (typeof body.content === 'string') found.content = body.content;
    if (body.flags !== undefined) found.flags = Number(body.flags);
    found.flags &= ~128; // no longer "thinking"
    found.edits++;
    return reply(200, this.#wire(found));
  }
}
