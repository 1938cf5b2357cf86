import { describe, expect, it } from 'vitest';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { BOT, CHANNEL } from './fake-discord.js';

/**
 * A question to @svc whose thread cannot be started, or cannot be written in: the reply that says
 * so speaks of the question, not of a report, and a refused thread is said, not only logged (adapters8).
 */

const harness = discordHarnessPerTest();

const MISSING = { status: 403, code: 50013, message: 'Missing Permissions' };

describe('Discord: a question whose thread fails', () => {
  it('no thread: the reply names the permissions and says to ask again', async () => {
    const h = await harness.start();
    h.discord.threadError = MISSING;
    h.discord.userMessage(CHANNEL, `<@${BOT.id}> what are the odds of a Fed cut?`);
    await until(() => expect(h.botTexts(CHANNEL)).toHaveLength(1));
    await h.bot.idle();
    expect(h.botTexts(CHANNEL)[0]).toBe(
      `I could not start a thread for your question: I need the **Create Public Threads** and **Send Messages in Threads** permissions in <#${CHANNEL}>. Ask a server admin to give me both there, then ask again.`,
    );
    expect(h.log.requests).toEqual([]);
  });

  it('a thread it cannot write in: the person is told in a reply, and Discord is not asked again and again', async () => {
    const h = await harness.start();
    h.discord.threadSendError = MISSING;
    const asked = h.discord.userMessage(CHANNEL, `<@${BOT.id}> and a hike in January?`);
    await until(() => expect(h.botTexts(CHANNEL)).toHaveLength(1));
    await h.bot.idle();
    expect(h.discord.threads().map((t) => t.id)).toEqual([asked.id]);
    expect(h.botTexts(CHANNEL)[0]).toBe(
      `I started a thread for your question but cannot write in it: I need the **Send Messages in Threads** permission in <#${CHANNEL}>. Ask a server admin to give it to me there, then ask again.`,
    );
    expect(h.discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${asked.id}/messages` && c.status === 403)).toHaveLength(1);
  });
});
