import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../helpers/report-threads.js';

// A conversation of thousands of turns (within the body limit) is answered like a short one: no
// agent reads back through every turn (a call stack that deep overflowed into a 500).

let demo: DemoThreads;
beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const history = (turns: number, said: [string, string]) =>
  Array.from({ length: turns }, (): OpenAI.Chat.ChatCompletionMessageParam[] => [
    { role: 'user', content: said[0] },
    { role: 'assistant', content: said[1] },
  ]).flat();

describe('a long history', () => {
  it.each(['svc-agent', 'svc-sec-agent'])('%s: 15,000 turns before the question, answered as without them', async (model) => {
    const question = { role: 'user' as const, content: 'What was Apple revenue in Q3 2024?' };
    const alone = (await demo.client.chat.completions.create({ model, messages: [question] })).choices[0]!.message.content;
    for (const said of [['hi', 'Hello.'], ['when is the next one due?', 'Which company?']] as [string, string][]) {
      const r = await demo.client.chat.completions.create({ model, messages: [...history(7500, said), question] });
      expect(r.choices[0]!.finish_reason).toBe('stop');
      expect(r.choices[0]!.message.content).toBe(alone);
    }
  });

  it('Responses: the same history as input items', async () => {
    const input = [...history(7500, ['hi', 'Hello.']), { role: 'user' as const, content: 'What was Apple revenue in Q3 2024?' }] as OpenAI.Responses.ResponseInputItem[];
    const r = await demo.client.responses.create({ model: 'svc-agent', input });
    expect(r.status).toBe('completed');
    expect(r.output_text).toContain('$85');
  });
});
