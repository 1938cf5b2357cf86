import { afterEach, describe, expect, it } from 'vitest';
import type { AgentLog } from '../helpers/agents.js';
import { startDiscordHarness, until, type DiscordHarness } from '../helpers/discord-harness.js';
import { BOT, DM_CHANNEL } from './fake-discord.js';

/** A DM that asks nothing ("@svc" alone) gets the help, as a bare mention in a channel does and as on Slack (adapters8). */

let h: DiscordHarness | undefined;
let log: AgentLog;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Discord: a DM that asks nothing', () => {
  for (const content of [`<@${BOT.id}>`, `  <@${BOT.id}>  `]) {
    it(`${JSON.stringify(content)} gets the help there, asking the service nothing`, async () => {
      h = await startDiscordHarness();
      log = h.log;
      h.discord.dmMessage(content);
      await until(() => expect(h!.botTexts(DM_CHANNEL)).toHaveLength(1));
      await h.bot.idle();
      expect(h.botTexts(DM_CHANNEL)[0]).toMatch(/^\*\*svc: research answers with sources\*\*\n/);
      expect(log.requests).toEqual([]);
      // A question after it is answered as usual.
      h.discord.dmMessage('what are the odds of a Fed cut?');
      await until(() => expect(h!.botTexts(DM_CHANNEL).at(-1)).toContain('**Sources**'));
      await h.bot.idle();
      expect(log.requests.map((r) => r.messages)).toEqual([[{ role: 'user', content: 'what are the odds of a Fed cut?' }]]);
    });
  }
});
