import { describe, expect, it } from 'vitest';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { BOT, CHANNEL, DM_CHANNEL } from './fake-discord.js';

/**
 * Someone asks in a channel, forgets the @svc, and edits the message to add it: svc ignored the
 * edit (it read only new messages). A message just sent that an edit addresses to svc is now
 * answered as if sent so, once.
 */

const harness = discordHarnessPerTest();

describe('Discord: an edit that adds the forgotten mention', () => {
  it('gets the question answered in a thread on the message, once', async () => {
    const h = await harness.start();
    const asked = h.discord.userMessage(CHANNEL, 'what are the odds of a Fed cut?');
    h.discord.editMessage(asked, `<@${BOT.id}> what are the odds of a Fed cut?`);
    await until(() => expect(h.botTexts(asked.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.discord.threads().map((t) => [t.id, t.name])).toEqual([[asked.id, 'what are the odds of a Fed cut?']]);
    // Redelivered, or previewed: nothing more.
    h.discord.redeliverUpdate(asked);
    h.discord.unfurl(asked, 'https://example.com');
    h.discord.dmMessage('sentinel question');
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['what are the odds of a Fed cut?', 'sentinel question']);
    expect(h.botTexts(asked.id)).toHaveLength(1);
  });

  it('an edit that still does not address svc is left alone', async () => {
    const h = await harness.start();
    const said = h.discord.userMessage(CHANNEL, 'lunch at noon?');
    h.discord.editMessage(said, 'lunch at one?');
    h.discord.dmMessage('sentinel question');
    await until(() => expect(h.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['sentinel question']);
    expect(h.discord.threads()).toEqual([]);
  });
});
