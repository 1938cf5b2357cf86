import { describe, expect, it } from 'vitest';
import { STREAMING_MARK } from '../../../adapters/discord/texts.js';
import { turnSeq } from '../../../adapters/shared/store.js';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { BOT, CHANNEL, DM_CHANNEL } from './fake-discord.js';

/**
 * A person edits the question svc answered (MESSAGE_UPDATE with the new content and
 * `edited_timestamp`): svc answered the old text and ignored the edit. It now answers the latest
 * question again, in the messages of its answer, and the conversation goes on from the edited
 * question. Link previews Discord adds (MESSAGE_UPDATE with embeds, the content unchanged), edits
 * of a question later turns built on, and a redelivered edit are left alone.
 */

const harness = discordHarnessPerTest();
const answerOf = (q: string) => `Answer to "${q}" [1].`;
const botMessages = (channelId: string) => harness.h.discord.shown(channelId).filter((m) => m.author.id === BOT.id);

describe('Discord: an edited question', () => {
  it('asked with a mention in a channel: answered again in the same message of its thread, and the thread goes on from it', async () => {
    const h = await harness.start();
    const asked = h.discord.userMessage(CHANNEL, `<@${BOT.id}> what are the odds of a Fed cut in Dezember?`);
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const [answer] = botMessages(asked.id);
    h.discord.editMessage(asked, `<@${BOT.id}> what are the odds of a Fed cut in December?`);
    await until(() => expect(h.log.requests).toHaveLength(2));
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain(answerOf('what are the odds of a Fed cut in December?')));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages).toEqual([{ role: 'user', content: 'what are the odds of a Fed cut in December?' }]);
    // The thread, named after the question, is named after the edited one.
    expect(h.discord.threads().map((t) => [t.id, t.name])).toEqual([[asked.id, 'what are the odds of a Fed cut in December?']]);
    // The same message, edited: no second answer in the thread, nothing in the channel.
    expect(botMessages(asked.id).map((m) => m.id)).toEqual([answer!.id]);
    expect(h.botTexts(asked.id)[0]).toContain('**Sources**');
    expect(botMessages(CHANNEL)).toEqual([]);
    // A reply carries the edited question and its answer, not the first ones.
    h.discord.userMessage(asked.id, 'and of a hike?');
    await until(() => expect(h.log.requests).toHaveLength(3));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'what are the odds of a Fed cut in December?' },
      { role: 'assistant', content: answerOf('what are the odds of a Fed cut in December?') },
      { role: 'user', content: 'and of a hike?' },
    ]);
  });

  it('a link preview Discord adds (content unchanged) and a redelivered edit ask nothing again', async () => {
    const h = await harness.start();
    const asked = h.discord.userMessage(CHANNEL, `<@${BOT.id}> is https://example.com/fed right?`);
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const [answer] = botMessages(asked.id);
    const editsBefore = answer!.edits;
    h.discord.unfurl(asked, 'https://example.com/fed');
    h.discord.editMessage(asked, `<@${BOT.id}> is https://example.com/fed wrong?`);
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain(answerOf('is https://example.com/fed wrong?')));
    await h.bot.idle();
    h.discord.unfurl(asked, 'https://example.com/fed');
    h.discord.redeliverUpdate(asked);
    // A DM after them is answered: the events before it have been handled by then.
    h.discord.dmMessage('sentinel question');
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['is https://example.com/fed right?', 'is https://example.com/fed wrong?', 'sentinel question']);
    expect(botMessages(asked.id).map((m) => m.id)).toEqual([answer!.id]);
    expect(answer!.edits).toBeGreaterThan(editsBefore);
  });

  it('in svc\'s thread: the latest question is answered again with the turns before it; an earlier one is left alone', async () => {
    const h = await harness.start();
    const asked = h.discord.userMessage(CHANNEL, `<@${BOT.id}> odds of a cut?`);
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const followUp = h.discord.userMessage(asked.id, 'and of a hikke?');
    await until(() => expect(h.botTexts(asked.id)).toHaveLength(2));
    await until(() => expect(h.botTexts(asked.id).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    // The first question has a later turn: its edit is left alone.
    h.discord.editMessage(asked, `<@${BOT.id}> odds of a cut in March?`);
    h.discord.editMessage(followUp, 'and of a hike?');
    await until(() => expect(h.botTexts(asked.id).at(-1)).toContain(answerOf('and of a hike?')));
    await h.bot.idle();
    expect(h.log.requests).toHaveLength(3);
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'odds of a cut?' },
      { role: 'assistant', content: answerOf('odds of a cut?') },
      { role: 'user', content: 'and of a hike?' },
    ]);
    expect(h.botTexts(asked.id)).toHaveLength(2);
    expect(h.botTexts(asked.id)[0]).toContain(answerOf('odds of a cut?'));
  });

  it('in a DM: answered again in the same message', async () => {
    const h = await harness.start();
    const asked = h.discord.dmMessage('odds of a Fed ct?');
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const [answer] = botMessages(DM_CHANNEL);
    h.discord.editMessage(asked, 'odds of a Fed cut?');
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain(answerOf('odds of a Fed cut?')));
    await h.bot.idle();
    expect(botMessages(DM_CHANNEL).map((m) => m.id)).toEqual([answer!.id]);
    expect(h.log.requests.at(-1)!.messages).toEqual([{ role: 'user', content: 'odds of a Fed cut?' }]);
  });

  it('edited while its answer is still being written: answered again once that answer ends, in its message', async () => {
    const h = await harness.start();
    const asked = h.discord.userMessage(CHANNEL, `<@${BOT.id}> feed: odds of a cut?`);
    h.log.feed.text('The first answer, still going');
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain(STREAMING_MARK));
    h.discord.editMessage(asked, `<@${BOT.id}> odds of a hike?`);
    await new Promise((r) => setTimeout(r, 300));
    expect(h.log.requests).toHaveLength(1);
    h.log.feed.done([]);
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain(answerOf('odds of a hike?')));
    await h.bot.idle();
    expect(h.botTexts(asked.id)).toHaveLength(1);
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['feed: odds of a cut?', 'odds of a hike?']);
  });

  it('of a question asked before the bot started (a message Discord never sent it): answered again all the same', async () => {
    const h = await harness.start();
    // Asked and answered before a restart: the thread, its answer and what the adapter recorded of them.
    const asked = h.discord.existingThread(`<@${BOT.id}> odds of a ct?`);
    const answer = h.discord.botMessage(asked.id, `${answerOf('odds of a ct?')}\n\n**Sources**\n[1] Fed`);
    const conversation = `discord:thread:${asked.id}`;
    h.store.recordFromStart(conversation);
    h.store.recordTurn(conversation, turnSeq(asked.id), 'user', 'odds of a ct?');
    h.store.recordTurn(conversation, turnSeq(asked.id, true), 'assistant', answerOf('odds of a ct?'));
    h.store.recordAnswerMessages(`discord:${asked.id}`, conversation, asked.id, [answer.id]);
    h.discord.editMessage(asked, `<@${BOT.id}> odds of a cut?`);
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain(answerOf('odds of a cut?')));
    await h.bot.idle();
    expect(botMessages(asked.id).map((m) => m.id)).toEqual([answer.id]);
    expect(h.log.requests.map((r) => r.messages)).toEqual([[{ role: 'user', content: 'odds of a cut?' }]]);
  });

  it('answered again with a failure: a reply after it carries the edited question without the first answer', async () => {
    const h = await harness.start();
    const asked = h.discord.dmMessage('odds of a cut?');
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    h.discord.editMessage(asked, 'odds of a cut? break');
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('⚠️'));
    await h.bot.idle();
    h.discord.dmMessage('and of a hike?');
    await until(() => expect(h.log.requests).toHaveLength(3));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'odds of a cut? break' },
      { role: 'user', content: 'and of a hike?' },
    ]);
  });

  it('an answer in several messages answered again shorter keeps the first and removes the rest; longer, it goes on in new ones', async () => {
    const h = await harness.start();
    const asked = h.discord.dmMessage('give me the long answer');
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    const long = botMessages(DM_CHANNEL);
    expect(long.length).toBeGreaterThan(3);
    h.discord.editMessage(asked, 'give me the short one');
    await until(() => expect(h.botTexts(DM_CHANNEL)).toEqual([`${answerOf('give me the short one')}\n\n**Sources**\n[1] [Fed statement, December](<https://www.federalreserve.gov/newsevents/pressreleases/monetary20251210a.htm>)`]));
    await h.bot.idle();
    expect(botMessages(DM_CHANNEL).map((m) => m.id)).toEqual([long[0]!.id]);
    h.discord.editMessage(asked, 'give me the long answer again');
    await until(() => expect(h.botTexts(DM_CHANNEL).length).toBe(long.length));
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(botMessages(DM_CHANNEL)[0]!.id).toBe(long[0]!.id);
    expect(h.botTexts(DM_CHANNEL).join('')).not.toContain('short one');
  });
});
