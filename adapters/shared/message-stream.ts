import { randomUUID } from 'node:crypto';
import { sleep, type Clock } from './clock.js';
import { withFencesClosed } from './fences.js';
import { splitMessage } from './split.js';
import { ThrottledEditor, type EditErrors } from './throttled-editor.js';

/** Thrown by a post whose stream was discarded before it got its slot: not a failure. */
const DISCARDED = new Error('discarded before it was posted');

/** Where a stream's messages go: a Slack thread, a Discord channel, an interaction's replies. */
/** A message's key for deduplicated creates: Discord takes a nonce of up to 25 characters. */
export const postKey = (): string => randomUUID().replace(/-/g, '').slice(0, 25);

export interface MessageSink<H> {
  /**
   * `key` is the same for every attempt at one message, so a platform that can deduplicate
   * creates (Discord's nonce) makes it once even when a retry follows a lost answer.
   */
  post(text: string, key?: string): Promise<H>;
  edit(handle: H, text: string): Promise<void>;
  remove(handle: H): Promise<void>;
  /**
   * Waits until the platform's rate budget, shared by every answer, allows one more post (no
   * handle) or one more edit of `handle`. Called before the text to send is chosen.
   */
  waitForSlot?(handle?: H): Promise<void>;
}

export interface MessageStreamOptions extends EditErrors {
  /** Largest text of one message. */
  limit: number;
  intervalMs: number;
  clock: Clock;
  onError?(err: unknown): void;
  /** Ends the last message that landed when a later part could not be posted (in the platform's markup). */
  cutNote?: string;
  /** Opens the answer posted anew when someone deleted a message of it while it streamed (in the platform's markup). */
  goneNote?: string;
  /** A message of the answer was deleted while it streamed: it is posted anew at the end (for the log). */
  onGone?(): void;
}

const CUT_NOTE = '⚠️ The rest of this answer could not be posted. Please ask again to see it whole.';
const GONE_NOTE = '⚠️ The message this answer was being written into was deleted, so here it is again.';

interface Posted<H> {
  handle: H;
  editor: ThrottledEditor;
  /** Someone deleted it: never edited again, its part posted anew when the answer ends. */
  gone?: boolean;
}

const POST_ATTEMPTS = 5;
/** A part of the final text is tried longer, as a final edit is: missing, the answer would look complete without its end. */
const FINAL_POST_ATTEMPTS = 8;
/** Splitting a long text is not free: do it at most this often while text streams in. */
const SYNC_INTERVAL_MS = 200;

/** A text, or how to build it (built only when the stream next syncs). */
export type Text = string | (() => string);

/**
 * A growing text shown as a series of messages: the text is split at the platform's limit;
 * each part lives in its own message, edited through its own ThrottledEditor; parts beyond the
 * posted messages are posted in order. Every post and edit waits for a slot of the sink's rate
 * budget first. `finish` makes every part land.
 */
export class MessageStream<H> {
  readonly #messages: Posted<H>[] = [];
  #wanted: string[] = [];
  #latest: Text | null = null;
  #lastSync = Number.NEGATIVE_INFINITY;
  #syncTimer: unknown = null;
  #posting: Promise<void> | null = null;
  #finished = false;
  #broken = false;

  constructor(
    private readonly sink: MessageSink<H>,
    private readonly options: MessageStreamOptions,
  ) {}

  get handles(): H[] {
    return this.#messages.map((m) => m.handle);
  }

  /** Shows `text` (the whole text so far); edits and posts follow the throttling rules. */
  show(text: Text): void {
    if (this.#finished) return;
    this.#latest = text;
    if (this.#syncTimer !== null) return;
    const { clock } = this.options;
    const wait = this.#lastSync + SYNC_INTERVAL_MS - clock.now();
    if (wait <= 0) this.#resplit();
    else {
      this.#syncTimer = clock.setTimeout(() => {
        this.#syncTimer = null;
        this.#resplit();
      }, wait);
    }
  }

  #resplit(): void {
    if (this.#finished || this.#latest === null) return;
    this.#lastSync = this.options.clock.now();
    const text = typeof this.#latest === 'function' ? this.#latest() : this.#latest;
    this.#wanted = splitMessage(text, this.options.limit).map((c) => c.text);
    this.#sync();
  }

  #stopSyncing(): void {
    this.#finished = true;
    if (this.#syncTimer !== null) this.options.clock.clearTimeout(this.#syncTimer);
    this.#syncTimer = null;
  }

  #sync(): void {
    for (let i = 0; i < this.#wanted.length; i++) {
      const posted = this.#messages[i];
      if (posted) {
        posted.editor.update(this.#wanted[i]!);
        continue;
      }
      if (!this.#posting && !this.#broken) {
        const synced = this.#wanted[i]!;
        this.#posting = this.#post(() => this.#wanted[i] ?? synced)
          .then(() => undefined)
          .catch((err) => {
            if (err === DISCARDED) return;
            this.#broken = true;
            this.options.onError?.(err);
          })
          .finally(() => {
            this.#posting = null;
            if (!this.#finished) this.#sync();
          });
      }
      return;
    }
  }

  #discarded = false;

  /** Streams into `handle` from now on (the next part of the answer), which shows `initial`. */
  #track(handle: H, initial: { text: string; at: number }): Posted<H> {
    const posted: Posted<H> = {
      handle,
      editor: new ThrottledEditor({
        apply: (t) => this.sink.edit(handle, t),
        takeSlot: async () => this.sink.waitForSlot?.(handle),
        intervalMs: this.options.intervalMs,
        clock: this.options.clock,
        initial,
        retryAfterMs: this.options.retryAfterMs,
        isPermanent: this.options.isPermanent,
        onError: this.options.onError,
        // A message that cannot be edited breaks the stream, like a post that failed: no more posts while it streams.
        // (One that was deleted is posted anew, with what follows it, when the answer ends.)
        onBroken: (err) => {
          this.#broken = true;
          if (this.options.isGone?.(err)) posted.gone = true;
        },
      }),
    };
    this.#messages.push(posted);
    return posted;
  }

