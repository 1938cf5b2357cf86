import { describe, expect, it } from 'vitest';
import { GONE_NOTE, STREAMING_MARK } from '../../../adapters/discord/texts.js';
import { citationFooter } from '../../../adapters/shared/citations.js';
import { CITATIONS } from '../helpers/agents.js';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { BOT, CHANNEL } from './fake-discord.js';

// Someone deletes the bot's answer message while the answer streams into it (the edit answers
// 404 Unknown Message, code 10008): the adapter stops editing it and posts the answer again in the
// thread under a note saying why, as the Slack adapter does.

const harness = discordHarnessPerTest();

const LINK = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec';
const botTexts = (channel: string) => harness.h.botTexts(channel);

describe('Discord: the answer message deleted while it streams', () => {
  it('the answer comes again as a new message in the thread, whole, under a note; the deleted one is tried once', async () => {
    const h = await harness.start();
    const pasted = h.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h.discord.threads()).toHaveLength(1));
    await until(() => expect(botTexts(pasted.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const before = botTexts(pasted.id).length;
    h.discord.userMessage(pasted.id, 'feed: slow');
    h.log.feed.text('First words');
    await until(() => expect(botTexts(pasted.id).at(-1)).toBe(`First words${STREAMING_MARK}`));
    const answer = h.discord.shown(pasted.id).findLast((m) => m.author.id === BOT.id)!;
    answer.deleted = true; // by a user
    h.log.feed.text(' and more');
    await until(() => expect(h.discord.calls.some((c) => c.method === 'PATCH' && c.status === 404)).toBe(true));
    h.log.feed.text(' and the end [1].');
    h.log.feed.done(CITATIONS.slice(0, 1));
    await until(() => expect(botTexts(pasted.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const texts = botTexts(pasted.id);
    expect(texts.slice(before)).toEqual([`${GONE_NOTE}\n\nFirst words and more and the end [1].${citationFooter(CITATIONS.slice(0, 1), 'discord')}`]);
    expect(h.discord.calls.filter((c) => c.method === 'PATCH' && c.status === 404)).toHaveLength(1);
  });
});
