import { describe, expect, it } from 'vitest';
import { answerPart } from '../../adapters/discord/thread.js';
import { discordHarnessPerTest, until } from './helpers/discord-harness.js';

/** Findings of probing the Discord adapter as a server meets it (adapters-probe). */

const harness = discordHarnessPerTest();

const botTexts = (channelId: string) => harness.h.botTexts(channelId);

describe('Discord probe: a named refusal read back from Discord', () => {
  it('is no part of the answer', () => {
    expect(answerPart('**Unknown event (KX-1)**\n⚠️ No Kalshi event KXNOPE.')).toBe('');
    expect(answerPart('**Key point**\nRates hold.')).toBe('**Key point**\nRates hold.');
  });

  it('a reply in a thread of the bot\'s it has no record of carries the report, not the refusal named beside it', async () => {
    const h = await harness.start();
    const starter = h.discord.existingThread('https://kalshi.com/markets/kxfed/fed/kxfed-25dec https://kalshi.com/markets/kx/unknown-event/kx-1');
    h.discord.botMessage(starter.id, 'The Fed report.');
    h.discord.botMessage(starter.id, '**Unknown event (KX-1)**\n⚠️ No Kalshi event KXNOPE.');
    h.discord.userMessage(starter.id, 'why?');
    await until(() => expect(botTexts(starter.id).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'https://kalshi.com/markets/kxfed/fed/kxfed-25dec https://kalshi.com/markets/kx/unknown-event/kx-1' },
      { role: 'assistant', content: 'The Fed report.' },
      { role: 'user', content: 'why?' },
    ]);
  });
});
