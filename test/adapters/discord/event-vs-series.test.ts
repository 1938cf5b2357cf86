import { describe, expect, it } from 'vitest';
import { asksBesideLinks } from '../../../adapters/shared/kalshi-links.js';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { CHANNEL } from './fake-discord.js';

/**
 * "<event link> vs <series link>" in one message: the series address was counted as words of a
 * question (five, bare) or as none (wrapped in <…>, so "compare <event> with <series>" got the
 * event's report alone and the series was dropped). A series page beside an event's is now always
 * asked about: the event's report, then the question, the series named "Kalshi series <TICKER>".
 */
const harness = discordHarnessPerTest();

const EVENT = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec';

describe('an event link beside a series link', () => {
  it('is something asked, however the series address is written', () => {
    for (const text of [`${EVENT} vs https://kalshi.com/markets/kxfed`, `compare ${EVENT} with <https://kalshi.com/markets/kxfed>`, `${EVENT} <https://kalshi.com/markets/kxcpiyoy/cpi-yoy>`, `<${EVENT}|fed> vs <https://kalshi.com/markets/kxfed|series>`]) {
      expect(asksBesideLinks(text), text).toBe(true);
    }
    // Without a series link, as before: a link alone, or with "compare … and <event>", is a report request.
    for (const text of [EVENT, `compare <${EVENT}> and <https://kalshi.com/markets/kxa/alpha/kxa-1>`, `the page is \`https://kalshi.com/markets/kxfed\` ${EVENT}`]) {
      expect(asksBesideLinks(text), text).toBe(false);
    }
  });

  it.each([
    [`${EVENT} vs https://kalshi.com/markets/kxfed`, `${EVENT} vs Kalshi series KXFED`],
    [`compare ${EVENT} with <https://kalshi.com/markets/kxfed>`, `compare ${EVENT} with Kalshi series KXFED`],
  ])('on Discord, %j gets the report, then the question naming the series', async (text, asked) => {
    const h = await harness.start();
    const pasted = h.discord.userMessage(CHANNEL, text);
    await until(() => expect(h.log.requests).toHaveLength(2));
    await until(() => expect(h.botTexts(pasted.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.discord.threads().map((t) => t.name)).toEqual(['Fed meeting (KXFEDDECISION-25DEC)']);
    expect(h.log.requests.map((r) => r.model.id)).toEqual(['svc-prediction-markets-agent', 'svc-agent']);
    const question = h.log.requests[1]!.messages;
    expect(question[0]).toEqual({ role: 'user', content: EVENT });
    expect(question[1]!.content).toMatch(/^# Report for fed-meeting/);
    expect(question[2]).toEqual({ role: 'user', content: asked });
  });
});
