import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';

let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'sec'), SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') } });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
});
afterAll(() => svc.close());

/** Three turns a person would type, and what each answer must say (SEC demo snapshot). */
const TURNS: [string, RegExp][] = [
  ["What was Apple's revenue in Q3 2024?", /^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*\$85,777 million\*\*/],
  ['and the quarter before?', /^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q2 2024 \(quarter ended 2024-03-30\) was \*\*\$90,753 million\*\*/],
  ['how about Microsoft?', /^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q2 2024 \(quarter ended 2023-12-31\) was \*\*\$62,020 million\*\*/],
];

describe('follow-up questions through svc-agent', () => {
  it('chat completions: earlier messages give the context', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
    for (const [question, expected] of TURNS) {
      messages.push({ role: 'user', content: question });
      const r = await client.chat.completions.create({ model: 'svc-agent', messages });
      const text = r.choices[0]!.message.content!;
      expect(text).toMatch(expected);
      const citations = (r.choices[0] as any).citations as { url: string }[];
      expect(citations[0]!.url).toMatch(/\/v1\/documents\/.+\.pdf\?expires=\d+&signature=[0-9a-f]{64}#page=\d+$/);
      messages.push({ role: 'assistant', content: text });
    }
  });

  it('responses: previous_response_id gives the context, streaming or not', async () => {
    let previous: string | undefined;
    for (const [i, [question, expected]] of TURNS.entries()) {
      const r =
        i === 1
          ? await client.responses.stream({ model: 'svc-agent', input: question, previous_response_id: previous }).finalResponse()
          : await client.responses.create({ model: 'svc-agent', input: question, previous_response_id: previous });
      expect(r.output_text).toMatch(expected);
      previous = r.id;
    }
  });

  it('the SDK-style history (input array) works as well', async () => {
    const r = await client.responses.create({
      model: 'svc-agent',
      input: [
        { role: 'user', content: TURNS[0]![0] },
        { role: 'assistant', content: 'Apple reported $85,777 million [1].' },
        { role: 'user', content: TURNS[1]![0] },
      ],
    });
    expect(r.output_text).toMatch(TURNS[1]![1]);
  });
});

describe('follow-ups beyond filings', () => {
  const ask = async (...turns: string[]) => {
    const messages = turns.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content })) as OpenAI.Chat.ChatCompletionMessageParam[];
    return (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
  };

  it('an odds follow-up is searched with the question it continues', async () => {
    const first = await ask('what are the odds of a Fed cut in December?');
    expect(first).toContain('Fed decision');
    expect(await ask('what are the odds of a Fed cut in December?', first, 'and of a hold?')).toContain('Fed decision');
  });

  it('thanks or "what can you do?" after a question get the help, not the last answer again', async () => {
    const first = await ask("What was Apple's revenue in Q3 2024?");
    for (const next of ['thanks!', 'what can you do?']) expect(await ask("What was Apple's revenue in Q3 2024?", first, next)).toContain('I answer financial research questions');
  });

  it('asking for more periods after one figure gives the table', async () => {
    const first = await ask("What was Apple's revenue in Q3 2024?");
    const table = await ask("What was Apple's revenue in Q3 2024?", first, 'and for the last 8 quarters?');
    expect((table.match(/^\|/gm) ?? []).length).toBeGreaterThan(2);
  });
});
