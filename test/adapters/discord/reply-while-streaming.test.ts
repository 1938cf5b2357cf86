import { describe, expect, it } from 'vitest';
import { STREAMING_MARK } from '../../../adapters/discord/texts.js';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { ANA, BOT, CHANNEL } from './fake-discord.js';

/**
 * A reply to svc's answer outside its threads (a `/svc ask` reply in a channel, an answer to a
 * mention in a thread of people's) made while that answer was still streaming did not wait for it:
 * its conversation was not recorded yet, so the reply was ignored (or asked without the answer).
 * It now waits, as a follow-up inside svc's threads does, and carries the answer whole.
 */
const harness = discordHarnessPerTest();

const long = Array.from({ length: 4 }, (_, i) => `Paragraph ${i}: ${'the market moved on the news. '.repeat(4)}`).join('\n\n');

describe('Discord: a reply to an answer still being written', () => {
  for (const ping of [false, true]) {
    it(`(/svc ask in a channel, ${ping ? 'pinging svc' : 'without the ping'}) waits for the answer and carries it whole`, async () => {
      const h = await harness.start();
      const { token } = h.discord.slashCommand('ask', { question: 'feed: is a cut priced in?' });
      h.log.feed.text(long);
      await until(() => expect(h.discord.interactionReplies(token)[0]?.content ?? '').toContain(STREAMING_MARK));
      const answer = h.discord.interactionReplies(token)[0]!;
      const reply = h.discord.replyTo(answer, 'and of a hike?', { ping });
      await new Promise((r) => setTimeout(r, 400));
      expect(h.log.requests).toHaveLength(1); // not asked yet: the answer it replies to is still being written
      h.log.feed.text(' The end.');
      h.log.feed.done([]);
      await until(() => expect(h.log.requests).toHaveLength(2));
      await h.bot.idle();
      expect(h.log.requests.at(-1)!.messages).toEqual([
        { role: 'user', content: 'feed: is a cut priced in?' },
        { role: 'assistant', content: `${long} The end.` },
        { role: 'user', content: 'and of a hike?' },
      ]);
      expect(h.discord.threads().map((t) => t.id)).toEqual([reply.id]);
    });
  }

  it('(an answer to a mention in a thread of people\'s) waits the same way', async () => {
    const h = await harness.start();
    const talk = h.discord.userMessage(CHANNEL, 'lunch talk', { ...ANA });
    h.discord.personStartsThread(talk);
    h.discord.userMessage(talk.id, `<@${BOT.id}> feed: will CPI print hot?`);
    h.log.feed.text(long);
    await until(() => expect(h.botTexts(talk.id)[0] ?? '').toContain(STREAMING_MARK));
    const answer = h.discord.shown(talk.id).find((m) => m.author.id === BOT.id)!;
    h.discord.replyTo(answer, 'why?', { ping: false });
    await new Promise((r) => setTimeout(r, 400));
    expect(h.log.requests).toHaveLength(1);
    h.log.feed.done([]);
    await until(() => expect(h.log.requests).toHaveLength(2));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'feed: will CPI print hot?' },
      { role: 'assistant', content: long },
      { role: 'user', content: 'why?' },
    ]);
  });
});
