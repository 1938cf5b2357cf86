import type { WebClient } from '@slack/web-api';
import { sleep, type Clock } from '../shared/clock.js';
import { fenceAfter, fenceCloser, fenceReopener, type OpenFence } from '../shared/fences.js';
import type { Logger } from '../shared/log.js';
import { MIN_LIMIT, takeChunk } from '../shared/split.js';
import { tableHeaderAt } from '../shared/table-header.js';
import type { SlackMethod } from './budget.js';
import { slackErrorCode, slackRetryAfterMs } from './errors.js';

/**
 * Slack's native streaming (chat.startStream → appendStream → stopStream) for one answer.
 *
 * Streams are append-only, so text is only sent up to a safe point (whitespace outside a link
 * or code span) and a message is closed before Slack's 12,000-character markdown limit or its
 * five-minute stream lifetime; the answer then continues in a new streamed message, with an
 * open code block closed and reopened. When Slack refuses, `result` reports how far the text
 * got, so the post-and-edit fallback can take over from there.
 */

/** Errors that mean streaming is not available to this app at all: stop trying for the process. */
const LATCH_OFF = new Set(['feature_not_enabled', 'method_deprecated', 'unknown_method', 'not_allowed_token_type']);
/** Errors that end streaming for this message only. */
const THIS_MESSAGE = new Set(['invalid_thread_ts', 'message_not_in_streaming_state', 'ratelimited']);

/** The longest Retry-After a stream waits out; a longer one ends the stream (it expires after five minutes). */
const MAX_RATE_LIMIT_WAIT_MS = 30_000;

/** Under the 12,000-character markdown limit, with room for a closing fence. */
export const NATIVE_MESSAGE_BUDGET = 10_000;
/** Streams die after about five minutes; close them well before. */
export const NATIVE_MAX_AGE_MS = 4 * 60_000;

export interface NativeResult {
  ok: boolean;
  /** The first streamed message exists (so the placeholder was removed). */
  started: boolean;
  /** How much of the text Slack shows. */
  sent: number;
  /** The code block open at `sent`. */
  fence: OpenFence | null;
  /** Why streaming stopped, and whether it is off for the whole process. */
  failure?: { code: string; latch: boolean };
  /** Where in the text the message being streamed began (when someone deleted it, the text from there is gone). */
  messageFrom?: number;
}

export interface NativeStreamOptions {
  client: WebClient;
  channel: string;
  threadTs: string;
  recipientUserId: string;
  recipientTeamId: string;
  clock: Clock;
  /** Least time between two calls for this message. */
  intervalMs: number;
  /** Waits for a call of `method` to fit the rate budget shared with other answers. */
  slot?(method: SlackMethod): Promise<void>;
  log: Logger;
  budget?: number;
  maxAgeMs?: number;
  /** Called once the first streamed message exists. */
  onStarted?(): void;
}

/**
 * The longest prefix of `text` that ends at a word boundary (whitespace, or after a Chinese or
 * Japanese character: those languages put no spaces between words) outside an unfinished link or
 * code span.
 */
export function safePrefix(text: string): string {
  let end = lastWhitespaceEnd(text, text.length);
  while (end > 0) {
    const open = unfinishedConstruct(text.slice(0, end));
    if (open === -1) return text.slice(0, end);
    end = lastWhitespaceEnd(text, open);
  }
  // One huge token: send it rather than stall.
  return text.length > 2000 ? text : '';
}

const BREAK_AFTER = /[\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff01-\uff60]/u;

function lastWhitespaceEnd(text: string, before: number): number {
  for (let i = before - 1; i >= 0; i--) {
    // Not before a combining mark or variation selector that belongs to the character.
    if (BREAK_AFTER.test(text[i]!) && !/^\p{M}/u.test(text.slice(i + 1, i + 2))) return i + 1;
  }
  return 0;
}

