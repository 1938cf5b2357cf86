import type { WebClient } from '@slack/web-api';
import type { AnswerPresenter } from '../shared/answer.js';
import { citationFooter, type Citation } from '../shared/citations.js';
import type { Clock } from '../shared/clock.js';
import { fenceAfter, fenceReopener, withFencesClosed, type OpenFence } from '../shared/fences.js';
import type { Logger } from '../shared/log.js';
import { MessageStream, type MessageSink } from '../shared/message-stream.js';
import { escapeMrkdwn, guardMentions, toMrkdwn } from '../shared/mrkdwn.js';
import type { Problem } from '../shared/problems.js';
import { TableHoldback } from '../shared/tables.js';
import type { SlackBudget, SlackMethod } from './budget.js';
import { slackEditErrors } from './errors.js';
import { NativeStream, type NativeResult } from './native-stream.js';
import { GONE_NOTE, STREAMING_MARK, problemNote, problemNoteMarkdown, statusLine } from './texts.js';

/** Slack's `text` is cut around 4,000 characters in practice; stay under it. */
export const SLACK_MESSAGE_LIMIT = 3500;

/** Whether native streaming is worth trying; switched off for the process when Slack says it is not available. */
export class NativeStreaming {
  #enabled: boolean;

  constructor(
    enabled: boolean,
    private readonly log: Logger,
  ) {
    this.#enabled = enabled;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  latchOff(code: string): void {
    if (!this.#enabled) return;
    this.#enabled = false;
    this.log.warn({ code }, 'native streaming is not available to this app; posting and editing messages from now on');
  }
}

/** Messages in a thread; `slot` waits for a call of a method to fit the shared rate budget. */
export function slackThreadSink(client: WebClient, channel: string, threadTs: string, slot: (method: SlackMethod) => Promise<void>): MessageSink<string> {
  return {
    async post(text) {
      const posted = await client.chat.postMessage({ channel, thread_ts: threadTs, text, unfurl_links: false, unfurl_media: false });
      if (!posted.ts) throw new Error('chat.postMessage returned no ts');
      return posted.ts;
    },
    async edit(ts, text) {
      await client.chat.update({ channel, ts, text });
    },
    async remove(ts) {
      await client.chat.delete({ channel, ts });
    },
    waitForSlot: (ts) => slot(ts === undefined ? 'chat.postMessage' : 'chat.update'),
  };
}

export interface SlackAnswerOptions {
  client: WebClient;
  channel: string;
  threadTs: string;
  userId: string;
  teamId: string;
  clock: Clock;
  intervalMs: number;
  budget: SlackBudget;
  native: NativeStreaming;
  log: Logger;
  /** What the status line says is under way ("Researching your question"). */
  what: string;
  /**
   * What the answer is about (a report's event), named above a refusal that replaces it: a
   * thread holding the reports of several links would otherwise not say which one was refused.
   */
  subject?: string;
  /**
   * Messages of an earlier answer to write this one into (an edited question answered again): the
   * first is edited from the start (no native stream, which only makes new messages), the others removed.
   */
  adopt?: string[];
}

interface Fallback {
  stream: MessageStream<string>;
  /** Where in the text the fallback's messages begin (after what a native stream showed). */
  from: number;
  fence: OpenFence | null;
  /** The natively streamed message was deleted: the fallback opens with the note saying why the text comes again. */
  again?: boolean;
}

/**
 * One answer in a Slack thread. A status message shows the elapsed time until text arrives;
 * then the answer streams natively when Slack allows it (the status message is removed), or
 * by posting and editing messages (the status message becomes the answer's first part). A
 * native stream that fails hands the rest of the text to the fallback.
 */
export class SlackAnswer implements AnswerPresenter {
  readonly #holdback = new TableHoldback();
  #consumed = 0;
  /** The answer's Markdown with tables made readable; grows append-only. */
  #text = '';
  readonly #placeholder: MessageStream<string>;
  #native: NativeStream | null = null;
  readonly #natives: NativeStream[] = [];
  #fallback: Fallback | null = null;
  #ending = false;
  /** Waits for a call of `method` in this answer's channel to fit the shared rate budget. */
  readonly #slot = (method: SlackMethod) => this.o.budget.slot(method, this.o.teamId, this.o.channel);

  constructor(private readonly o: SlackAnswerOptions) {
    this.#placeholder = this.#stream();
    if (o.adopt?.length) this.#placeholder.adopt(o.adopt);
  }

  /** The messages showing the answer, oldest first (once it has ended). */
  get messageTs(): string[] {
    const fallback = this.#fallback && this.#fallback.stream !== this.#placeholder ? this.#fallback.stream.handles : [];
    return [...this.#placeholder.handles, ...this.#natives.flatMap((n) => n.timestamps), ...fallback];
  }

  #stream(): MessageStream<string> {
    return new MessageStream(slackThreadSink(this.o.client, this.o.channel, this.o.threadTs, this.#slot), {
      limit: SLACK_MESSAGE_LIMIT,
      intervalMs: this.o.intervalMs,
      clock: this.o.clock,
      ...slackEditErrors,
      onError: (err) => this.o.log.warn({ err, channel: this.o.channel }, 'slack message update failed'),
      goneNote: GONE_NOTE,
      onGone: () => this.o.log.info({ channel: this.o.channel, threadTs: this.o.threadTs }, 'an answer message was deleted while the answer was written; posting the answer again in the thread'),
    });
  }

