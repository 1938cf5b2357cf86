import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// A contract's quote asked in cents ("whats the shutdown bid in cents") says its prices in cents,
// with or without a report stored; asked plainly, in dollars as the exchange quotes them.

let demo: DemoThreads;
beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31';
const ETH = 'https://kalshi.com/markets/kxethd/eth-price/kxethd-26nov20';

/** A thread that starts with an event's address given to svc-agent (live quotes; no report generated). */
async function liveThread(address: string, question: string): Promise<string> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: address }];
  messages.push({ role: 'assistant', content: (await demo.client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content! });
  messages.push({ role: 'user', content: question });
  return (await demo.client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
}

describe('quotes asked in cents', () => {
  it.each(['whats the shutdown bid in cents', 'bid and ask in cents?', 'how many cents is the spread?'])('live quotes: %j', async (question) => {
    const text = await liveThread(SHUTDOWN, question);
    expect(text).toMatch(/bid 56¢, ask 60¢, spread 4¢, last 58¢/);
    expect(text).not.toMatch(/\$0\.\d\d/);
  });

  it('a ladder rung named: "spread in cents on 3400?"', async () => {
    expect(await liveThread(ETH, 'spread in cents on 3400?')).toMatch(/\*\*Above \$3,400\*\* \(KXETHD-26NOV20-T3400\): bid 65¢, ask 67¢, spread 2¢, last 66¢/);
  });

  it('asked plainly, the quote stays in dollars', async () => {
    expect(await liveThread(SHUTDOWN, 'whats the shutdown bid?')).toMatch(/bid \$0\.56, ask \$0\.60, spread \$0\.04/);
  });

  it('in a report thread too', async () => {
    const ask = await demo.thread(SHUTDOWN);
    const text = await ask('whats the bid and ask in cents?');
    expect(text).toMatch(/56¢/);
    expect(text).toMatch(/60¢/);
    expect(text).not.toMatch(/\$0\.5[68]|\$0\.60/);
  });
});