/** Where an unfinished `[label](url`, `<…` or inline code span starts on the last line, or -1. */
function unfinishedConstruct(head: string): number {
  const lineStart = head.lastIndexOf('\n') + 1;
  const line = head.slice(lineStart);
  if (/^ {0,3}(`{3,}|~{3,})/.test(line)) return -1; // a fence line, whole lines only
  const starts: number[] = [];
  const link = /\[[^\]]*$|\[[^\]]*\]\([^)]*$/.exec(line);
  if (link) starts.push(link.index);
  const angle = /<[^>]*$/.exec(line);
  if (angle) starts.push(angle.index);
  const ticks = [...line.matchAll(/`/g)];
  if (ticks.length % 2 === 1) starts.push(ticks.at(-1)!.index);
  return starts.length ? lineStart + Math.min(...starts) : -1;
}

export class NativeStream {
  readonly result: Promise<NativeResult>;
  /** The messages streamed so far, oldest first. */
  readonly timestamps: string[] = [];
  #wanted = '';
  #final = false;
  #sent = 0;
  #ts: string | null = null;
  #started = false;
  #inMessage = 0;
  #startedAt = 0;
  /** Where in the text the message being streamed began. */
  #messageFrom = 0;
  #notBefore = 0;
  #wake: (() => void) | null = null;

  constructor(private readonly o: NativeStreamOptions) {
    this.result = this.#run();
  }

