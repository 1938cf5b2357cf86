import { describe, expect, it } from 'vitest';
import { threadName } from '../../../adapters/discord/texts.js';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { ANA, BOT, CHANNEL, DM_CHANNEL } from './fake-discord.js';

/** Discord markup and unspaced scripts in what people write (adapters6 probe). */

const harness = discordHarnessPerTest();

const botTexts = (channelId: string) => harness.h.botTexts(channelId);
const FED = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-26dec';

describe('Discord probe6: mentions, channels and custom emoji reach the service readable', () => {
  it('a follow-up naming a person, a channel and an emoji is sent as Discord shows it, not as raw ids', async () => {
    const h = await harness.start();
    const starter = h.discord.existingThread(FED);
    h.discord.botMessage(starter.id, 'The Fed report.');
    h.discord.userMessage(starter.id, `<@${BOT.id}> <@${ANA.id}> asked in <#${CHANNEL}> <:party:123456789012345678> whether a cut is priced in?`);
    await until(() => expect(botTexts(starter.id).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages.at(-1)).toEqual({ role: 'user', content: '@Ana asked in #general :party: whether a cut is priced in?' });
  });
});

describe('Discord probe6: a question in an unspaced script beside a link', () => {
  for (const question of ['这个市场定价合理吗？', 'この市場は割高ですか']) {
    it(`"${question}" in the bot's thread is answered, not replaced by a new report`, async () => {
      const h = await harness.start();
      const starter = h.discord.existingThread(FED);
      h.discord.botMessage(starter.id, 'The Fed report.');
      h.discord.userMessage(starter.id, `${FED} ${question}`);
      await until(() => expect(botTexts(starter.id).at(-1)).toContain('**Sources**'));
      await h.bot.idle();
      expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual([`${FED} ${question}`]);
      expect(botTexts(starter.id).at(-1)).toContain(`Answer to "${FED} ${question}"`);
    });
  }

  it('a short "报告" (report) beside a link still asks for the report', async () => {
    const h = await harness.start();
    const starter = h.discord.existingThread(FED);
    h.discord.botMessage(starter.id, 'The Fed report.');
    h.discord.userMessage(starter.id, `${FED} 报告`);
    await until(() => expect(botTexts(starter.id).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual([FED]);
  });
});

describe('Discord probe6: direct messages', () => {
  it('a question in a DM is answered there, and the next one carries the conversation', async () => {
    const h = await harness.start();
    h.discord.dmMessage('what are the odds of a Fed cut?');
    await until(() => expect(botTexts(DM_CHANNEL).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(botTexts(DM_CHANNEL)).toHaveLength(1);
    expect(botTexts(DM_CHANNEL)[0]).toContain('Answer to "what are the odds of a Fed cut?"');
    h.discord.dmMessage(`<@${BOT.id}> and a hike?`);
    await until(() => expect(botTexts(DM_CHANNEL)).toHaveLength(2));
    await until(() => expect(botTexts(DM_CHANNEL).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'what are the odds of a Fed cut?' },
      { role: 'assistant', content: 'Answer to "what are the odds of a Fed cut?" [1].' },
      { role: 'user', content: 'and a hike?' },
    ]);
  });

  it('a link in a DM gets its report there; a question beside a link is answered, as in svc\'s threads', async () => {
    const h = await harness.start();
    h.discord.dmMessage(FED);
    await until(() => expect(botTexts(DM_CHANNEL).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual([FED]);
    h.discord.dmMessage(`is the hold underpriced here? ${FED}`);
    await until(() => expect(botTexts(DM_CHANNEL)).toHaveLength(2));
    await until(() => expect(botTexts(DM_CHANNEL).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests).toHaveLength(2);
    expect(h.log.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: `is the hold underpriced here? ${FED}` });
    expect(h.log.requests[1]!.messages).toHaveLength(3);
  });
});

describe('Discord probe6: a question to @svc in a channel', () => {
  it('starts a thread on the message, named after the question, answers there, and a reply there carries the conversation', async () => {
    const h = await harness.start();
    const asked = h.discord.userMessage(CHANNEL, `<@${BOT.id}> what are the odds of a Fed cut in December?`);
    await until(() => expect(botTexts(asked.id).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    const [thread] = h.discord.threads();
    expect(thread!.id).toBe(asked.id);
    expect(thread!.name).toBe('what are the odds of a Fed cut in December?');
    expect(botTexts(asked.id)[0]).toContain('Answer to "what are the odds of a Fed cut in December?"');
    h.discord.userMessage(asked.id, 'and a hike?');
    await until(() => expect(botTexts(asked.id)).toHaveLength(2));
    await until(() => expect(botTexts(asked.id).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'what are the odds of a Fed cut in December?' },
      { role: 'assistant', content: 'Answer to "what are the odds of a Fed cut in December?" [1].' },
      { role: 'user', content: 'and a hike?' },
    ]);
  });

  it('"@svc" alone gets the help in a reply, and no thread', async () => {
    const h = await harness.start();
    const asked = h.discord.userMessage(CHANNEL, `<@${BOT.id}>`);
    await until(() => expect(botTexts(CHANNEL).at(-1)).toContain('research answers with sources'));
    await h.bot.idle();
    expect(h.discord.threads()).toEqual([]);
    expect(h.log.requests).toEqual([]);
    expect(asked.id).toBeTruthy();
  });

  it('a message that mentions someone else and has no link is still left alone', async () => {
    const h = await harness.start();
    h.discord.userMessage(CHANNEL, `<@${ANA.id}> what are the odds of a Fed cut?`);
    // Then a DM, answered after the channel message was handled (messages are handled in order).
    h.discord.dmMessage('sentinel question');
    await until(() => expect(botTexts(DM_CHANNEL).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.discord.threads()).toEqual([]);
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['sentinel question']);
  });
});

describe('Discord probe6: thread names from questions', () => {
  it('are one line, at most 100 characters, never cut inside an emoji', () => {
    const question = `${'why '.repeat(24)}🎉🎉🎉 and\nmore`;
    const name = threadName([question]);
    expect(name.length).toBeLessThanOrEqual(100);
    expect(name).not.toMatch(/\n/);
    expect(name).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(name.endsWith('…')).toBe(true);
    expect(threadName(['这个市场定价合理吗？\n\n谢谢'])).toBe('这个市场定价合理吗？ 谢谢');
  });
});

describe('Discord probe6: /svc ask with nothing to ask', () => {
  it('answers privately with the usage, asking the service nothing', async () => {
    const h = await harness.start();
    h.discord.slashCommand('ask', { question: '   ' });
    await until(() => expect(h.discord.interactionCallbacks).toHaveLength(1));
    expect(h.discord.interactionCallbacks[0]!.type).toBe(4);
    const body = h.discord.callsTo('POST', /\/callback$/)[0]!.body as { data: { content: string; flags: number } };
    expect(body.data.content).toMatch(/^Usage: `\/svc ask question:` followed by your question/);
    expect(body.data.flags & 64).toBe(64);
    expect(h.log.requests).toEqual([]);
  });
});

describe('Discord probe6: markup in /svc ask', () => {
  it('channels and custom emoji in the question reach the agent as Discord shows them', async () => {
    const h = await harness.start();
    h.discord.slashCommand('ask', { question: `<@${BOT.id}> what do people in <#${CHANNEL}> <:party:123456789012345678> think of the Fed?` });
    await until(() => expect(h.log.requests).toHaveLength(1));
    await h.bot.idle();
    expect(h.log.requests[0]!.messages).toEqual([{ role: 'user', content: 'what do people in #general :party: think of the Fed?' }]);
  });
});
