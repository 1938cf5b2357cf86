import { describe, expect, it } from 'vitest';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { BOT, DM_CHANNEL } from './fake-discord.js';

/** A DM that asks nothing ("@svc" alone) gets the help, as a bare mention in a channel does and as on Slack (adapters8). */

const harness = discordHarnessPerTest();

describe('Discord: a DM that asks nothing', () => {
  for (const content of [`<@${BOT.id}>`, `  <@${BOT.id}>  `]) {
    it(`${JSON.stringify(content)} gets the help there, asking the service nothing`, async () => {
      const h = await harness.start();
      h.discord.dmMessage(content);
      await until(() => expect(h.botTexts(DM_CHANNEL)).toHaveLength(1));
      await h.bot.idle();
      expect(h.botTexts(DM_CHANNEL)[0]).toMatch(/^\*\*svc: research answers with sources\*\*\n/);
      expect(h.log.requests).toEqual([]);
      // A question after it is answered as usual.
      h.discord.dmMessage('what are the odds of a Fed cut?');
      await until(() => expect(h.botTexts(DM_CHANNEL).at(-1)).toContain('**Sources**'));
      await h.bot.idle();
      expect(h.log.requests.map((r) => r.messages)).toEqual([[{ role: 'user', content: 'what are the odds of a Fed cut?' }]]);
    });
  }
});