  #adopting: Promise<void> | null = null;

  /**
   * Writes this stream into messages that exist already (an earlier answer's, answered again):
   * the first becomes the stream's first message, the others are removed. Call before showing anything.
   */
  adopt(handles: H[]): void {
    const [first, ...others] = handles;
    if (first === undefined) return;
    // What it shows is not this stream's: the first text shown replaces it, at once.
    this.#track(first, { text: '\u0000', at: Number.NEGATIVE_INFINITY });
    this.#adopting = (async () => {
      for (const other of others) await this.sink.remove(other).catch((err) => this.options.onError?.(err));
    })();
  }

  /** Posts a part; its text is read once the post has its slot, so the newest version goes out. */
  async #post(part: () => string, attempts = POST_ATTEMPTS): Promise<Posted<H>> {
    const { clock } = this.options;
    const key = postKey();
    for (let failures = 0, rateLimited = 0; ; ) {
      await this.sink.waitForSlot?.();
      // Discarded while it waited for its slot (the answer streams natively now): posted, it would only be deleted.
      if (this.#discarded) throw DISCARDED;
      const text = part();
      try {
        const handle = await this.sink.post(text, key);
        return this.#track(handle, { text, at: clock.now() });
      } catch (err) {
        const wait = this.options.retryAfterMs(err);
        if (wait !== null && ++rateLimited < 30) {
          await sleep(clock, wait);
          continue;
        }
        if (this.options.isPermanent(err) || ++failures >= attempts) throw err;
        await sleep(clock, Math.min(30_000, 1000 * 2 ** (failures - 1)));
      }
    }
  }

  /**
   * Shows `text` for good: every part lands (each final edit retried until it does), missing
   * parts are posted, surplus messages removed. Resolves false if some part could not be shown.
   */
  async finish(text: string): Promise<boolean> {
    this.#stopSyncing();
    await this.#posting;
    await this.#adopting;
    let parts = splitMessage(text, this.options.limit).map((c) => c.text);
    let landed = true;
    let reposted = false;
    for (let i = 0; i < parts.length; i++) {
      const posted = this.#messages[i];
      if (posted && !posted.gone) {
        const shown = await posted.editor.finish(parts[i]!);
        // (Deleted just now, by the final edit's answer: posted anew below, as one deleted earlier.)
        if (shown || !posted.gone) {
          landed = shown && landed;
          continue;
        }
      }
      // A message deleted while the answer streamed: that part and the rest posted anew, in order, under a note saying why.
      if (posted?.gone && !reposted) {
        reposted = true;
        parts = await this.#postedAnew(i, parts);
      }
      try {
        await this.#post(() => parts[i]!, FINAL_POST_ATTEMPTS);
      } catch (err) {
        this.options.onError?.(err);
        // Never a half answer that looks whole: the last message that landed says the rest is missing.
        const last = this.#messages[i - 1];
        if (last) await last.editor.finish(this.#withCutNote(parts[i - 1]!));
        return false;
      }
    }
    for (const extra of this.#messages.splice(parts.length)) {
      extra.editor.close();
      await this.sink.remove(extra.handle).catch((err) => this.options.onError?.(err));
    }
    return landed;
  }

  /**
   * The parts to show once the message of part `from` was deleted: that message and those after
   * it are dropped (the bot's own removed, so the answer reads in order), and the text from there
   * is split again under the note saying why it comes again.
   */
  async #postedAnew(from: number, parts: string[]): Promise<string[]> {
    this.options.onGone?.();
    for (const later of this.#messages.splice(from)) {
      later.editor.close();
      if (!later.gone) await this.sink.remove(later.handle).catch((err) => this.options.onError?.(err));
    }
    const rest = parts.slice(from).join('\n');
    return [...parts.slice(0, from), ...splitMessage(`${this.options.goneNote ?? GONE_NOTE}\n\n${rest}`, this.options.limit).map((c) => c.text)];
  }

  /** `part` ending with the cut note, shortened at a line or word break if both would not fit in one message. */
  #withCutNote(part: string): string {
    const note = `\n\n${this.options.cutNote ?? CUT_NOTE}`;
    let kept = part;
    if (kept.length + note.length + 8 > this.options.limit) {
      const room = Math.max(0, this.options.limit - note.length - 8);
      const cut = kept.slice(0, room);
      const at = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
      kept = `${cut.slice(0, at > room / 2 ? at : room).trimEnd()} …`;
    }
    return `${withFencesClosed(kept)}${note}`;
  }

  /** Removes every message posted so far (another way of showing the answer took over). */
  async discard(): Promise<void> {
    this.#discarded = true;
    this.#stopSyncing();
    await this.#posting;
    for (const posted of this.#messages.splice(0)) {
      posted.editor.close();
      await this.sink.remove(posted.handle).catch((err) => this.options.onError?.(err));
    }
  }
}
