import { describe, expect, it } from 'vitest';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { BOT_ROLE, CHANNEL, GUILD } from './fake-discord.js';

/**
 * Discord makes a role for a bot that joins a server, named like it; typing "@svc" people often
 * pick that role, so the message mentions the role, not the bot (adapters8).
 */

const harness = discordHarnessPerTest();

describe('Discord: a mention of the bot\'s own role', () => {
  it('is a mention of svc: the question is answered in a thread, without the role in it', async () => {
    const h = await harness.start();
    const asked = h.discord.userMessage(CHANNEL, `<@&${BOT_ROLE}> what are the odds of a Fed cut?`);
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.discord.threads().map((t) => [t.id, t.name])).toEqual([[asked.id, 'what are the odds of a Fed cut?']]);
    expect(h.log.requests.map((r) => r.messages)).toEqual([[{ role: 'user', content: 'what are the odds of a Fed cut?' }]]);
  });

  it('alone gets the help; another role\'s mention (@everyone) is no mention of svc', async () => {
    const h = await harness.start();
    h.discord.userMessage(CHANNEL, `<@&${GUILD}> is the Fed meeting today?`);
    h.discord.userMessage(CHANNEL, `<@&${BOT_ROLE}>`);
    await until(() => expect(h.botTexts(CHANNEL).at(-1) ?? '').toContain('research answers with sources'));
    h.discord.dmMessage('sentinel question');
    await until(() => expect(h.log.requests).toHaveLength(1));
    await h.bot.idle();
    expect(h.discord.threads()).toEqual([]);
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['sentinel question']);
  });
});
