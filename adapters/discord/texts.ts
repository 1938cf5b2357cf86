import type { AnswerView } from '../shared/answer.js';
import { citationFooter } from '../shared/citations.js';
import { formatElapsed } from '../shared/clock.js';
import { fenceAfterLine, withFencesClosed, type OpenFence } from '../shared/fences.js';
import { atxHeadings } from '../shared/headings.js';
import { EXAMPLE_EVENT_URL } from '../shared/kalshi-links.js';
import { convertTables } from '../shared/tables.js';

/** What the Discord adapter says, in one place. */

export const HELP = [
  '**svc: research answers with sources**',
  `• Paste a Kalshi event link (like <${EXAMPLE_EVENT_URL}>) in a channel: I start a thread on your message and write a report there. Reply in the thread to follow up.`,
  '• Mention me with a question, or send me a DM: I answer in a thread on your message (or in the DM).',
  '• `/svc ask question:` asks anything about markets, companies and filings.',
  '• `/svc report url:` writes a report on a Kalshi event.',
  "• `/svc link key:` uses your own svc account (its plan and credits) instead of the server's; `/svc unlink` stops.",
].join('\n');

export const STREAMING_MARK = ' ▍';

/** Opens an answer posted anew because someone deleted its message while it was being written. */
export const GONE_NOTE = '⚠️ *The message this answer was being written into was deleted, so here it is again.*';

/** What a command's reply says once the answer has moved on to channel messages. */
export const CONTINUED_BELOW = '⤵️ *Continued below: a reply to a command can only be edited for 15 minutes.*';

export function statusLine(what: string, elapsedMs: number): string {
  const slow = elapsedMs >= 20_000 ? ' New reports can take a few minutes; it will appear here as soon as it is ready.' : '';
  return `⏳ ${what}… (${formatElapsed(elapsedMs)})${slow}`;
}

/**
 * Markdown as Discord renders it: tables as code blocks, `~~~` fences as ``` and underlined
 * headings as `#` ones (Discord renders only those), and a code block still open closed, so that while an answer streams a `# comment` in it
 * is not shown as a heading.
 */
export function forDiscord(markdown: string): string {
  let fence: OpenFence | null = null;
  const lines = atxHeadings(markdown).split('\n').map((line) => {
    const next = fenceAfterLine(line, fence);
    const tilde = (!fence && next?.marker.startsWith('~')) || (fence?.marker.startsWith('~') && !next);
    fence = next;
    return tilde ? line.replace(/~{3,}/, '```') : line;
  });
  return convertTables(withFencesClosed(lines.join('\n')));
}

/**
 * How an answer looks on Discord: see forDiscord; sources as `[n] [name](<url>)` (no link
 * previews). `subject`: what the answer is about (a report's event), named in a refusal that
 * replaces it, since a thread may hold the reports of several links.
 */
export function discordView(what: string, subject?: string): AnswerView {
  return {
    status: (elapsed) => statusLine(what, elapsed),
    interim: (markdown) => forDiscord(markdown) + STREAMING_MARK,
    final: (markdown, citations) => {
      // An answer ending in a newline would leave two blank lines above its sources.
      const text = forDiscord(markdown).trimEnd() + citationFooter(citations, 'discord');
      return text.trim() ? text : '*No answer came back. Please try again.*';
    },
    failed: (markdown, problem, interrupted) => {
      const note = `⚠️ ${interrupted ? 'The answer was interrupted before it finished: ' : ''}${problem.message}`;
      if (markdown.trim()) return `${forDiscord(markdown).trimEnd()}\n\n${note}`;
      return subject ? `**${subject}**\n${note}` : note;
    },
  };
}

/** The reply to a pasted link when no thread could be started for its report. */
export function noThreadNote(channelId: string, problem: { missingPermissions: boolean; what: string }, subject: 'report' | 'question' = 'report'): string {
  const [forWhat, again] = subject === 'report' ? ['this report', 'post the link again'] : ['your question', 'ask again'];
  if (problem.missingPermissions) {
    return `I could not start a thread for ${forWhat}: I need the **Create Public Threads** and **Send Messages in Threads** permissions in <#${channelId}>. Ask a server admin to give me both there, then ${again}.`;
  }
  return `I could not start a thread for ${forWhat} (${problem.what}). Please ${again} in a little while; if it keeps happening, tell a server admin.`;
}

/** The reply to a pasted link (or a question) when its thread was started but the answer could not be posted in it. */
export function cannotPostNote(channelId: string, problem: { missingPermissions: boolean; what: string }, subject: 'report' | 'question' = 'report'): string {
  const [forWhat, again] = subject === 'report' ? ['this report', 'post the link again'] : ['your question', 'ask again'];
  if (problem.missingPermissions) {
    return `I started a thread for ${forWhat} but cannot write in it: I need the **Send Messages in Threads** permission in <#${channelId}>. Ask a server admin to give it to me there, then ${again}.`;
  }
  return `I started a thread for ${forWhat} but could not write in it (${problem.what}). Please ${again} in a little while; if it keeps happening, tell a server admin.`;
}

/** A thread name (1–100 characters) for the events of one message. */
export function threadName(titles: string[]): string {
  // A question may run over lines; a name is one line.
  const first = (titles[0] ?? '').replace(/\s+/g, ' ').trim() || 'Report';
  const name = titles.length > 1 ? `${first} and ${titles.length - 1} more` : first;
  if (name.length <= 100) return name;
  // Cut between characters (never inside an emoji or a surrogate pair).
  let kept = '';
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(name)) {
    if (kept.length + segment.length > 99) break;
    kept += segment;
  }
  return `${kept.trimEnd()}…`;
}
