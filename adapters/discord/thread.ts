import { MessageType, type AnyThreadChannel, type Message } from 'discord.js';
import type { Turn } from '../shared/api-client.js';
import { STREAMING_MARK } from './texts.js';

const MAX_MESSAGES = 200;

/** A message's text as a turn: the bot's mention removed. */
export function plainContent(message: Message, botId: string): string {
  return message.content.replace(new RegExp(`<@!?${botId}>`, 'g'), '').trim();
}

/**
 * The conversation in one of the bot's threads before `beforeId`, oldest first: the message the
 * thread started from, people's replies (`user`), the bot's answers (`assistant`); status lines,
 * unfinished answers and other bots left out.
 */
export async function threadTurns(thread: AnyThreadChannel, beforeId: string, botId: string): Promise<Turn[]> {
  const messages: Message[] = [];
  const starter = await thread.fetchStarterMessage().catch(() => null);
  if (starter) messages.push(starter);
  let before = beforeId;
  const replies: Message[] = [];
  while (replies.length < MAX_MESSAGES) {
    const page = await thread.messages.fetch({ limit: 100, before, cache: false });
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
    const content = ours ? m.content : plainContent(m, botId);
    if (!content) continue;
    const role = ours ? 'assistant' : 'user';
    const last = turns.at(-1);
    if (last?.role === role) last.content += `\n\n${content}`;
    else turns.push({ role, content });
  }
  return turns;
}
