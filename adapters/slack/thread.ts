import type { WebClient } from '@slack/web-api';
import type { Turn } from '../shared/api-client.js';
import { joinSplitParts } from '../shared/fences.js';
import { slackToPlain } from './texts.js';

/** Marks the root message the bot posts for a slash command: it stands for the person's question. */
export const QUESTION_EVENT = 'svc_question';

interface ThreadMessage {
  ts?: string;
  text?: string;
  user?: string;
  bot_id?: string;
  subtype?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
  blocks?: Array<{ text?: unknown; elements?: unknown }>;
}

/** `a` is strictly earlier than `b` (Slack timestamps: "seconds.micros"). */
export function tsBefore(a: string, b: string): boolean {
  const [as, au = ''] = a.split('.');
  const [bs, bu = ''] = b.split('.');
  return Number(as) !== Number(bs) ? Number(as) < Number(bs) : au.padEnd(6, '0') < bu.padEnd(6, '0');
}

function textOf(m: ThreadMessage): string {
  if (m.text?.trim()) return m.text;
  // Natively streamed messages may carry their text in blocks only.
  return (m.blocks ?? []).map((b) => (typeof b.text === 'string' ? b.text : typeof (b.text as { text?: unknown })?.text === 'string' ? (b.text as { text: string }).text : '')).join('\n');
}

/**
 * What one of the bot's messages says of the answer: without the sources footer (or the part of
 * it that went on into this message) and without a warning note on how the answer ended, as
 * Discord's history gives it; natively streamed messages write both in Markdown.
 */
export function answerPart(text: string, botUserId: string | undefined): string {
  const paragraphs = text.split('\n\n');
  // In mrkdwn (edited messages) and in Markdown (natively streamed ones) alike; a refused report
  // among several is named on the line above its note.
  if (/^(?:\*[^*\n]+\*\n)?(?::warning:|⚠️) /.test(paragraphs.at(-1) ?? '')) paragraphs.pop();
  const sources = paragraphs.findLastIndex((p) => /^(?:\*Sources\*|\*\*Sources\*\*)(?:\n|$)/.test(p));
  if (sources >= 0) paragraphs.splice(sources);
  const kept = paragraphs.join('\n\n').trim();
  // A footer longer than one message goes on in the next: one `[n] …` source per line.
  if (/^\[\d+\] .*(\n\[\d+\] .*)*$/.test(kept)) return '';
  return slackToPlain(kept, botUserId, { keepLines: true });
}

export interface ThreadRef {
  channel: string;
  threadTs: string;
  /** Only messages before this one count (so a retried event rebuilds the same conversation). */
  beforeTs: string;
  botUserId: string | undefined;
  botId: string | undefined;
}

/**
 * The conversation so far in a thread, oldest first: the person's messages as `user` turns,
 * the bot's answers as `assistant` turns (its status lines and other bots left out).
 */
export async function threadTurns(client: WebClient, ref: ThreadRef, onPartial?: (err: unknown) => void): Promise<Turn[]> {
  const messages: ThreadMessage[] = [];
  let cursor: string | undefined;
  do {
    let page;
    try {
      page = await client.conversations.replies({ channel: ref.channel, ts: ref.threadTs, limit: 200, include_all_metadata: true, cursor });
    } catch (err) {
      // Slack lets non-Marketplace apps read one page (15 messages) a minute: a later page is
      // often refused. What was read (the thread's start, its question) is kept.
      if (!messages.length) throw err;
      onPartial?.(err);
      break;
    }
    messages.push(...((page.messages ?? []) as ThreadMessage[]));
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor);

  const turns: Turn[] = [];
  const add = (role: Turn['role'], content: string) => {
    if (!content.trim()) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content = role === 'assistant' ? joinSplitParts(last.content, content) : `${last.content}\n\n${content}`;
    else turns.push({ role, content });
  };
  for (const m of messages.sort((x, y) => (tsBefore(x.ts ?? '0', y.ts ?? '0') ? -1 : 1))) {
    if (!m.ts || !tsBefore(m.ts, ref.beforeTs)) continue;
    const ours = (ref.botId !== undefined && m.bot_id === ref.botId) || (ref.botUserId !== undefined && m.user === ref.botUserId);
    if (ours) {
      const question = m.metadata?.event_type === QUESTION_EVENT ? m.metadata.event_payload?.question : undefined;
      if (typeof question === 'string') add('user', question);
      else if (m.ts === ref.threadTs) add('user', slackToPlain(textOf(m), ref.botUserId).replace(/^@\S+ asked(?: for a report on)?:?\s*/, ''));
      else if (!textOf(m).startsWith(':hourglass_flowing_sand:')) add('assistant', answerPart(textOf(m), ref.botUserId));
      continue;
    }
    if (m.bot_id || (m.subtype && m.subtype !== 'thread_broadcast' && m.subtype !== 'file_share')) continue;
    add('user', slackToPlain(textOf(m), ref.botUserId));
  }
  return turns;
}
