import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResearchClient } from '../../../adapters/shared/api-client.js';
import { findKalshiSeriesLinks, nameSeriesLinks } from '../../../adapters/shared/kalshi-links.js';
import { startService, type TestService } from '../../helpers/service.js';
import { discordHarnessPerTest, until } from '../helpers/discord-harness.js';
import { CHANNEL } from './fake-discord.js';

/**
 * A Kalshi series page pasted (`https://kalshi.com/markets/kxfeddecision`, no event ticker): no
 * report, but a question about the series, answered in a thread like an event link.
 */

const harness = discordHarnessPerTest();
let svc: TestService | undefined;

afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

describe('Kalshi series links', () => {
  it('are found apart from event links, and named as their series for the service', () => {
    expect(findKalshiSeriesLinks('https://kalshi.com/markets/kxfeddecision')).toEqual([
      { url: 'https://kalshi.com/markets/kxfeddecision', series: 'KXFEDDECISION', title: 'Kalshi series KXFEDDECISION' },
    ]);
    expect(findKalshiSeriesLinks('odds? <https://www.kalshi.com/markets/KXCPIYOY/cpi-yoy/>')).toEqual([
      { url: 'https://kalshi.com/markets/kxcpiyoy/cpi-yoy', series: 'KXCPIYOY', title: 'CPI yoy (KXCPIYOY)' },
    ]);
    expect(findKalshiSeriesLinks('https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec')).toEqual([]);
    expect(findKalshiSeriesLinks('`https://kalshi.com/markets/kxfeddecision`')).toEqual([]);
    expect(nameSeriesLinks('what are the odds here? <https://kalshi.com/markets/kxhighny/nyc-temp>')).toBe('what are the odds here? Kalshi series KXHIGHNY');
    expect(nameSeriesLinks('see `https://kalshi.com/markets/kxfed` and https://kalshi.com/markets/kxfed/fed/kxfed-25dec')).toBe(
      'see `https://kalshi.com/markets/kxfed` and https://kalshi.com/markets/kxfed/fed/kxfed-25dec',
    );
  });

  it('the service lists a series named so (the demo service, through the adapters\' client)', async () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: path.join(root, 'snapshots', 'sec'), SVC_KALSHI_SNAPSHOT_DIR: path.join(root, 'snapshots', 'kalshi') } });
    const account = await svc.account();
    const research = new ResearchClient({ baseUrl: svc.url, apiKey: account.apiKey, maxRetries: 0 });
    const ask = async (content: string) => {
      let text = '';
      for await (const e of research.answer({ model: 'svc-agent', messages: [{ role: 'user', content }] })) {
        if (e.type === 'text') text += e.delta;
        if (e.type === 'failed') return `failed: ${e.problem.message}`;
      }
      return text;
    };
    expect(await ask('https://kalshi.com/markets/kxfeddecision')).toContain('(KXFEDDECISION-26DEC');
    expect(await ask('what are the odds here? https://kalshi.com/markets/kxcpiyoy/cpi-yoy')).toContain('(KXCPIYOY-26DEC');
  });
});

describe('Discord: a Kalshi series link pasted in a channel', () => {
  it('gets a thread named after the series, answered there by svc-agent about the series', async () => {
    const h = await harness.start();
    const pasted = h.discord.userMessage(CHANNEL, 'https://kalshi.com/markets/kxfeddecision');
    await until(() => expect(h.botTexts(pasted.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.discord.threads().map((t) => [t.id, t.name])).toEqual([[pasted.id, 'Kalshi series KXFEDDECISION']]);
    expect(h.log.requests.map((r) => [r.model.id, r.messages])).toEqual([['svc-agent', [{ role: 'user', content: 'Kalshi series KXFEDDECISION' }]]]);
    expect(h.botTexts(pasted.id)[0]).toContain('Answer to "Kalshi series KXFEDDECISION"');
    // A reply in the thread carries the conversation, the series named as before.
    h.discord.userMessage(pasted.id, 'and the odds of a hike?');
    await until(() => expect(h.botTexts(pasted.id)).toHaveLength(2));
    await until(() => expect(h.botTexts(pasted.id).at(-1)).toContain('**Sources**'));
    await h.bot.idle();
    expect(h.log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'Kalshi series KXFEDDECISION' },
      { role: 'assistant', content: 'Answer to "Kalshi series KXFEDDECISION" [1].' },
      { role: 'user', content: 'and the odds of a hike?' },
    ]);
  });

  it('with a slug and a question beside it, the question is answered about the series', async () => {
    const h = await harness.start();
    const pasted = h.discord.userMessage(CHANNEL, 'what are the odds here? <https://kalshi.com/markets/kxcpiyoy/cpi-yoy>');
    await until(() => expect(h.botTexts(pasted.id).at(-1) ?? '').toContain('**Sources**'));
    await h.bot.idle();
    expect(h.discord.threads().map((t) => t.name)).toEqual(['CPI yoy (KXCPIYOY)']);
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['what are the odds here? Kalshi series KXCPIYOY']);
  });

  it('quoted as code it is left alone', async () => {
    const h = await harness.start();
    h.discord.userMessage(CHANNEL, 'the page is `https://kalshi.com/markets/kxfeddecision`');
    h.discord.dmMessage('sentinel question');
    await until(() => expect(h.log.requests).toHaveLength(1));
    await h.bot.idle();
    expect(h.discord.threads()).toEqual([]);
    expect(h.log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['sentinel question']);
  });
});

describe('Discord: a Kalshi series link given to /svc report', () => {
  it('is named as a series page, privately, asking nothing', async () => {
    const h = await harness.start();
    h.discord.slashCommand('report', { url: 'https://kalshi.com/markets/kxfeddecision' });
    await until(() => expect(h.discord.interactionCallbacks).toHaveLength(1));
    const body = h.discord.callsTo('POST', /\/callback$/)[0]!.body as { data: { content: string; flags: number } };
    expect(body.data.content).toMatch(/^That is the page of a Kalshi series \(KXFEDDECISION\), not of one event, so there is no report on it\./);
    expect(body.data.flags & 64).toBe(64);
    expect(h.log.requests).toEqual([]);
  });
});
