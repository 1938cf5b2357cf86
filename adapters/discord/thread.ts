import { MessageType, cleanContent, type AnyThreadChannel, type Message, type TextBasedChannel } from 'discord.js';
import type { Turn } from '../shared/api-client.js';
import type { Clock } from '../shared/clock.js';
import { joinSplitParts } from '../shared/fences.js';
import { withRetries } from '../shared/retry.js';
import { discordEditErrors, discordIsPermanent } from './errors.js';
import { STREAMING_MARK } from './texts.js';

const MAX_MESSAGES = 200;

/**
 * A message's text as a turn: the bot's mention removed, and the others' mentions, channels, roles
 * and custom emoji as Discord shows them (`@ana`, `#general`, `:party:`), not as raw ids the
 * research agent cannot read.
 */
export function plainContent(message: Message, botId: string): string {
  // Mentioning the bot's own role (Discord makes one, named like the bot) is mentioning the bot.
  const ownRoles = message.mentions.roles.filter((r) => r.tags?.botId === botId).map((r) => r.id);
  const text = ownRoles.length ? message.content.replace(new RegExp(`<@&(?:${ownRoles.join('|')})>`, 'g'), '') : message.content;
  return readableText(text, message.channel, botId);
}

/** Whether `message` mentions the bot: the bot itself, or the role Discord made for it in the server. */
export function mentionsBot(message: Message, botId: string): boolean {
  return message.mentions.users.has(botId) || message.mentions.roles.some((r) => r.tags?.botId === botId);
}

/** `text` written in `channel` (a message, a command's option) as plainContent makes it. */
export function readableText(text: string, channel: TextBasedChannel | null, botId: string): string {
  const withoutBot = text.replace(new RegExp(`<@!?${botId}>`, 'g'), '');
  return (channel ? cleanContent(withoutBot, channel) : withoutBot).trim();
}

/**
 * What the bot's message says of the answer: without the sources footer (or the part of it that
 * went on into this message) and without a ⚠️ note on how the answer ended.
 */
export function answerPart(content: string): string {
  const paragraphs = content.split('\n\n');
  // A refused report is named on the line above its note.
  if (/^(?:\*\*[^\n]+\*\*\n)?⚠️ /.test(paragraphs.at(-1) ?? '')) paragraphs.pop();
  const sources = paragraphs.findLastIndex((p) => p.startsWith('**Sources**\n') || p === '**Sources**');
  if (sources >= 0) paragraphs.splice(sources);
  const text = paragraphs.join('\n\n').trim();
  // A footer longer than one message goes on in the next: one `[n] …` source per line.
  return /^\[\d+\] .*(\n\[\d+\] .*)*$/.test(text) ? '' : text;
}

/**
 * The conversation in one of the bot's threads before `beforeId`, as Discord shows it, oldest
 * first: the message the thread started from, people's replies (`user`), the bot's answers
 * (`assistant`, without their sources and notes); status lines, unfinished answers and other bots
 * left out. Rate limits are waited out (a deleted starter message is no turn); other errors throw.
 */
export async function threadTurns(thread: AnyThreadChannel, beforeId: string, botId: string, clock: Clock): Promise<Turn[]> {
  const messages: Message[] = [];
  const starter = await withRetries(() => thread.fetchStarterMessage(), discordEditErrors, clock).catch((err) => {
    if (discordIsPermanent(err)) return null;
    throw err;
  });
  if (starter) messages.push(starter);
  let before = beforeId;
  const replies: Message[] = [];
  while (replies.length < MAX_MESSAGES) {
    const page = await withRetries(() => thread.messages.fetch({ limit: 100, before, cache: false }), discordEditErrors, clock);
    if (!page.size) break;
    replies.push(...page.values());
    before = page.lastKey()!;
    if (page.size < 100) break;
  }
  messages.push(...replies.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)));

  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.type !== MessageType.Default && m.type !== MessageType.Reply) continue;
    const ours = m.author.id === botId;
    if (!ours && m.author.bot) continue;
    if (ours && (m.content.startsWith('⏳') || m.content.endsWith(STREAMING_MARK))) continue;
    const content = ours ? answerPart(m.content) : plainContent(m, botId);
    if (!content) continue;
    const role = ours ? 'assistant' : 'user';
    const last = turns.at(-1);
    if (last?.role === role) last.content = role === 'assistant' ? joinSplitParts(last.content, content) : `${last.content}\n\n${content}`;
    else turns.push({ role, content });
  }
  return turns;
}