  /** The whole text so far (already in the form Slack should show). */
  update(text: string): void {
    if (this.#final) return;
    this.#wanted = text;
    this.#poke();
  }

  /** Sends the rest of `text` and stops the stream. */
  finish(text: string): Promise<NativeResult> {
    this.#wanted = text;
    this.#final = true;
    this.#poke();
    return this.result;
  }

  #poke(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  #outcome(ok: boolean, failure?: NativeResult['failure']): NativeResult {
    return { ok, started: this.#started, sent: this.#sent, fence: fenceAfter(this.#wanted.slice(0, this.#sent)), failure, messageFrom: this.#messageFrom };
  }

  async #run(): Promise<NativeResult> {
    const { clock } = this.o;
    for (let failures = 0; ; ) {
      await sleep(clock, this.#notBefore - clock.now());
      if (!this.#piece()) {
        if (this.#final) return this.#stop();
        await new Promise<void>((resolve) => (this.#wake = resolve));
        continue;
      }
      await this.o.slot?.(this.#ts ? 'chat.appendStream' : 'chat.startStream');
      try {
        // Text that arrived while this waited for its slot goes along.
        await this.#send(this.#piece());
        failures = 0;
      } catch (err) {
        const retryAfterMs = slackRetryAfterMs(err);
        const code = slackErrorCode(err) ?? (retryAfterMs !== null ? 'ratelimited' : null);
        this.o.log.warn({ err, code, channel: this.o.channel }, 'native streaming call failed');
        if (code && LATCH_OFF.has(code)) return this.#giveUp({ code, latch: true });
        // Someone deleted the message being streamed: no retry brings it back.
        if (code === 'message_not_found') return this.#giveUp({ code, latch: false });
        failures++;
        // A rate limit that says when to come back is waited out, up to three times in a row,
        // rather than ending the stream mid-sentence for the rest to be posted in another message.
        const waitable = retryAfterMs !== null && retryAfterMs <= MAX_RATE_LIMIT_WAIT_MS;
        if ((code && THIS_MESSAGE.has(code) && !waitable) || failures >= 3) return this.#giveUp({ code: code ?? 'request_failed', latch: false });
        this.#notBefore = clock.now() + (waitable ? retryAfterMs : 1000 * failures);
      }
    }
  }

  /** What may be sent now: everything once the text is final, else up to a safe point. */
  #piece(): string {
    const pending = this.#wanted.slice(this.#sent);
    return this.#final ? pending : safePrefix(pending);
  }

  /**
   * Streaming failed; the rest is posted instead. The message streamed so far is stopped first (a
   * fence it was inside closed), or Slack would show it still streaming until the stream expires.
   */
  async #giveUp(failure: NonNullable<NativeResult['failure']>): Promise<NativeResult> {
    const gone = failure.code === 'message_not_in_streaming_state' || failure.code === 'invalid_thread_ts' || failure.code === 'message_not_found';
    if (this.#ts && !gone) {
      const sent = this.#wanted.slice(0, this.#sent);
      const fence = fenceAfter(sent);
      await this.o.slot?.('chat.stopStream');
      try {
        await this.o.client.chat.stopStream({ channel: this.o.channel, ts: this.#ts, ...(fence ? { markdown_text: fenceCloser(sent, fence) } : {}) });
      } catch (err) {
        this.o.log.warn({ err, channel: this.o.channel }, 'chat.stopStream failed');
      }
      this.#ts = null;
    }
    return this.#outcome(false, failure);
  }

  async #stop(): Promise<NativeResult> {
    if (this.#ts) {
      await this.o.slot?.('chat.stopStream');
      try {
        await this.o.client.chat.stopStream({ channel: this.o.channel, ts: this.#ts });
      } catch (err) {
        // The text was appended already; a stream that cannot be stopped (expired) still shows it.
        this.o.log.warn({ err, channel: this.o.channel }, 'chat.stopStream failed');
        // Unless someone deleted the message: then its text is shown nowhere.
        if (slackErrorCode(err) === 'message_not_found') return this.#outcome(false, { code: 'message_not_found', latch: false });
      }
    }
    return this.#outcome(true);
  }

  async #send(piece: string): Promise<void> {
    const { client, channel, clock } = this.o;
    const budget = this.o.budget ?? NATIVE_MESSAGE_BUDGET;
    const fence = fenceAfter(this.#wanted.slice(0, this.#sent));
    if (this.#ts) {
      const room = budget - this.#inMessage;
      const expired = clock.now() - this.#startedAt > (this.o.maxAgeMs ?? NATIVE_MAX_AGE_MS);
      if (!expired && piece.length <= room) {
        await client.chat.appendStream({ channel, ts: this.#ts, markdown_text: piece });
        this.#advance(piece.length);
        return;
      }
      // This message is full or old: close it, with as much of the piece as fits at a good boundary.
      let head = '';
      let closing = fence ? fenceCloser(this.#wanted.slice(0, this.#sent), fence) : '';
      if (!expired && room >= MIN_LIMIT) {
        const cut = takeChunk(piece, room, fence, { reopen: false });
        head = cut.chunk.source;
        closing = cut.chunk.text;
      }
      // The slot taken for an append goes unused here: rare, once per full or old message.
      await this.o.slot?.('chat.stopStream');
      await client.chat.stopStream({ channel, ts: this.#ts, ...(closing ? { markdown_text: closing } : {}) });
      this.#advance(head.length);
      this.#ts = null;
      return;
    }
    // A table cut between two messages goes on under its header rows again.
    const header = tableHeaderAt(this.#wanted.slice(0, this.#sent), fence, piece);
    const reopen = (fence ? fenceReopener(fence) : '') + (header.length <= budget / 4 ? header : '');
    const first = reopen.length + piece.length <= budget ? piece : takeChunk(piece, budget, fence, { header }).chunk.source;
    this.#messageFrom = this.#sent;
    const started = await client.chat.startStream({
      channel,
      thread_ts: this.o.threadTs,
      recipient_user_id: this.o.recipientUserId,
      recipient_team_id: this.o.recipientTeamId,
      markdown_text: reopen + first,
    });
    this.#ts = started.ts ?? null;
    if (!this.#ts) throw new Error('chat.startStream returned no ts');
    this.timestamps.push(this.#ts);
    this.#startedAt = clock.now();
    this.#inMessage = reopen.length;
    this.#advance(first.length);
    if (!this.#started) {
      this.#started = true;
      this.o.onStarted?.();
    }
  }

  #advance(chars: number): void {
    this.#sent += chars;
    this.#inMessage += chars;
    this.#notBefore = this.o.clock.now() + this.o.intervalMs;
  }
}
