import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// A thread holding two events' addresses, one with a stored report: a question naming the
// reported one ("whats the shutdown edge?") is answered from its report even when the event
// discussed last is the other, which has none.

let demo: DemoThreads;
beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const SHUTDOWN = 'https://kalshi.com/markets/kxshutdown/government-shutdown/kxshutdown-26dec31';
const PAYROLLS = 'https://kalshi.com/markets/kxpayrolls/payrolls/kxpayrolls-26dec';

async function chat(...questions: string[]): Promise<string> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
  let text = '';
  for (const content of questions) {
    messages.push({ role: 'user', content });
    text = (await demo.client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
    messages.push({ role: 'assistant', content: text });
  }
  return text;
}

describe('an event named in a thread where only it has a report', () => {
  it('"whats the shutdown edge?" after payrolls\' address is the shutdown report\'s edge', async () => {
    await demo.reportOf(SHUTDOWN);
    const text = await chat(SHUTDOWN, PAYROLLS, 'whats the shutdown edge?');
    expect(text).toMatch(/the model gives \*\*Shutdown\*\* \d+\.\d% against a market/);
    expect(text).toMatch(/From the stored report on \*\*Government shutdown by December 2026\?\*\*/);
    expect(text).not.toMatch(/KXPAYROLLS-26DEC/);
  });

  it('a question naming no event stays with the one discussed last (payrolls, no report)', async () => {
    await demo.reportOf(SHUTDOWN);
    expect(await chat(SHUTDOWN, PAYROLLS, 'whats the edge?')).toMatch(/No report is stored for KXPAYROLLS-26DEC/);
  });
});
