import { formatElapsed } from '../shared/clock.js';
import { EXAMPLE_EVENT_URL } from '../shared/kalshi-links.js';
import { escapeMrkdwn, toMrkdwn } from '../shared/mrkdwn.js';
import type { Problem } from '../shared/problems.js';

/** What the Slack adapter says, in one place. */

/** Help and usage lines are mrkdwn: `<` and `>` must be escaped even inside code spans. */
export const HELP = [
  '*svc: research answers with sources*',
  '• `/svc ask &lt;question&gt;`: ask anything about markets, companies and filings; the answer arrives in a thread.',
  `• \`/svc report &lt;Kalshi event link&gt;\`: a research report on a prediction-market event (e.g. ${EXAMPLE_EVENT_URL}).`,
  '• Mention me with a question or a Kalshi link, or send me a DM. Reply in my thread to follow up.',
  '• `/svc link &lt;api key&gt;`: use your own svc account (its plan and credits) instead of the workspace\'s; `/svc unlink` to stop.',
  '• `/svc help`: this message.',
].join('\n');

/** Shown while nothing has arrived yet. */
export function statusLine(what: string, elapsedMs: number): string {
  const slow = elapsedMs >= 20_000 ? ' New reports can take a few minutes; I will post it here as soon as it is ready.' : '';
  return `:hourglass_flowing_sand: ${what}… (${formatElapsed(elapsedMs)})${slow}`;
}

/** Marks text that is still growing. */
export const STREAMING_MARK = ' :writing_hand:';

/** Opens an answer posted anew because someone deleted its message while it was being written. */
export const GONE_NOTE = ':warning: _The message this answer was being written into was deleted, so here it is again._';

/** The note under a failed answer: the text so far stays above it. */
export function problemNote(problem: Problem, interrupted: boolean): string {
  const lead = interrupted ? 'The answer was interrupted before it finished: ' : '';
  return `:warning: ${lead}${toMrkdwn(problem.message)}`;
}

/** The same note in standard Markdown, for native streams. */
export function problemNoteMarkdown(problem: Problem, interrupted: boolean): string {
  const lead = interrupted ? 'The answer was interrupted before it finished: ' : '';
  return `⚠️ ${lead}${problem.message}`;
}

/**
 * Slack text (as slash commands and events deliver it) to plain text for the API: links lose
 * their wrappers, the bot's own mention goes, entities are decoded.
 */
export function slackToPlain(text: string, botUserId?: string, options: { keepLines?: boolean } = {}): string {
  const plain = text
    .replace(/<@([A-Z0-9]+)(\|[^>]*)?>/g, (_m, id: string, label?: string) => (id === botUserId ? '' : label ? `@${label.slice(1)}` : `@${id}`))
    // A channel link carries its name, unless Slack left the label out (`<#C1>`, `<#C1|>`): then its id.
    .replace(/<#([A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, name?: string) => `#${name || id}`)
    // <!here>, <!subteam^S1|@team> (a user group), <!date^…|Feb 18>: the label Slack shows, or @name.
    .replace(/<!([a-z]+)(?:\^[^|>]*)?(?:\|([^>]*))?>/g, (_m, name: string, label?: string) => (label && name !== 'here' && name !== 'channel' && name !== 'everyone' ? label : `@${name}`))
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]*)>/g, (_m, url: string, label: string) => {
      // An e-mail address or phone number reads as itself, without its scheme.
      const shown = contactAddress(url) ?? url;
      return label && !url.endsWith(label) && label !== shown ? `${label} (${shown})` : shown;
    })
    .replace(/<(tel:[^|>]+)(?:\|([^>]*))?>/g, (_m, url: string, label?: string) => {
      const shown = contactAddress(url) ?? url;
      // "+1 555 0100" of tel:+15550100 is the number as written.
      const digits = (x: string) => x.replace(/[^\d+]/g, '');
      if (label && digits(label) === digits(shown)) return label;
      return label && label !== url ? `${label} (${shown})` : shown;
    })
    .replace(/<((?:https?|mailto):[^>]+)>/g, (_m, url: string) => contactAddress(url) ?? url)
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  if (options.keepLines) return plain;
  // Runs of spaces within a line become one; the lines stay (a pasted table, list or code keeps its shape).
  return plain.replace(/(\S)[ \t]+/g, '$1 ').replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').trim();
}

/** The address of a `mailto:` or `tel:` link as people write it (`ana@example.com`, `+1 555 0100`); null for other links. */
function contactAddress(url: string): string | null {
  const m = /^(?:mailto|tel):(.*)$/i.exec(url);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!;
  }
}

/** Said privately to the person who ran a command when its first message could not be posted in the channel. */
export function cannotPostNote(code: string | null): string {
  switch (code) {
    case 'not_in_channel':
    case 'channel_not_found':
      return 'I cannot post in this channel yet: invite me with `/invite @svc`, or ask me in a direct message.';
    case 'restricted_action':
      return 'I am not allowed to post in this channel (only some members may post here, as in an announcement channel), so I could not start your answer. Ask me in a direct message or in another channel, or ask an admin to let me post here.';
    case 'is_archived':
      return 'This channel is archived, so I cannot post in it and could not start your answer. Ask me in a direct message or in another channel.';
    case null:
      return 'Something went wrong between me and Slack while posting in this channel, so I could not start your answer. Please try again in a minute.';
    default:
      return `Slack refused my message in this channel (error \`${escapeMrkdwn(code)}\`), so I could not start your answer. Please try again, or ask me in a direct message.`;
  }
}

/**
 * The most characters of a question the root message of `/svc ask` repeats (escaped): Slack
 * refuses a message's text with `msg_too_long` from about 4,000 characters, and the root is
 * posted before anything else, so a long pasted question would stop the answer from starting.
 */
export const ROOT_QUESTION_LIMIT = 3000;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The start of `question` whose escaped form fits in `limit`, cut between words when one ends near the cut, never inside a character. */
function shortened(question: string, limit: number): string | null {
  if (escapeMrkdwn(question).length <= limit) return null;
  let used = 0;
  let end = 0;
  for (const { segment, index } of graphemes.segment(question)) {
    used += escapeMrkdwn(segment).length;
    if (used > limit) break;
    end = index + segment.length;
  }
  const kept = question.slice(0, end);
  const space = kept.search(/\s\S*$/);
  return (space > end * 0.8 ? kept.slice(0, space) : kept).trimEnd();
}

export function askedRoot(userId: string, question: string): string {
  const short = shortened(question, ROOT_QUESTION_LIMIT);
  if (short === null) return `<@${userId}> asked: ${escapeMrkdwn(question)}`;
  return `<@${userId}> asked: ${escapeMrkdwn(short)} … _(shortened here; svc has the whole question)_`;
}

export function reportRoot(userId: string, url: string, title: string): string {
  return `<@${userId}> asked for a report on <${url}|${escapeMrkdwn(title)}>`;
}
