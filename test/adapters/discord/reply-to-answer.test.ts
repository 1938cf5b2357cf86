import { describe, expect, it } from 'vitest';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { ANA, BOT, CHANNEL, type FakeMessage } from './fake-discord.js';

/**
 * A person replies (Discord's message reference) to svc's answer in a channel, the reply of a
 * `/svc ask`: the reply continues that answer's conversation, in the answer's thread if someone
 * started one on it, else in a thread on the reply (adapters8).
 */

const harness = discordHarnessPerTest();

const answerOf = (q: string) => `Answer to "${q}" [1].`;

/** `/svc ask` in the channel; resolves with the answer's message once it is written. */
async function askInChannel(question: string): Promise<FakeMessage> {
  const { token } = harness.h.discord.slashCommand('ask', { question });
  await until(() => expect(harness.h.discord.interactionReplies(token)[0]?.content ?? '').toContain('**Sources**'));
  await harness.h.bot.idle();
  return harness.h.discord.interactionReplies(token)[0]!;
}

describe('Discord: a reply to svc\'s answer in a channel', () => {
  for (const ping of [true, false]) {
    it(`(${ping ? 'pinging svc' : 'without the ping'}) is answered in a thread on the reply, with the question and answer before it; the thread goes on from there`, async () => {
      const h = await harness.start();
      const answer = await askInChannel('what are the odds of a Fed cut?');
      const reply = h.discord.replyTo(answer, 'and of a hike?', { ping });
      await until(() => expect(h.botTexts(reply.id).at(-1) ?? '').toContain('**Sources**'));
      await h.bot.idle();
      expect(h.discord.threads().map((t) => t.id)).toEqual([reply.id]);
      expect(h.log.requests.at(-1)!.messages).toEqual([
        { role: 'user', content: 'what are the odds of a Fed cut?' },
        { role: 'assistant', content: answerOf('what are the odds of a Fed cut?') },
        { role: 'user', content: 'and of a hike?' },
      ]);
      // Nothing was posted in the channel beside the command's reply.
      expect(h.discord.shown(CHANNEL).filter((m) => m.author.id === BOT.id)).toHaveLength(1);
      h.discord.userMessage(reply.id, 'and a hold?');
      await until(() => expect(h.botTexts(reply.id)).toHaveLength(2));
      await until(() => expect(h.botTexts(reply.id).at(-1)).toContain('**Sources**'));
      await h.bot.idle();
      expect(h.log.requests.at(-1)!.messages).toEqual([
        { role: 'user', content: 'what are the odds of a Fed cut?' },
        { role: 'assistant', content: answerOf('what are the odds of a Fed cut?') },
        { role: 'user', content: 'and of a hike?' },
        { role: 'assistant', content: answerOf('and of a hike?') },
        { role: 'user', content: 'and a hold?' },
      ]);
    });
  }

  it('is answered in the thread someone started on the answer, when there is one', async () => {
    const h = await harness.start();
    const answer = await askInChannel('is CPI above 3%?');
    h.discord.personStartsThread(answer);
    const reply = h.discord.replyTo(answer, 'why?', { ping: false });
    await until(() => expect(h.botTexts(answer.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.discord.threads().map((t) => t.id)).toEqual([answer.id]);
    expect(h.botTexts(reply.id)).toEqual([]);
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'is CPI above 3%?' },
      { role: 'assistant', content: answerOf('is CPI above 3%?') },
      { role: 'user', content: 'why?' },
    ]);
  });

  it('a reply to a report from /svc report carries the report', async () => {
    const h = await harness.start();
    const link = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec';
    const { token } = h.discord.slashCommand('report', { url: link });
    await until(() => expect(h.discord.interactionReplies(token)[0]?.content ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const report = h.discord.interactionReplies(token)[0]!;
    const reply = h.discord.replyTo(report, 'is the hold underpriced?');
    await until(() => expect(h.botTexts(reply.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const sent = h.log.requests.at(-1)!;
    expect(sent.model.id).toBe('svc-agent');
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent.messages[0]!.content).toBe(link);
    expect(sent.messages[1]!.content).toMatch(/^# Report for fed-meeting/);
    expect(sent.messages[2]!.content).toBe('is the hold underpriced?');
  });

  it('in a thread of people\'s where svc was mentioned, a reply to its answer there goes on with that question and answer', async () => {
    const h = await harness.start();
    const talk = h.discord.userMessage(CHANNEL, 'lunch talk', { ...ANA });
    h.discord.personStartsThread(talk);
    h.discord.userMessage(talk.id, `<@${BOT.id}> is a cut priced in?`);
    await until(() => expect(h.botTexts(talk.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const answer = h.discord.shown(talk.id).findLast((m) => m.author.id === BOT.id)!;
    h.discord.replyTo(answer, 'by how much?', { ping: false });
    await until(() => expect(h.botTexts(talk.id)).toHaveLength(2));
    await until(() => expect(h.botTexts(talk.id).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.discord.threads().map((t) => t.id)).toEqual([talk.id]);
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'is a cut priced in?' },
      { role: 'assistant', content: answerOf('is a cut priced in?') },
      { role: 'user', content: 'by how much?' },
    ]);
  });

  it('a reply to another of svc\'s messages (no answer recorded), or to a person, without a ping, is left alone', async () => {
    const h = await harness.start();
    const note = h.discord.botMessage(CHANNEL, 'An old note of svc\'s.');
    const person = h.discord.userMessage(CHANNEL, 'hello all', { ...ANA });
    h.discord.replyTo(note, 'what?', { ping: false });
    h.discord.replyTo(person, 'hi', { ping: false });
    h.discord.dmMessage('sentinel question');
    await until(() => expect(h.log.requests).toHaveLength(1));
    await h.bot.idle();
    expect(h.discord.threads()).toEqual([]);
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['sentinel question']);
  });
});
