import { describe, expect, it } from 'vitest';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { CHANNEL } from './fake-discord.js';

/** A slash command of svc's application that it does not handle (left registered by an older version) (adapters8). */

const harness = discordHarnessPerTest();

describe('Discord: a command svc does not have', () => {
  for (const name of ['research', 'svc-old']) {
    it(`/${name} is answered privately, at once, with what svc can do; nothing is asked of the service`, async () => {
      const h = await harness.start();
      h.discord.slashCommand('ask', { question: 'odds of a cut?' }, CHANNEL, name);
      await until(() => expect(h.discord.interactionCallbacks).toHaveLength(1));
      expect(h.discord.interactionCallbacks[0]!.type).toBe(4);
      const body = h.discord.callsTo('POST', /\/callback$/)[0]!.body as { data: { content: string; flags: number } };
      expect(body.data.content).toMatch(new RegExp(`^I have no \`/${name}\` command any more \\(a server admin can refresh my commands with \`svc discord register-commands\`\\)\\. Here is what I can do:\\n\\n\\*\\*svc: research answers with sources\\*\\*`));
      expect(body.data.content.length).toBeLessThanOrEqual(2000);
      expect(body.data.flags & 64).toBe(64);
      await h.bot.idle();
      expect(h.log.requests).toEqual([]);
    });
  }
});