  waiting(elapsedMs: number): void {
    if (!this.#native && !this.#fallback) this.#placeholder.show(statusLine(this.o.what, elapsedMs));
  }

  progress(markdown: string): void {
    this.#text += this.#holdback.push(markdown.slice(this.#consumed));
    this.#consumed = markdown.length;
    if (!this.#text.trim()) return; // only a table so far, still being held back
    if (!this.#native && !this.#fallback) this.#begin();
    if (this.#fallback) this.#showFallback();
    else this.#native!.update(guardMentions(this.#text));
  }

  #begin(): void {
    if (!this.o.native.enabled || this.o.adopt?.length) {
      this.#fallback = { stream: this.#placeholder, from: 0, fence: null };
      return;
    }
    const native = new NativeStream({
      client: this.o.client,
      channel: this.o.channel,
      threadTs: this.o.threadTs,
      recipientUserId: this.o.userId,
      recipientTeamId: this.o.teamId,
      clock: this.o.clock,
      intervalMs: this.o.intervalMs,
      slot: this.#slot,
      log: this.o.log,
      onStarted: () => void this.#placeholder.discard(),
    });
    this.#native = native;
    this.#natives.push(native);
    void native.result.then((result) => {
      if (!result.ok && !this.#ending) {
        this.#fallBack(result);
        this.#showFallback();
      }
    });
  }

  #fallBack(result: NativeResult): void {
    if (result.failure?.latch) this.o.native.latchOff(result.failure.code);
    else this.o.log.info({ code: result.failure?.code, channel: this.o.channel }, 'native streaming failed for this message; posting and editing instead');
    this.#native = null;
    // A streamed message someone deleted: its text, from where it began, is posted again under a note.
    if (result.failure?.code === 'message_not_found') {
      const from = Math.min(result.messageFrom ?? 0, this.#text.length);
      this.o.log.info({ channel: this.o.channel, threadTs: this.o.threadTs }, 'an answer message was deleted while the answer was written; posting the answer again in the thread');
      this.#fallback = { stream: result.started ? this.#stream() : this.#placeholder, from, fence: from > 0 ? fenceAfter(this.#text.slice(0, from)) : null, again: true };
      return;
    }
    const from = Math.min(result.sent, this.#text.length);
    this.#fallback = { stream: result.started ? this.#stream() : this.#placeholder, from, fence: from > 0 ? result.fence : null };
  }

  /** The fallback's share of the text, as mrkdwn; `closed`: with a code block still being written closed. */
  #fallbackText(closed = false): string {
    const f = this.#fallback!;
    const rest = (f.fence ? fenceReopener(f.fence) : '') + this.#text.slice(f.from);
    const trimmed = f.from > 0 ? rest.replace(/^\s+/, '') : rest;
    const text = toMrkdwn(closed ? withFencesClosed(trimmed) : trimmed);
    return f.again ? `${GONE_NOTE}\n\n${text}` : text;
  }

  /** The text so far, and the mark that more is coming: on a line of its own after a code block, not inside it. */
  #showFallback(): void {
    this.#fallback!.stream.show(() => {
      const text = this.#fallbackText(true);
      return text.endsWith('```') ? `${text}\n${STREAMING_MARK.trimStart()}` : text + STREAMING_MARK;
    });
  }

  async #end(nativeTail: string, fallbackTail: string): Promise<boolean> {
    this.#ending = true;
    // Sources or a problem note after an unclosed code block would read as code.
    this.#text = withFencesClosed(this.#text + this.#holdback.end());
    if (!this.#native && !this.#fallback) {
      if (this.#text.trim()) this.#begin();
      else this.#fallback = { stream: this.#placeholder, from: 0, fence: null };
    }
    if (this.#native) {
      const result = await this.#native.finish(guardMentions(this.#text + nativeTail));
      if (result.ok) return true;
      this.#fallBack(result);
    }
    const body = this.#fallbackText();
    const final = body.trim() ? body.trimEnd() + fallbackTail : fallbackTail.trimStart();
    return this.#fallback!.stream.finish(final.trim() ? final : '_No answer came back. Please try again._');
  }

  done(markdown: string, citations: Citation[]): Promise<boolean> {
    this.progress(markdown);
    return this.#end(citationFooter(citations, 'markdown'), citationFooter(citations, 'slack'));
  }

  failed(markdown: string, problem: Problem, interrupted: boolean): Promise<boolean> {
    this.progress(markdown);
    const named = !markdown.trim() && this.o.subject ? `*${escapeMrkdwn(this.o.subject)}*\n` : '';
    return this.#end(`\n\n${problemNoteMarkdown(problem, interrupted)}`, `\n\n${named}${problemNote(problem, interrupted)}`);
  }
}
