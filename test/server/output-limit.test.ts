import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTextTokens } from '../../src/agents/usage.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

// max_output_tokens (Responses), max_completion_tokens and max_tokens (Chat) are honoured as
// OpenAI honours them: the answer stops there and says so.

const TEXT = 'Apple reported revenue of $85.8 billion [1] for the quarter, up 5% year over year [2]. Services grew faster than products did, led by the App Store [3].';
const CITATIONS = [1, 2, 3].map((order) => ({ order, name: `Apple Inc. Form 10-Q, page ${order}`, url: `https://docs.example/a.pdf#page=${order}` }));
const LIMIT = countTextTokens(TEXT.slice(0, TEXT.indexOf('[2]')));

let svc: TestService;
let client: OpenAI;
let apiKey: string;

beforeAll(async () => {
  svc = await startService({
    agents: [
      scriptedAgent('svc-test', () => answer(TEXT, CITATIONS)),
      scriptedAgent('svc-report', () => [{ type: 'answer', answer: { text: TEXT, citations: CITATIONS } }, { type: 'done' }]),
      scriptedAgent('svc-turns', (req) => answer(req.messages.map((m) => `${m.role}: ${m.content}`).join(' | '))),
    ],
  });
  apiKey = (await svc.account()).apiKey;
  client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
});

afterAll(() => svc.close());

/** The cut answer's checks: a start of the text within the limit, and the sources of the markers in it only. */
function expectCut(text: string, annotations: { order?: number; start_index?: number; end_index?: number }[]) {
  expect(TEXT.startsWith(text)).toBe(true);
  expect(text.length).toBeLessThan(TEXT.length);
  expect(countTextTokens(text)).toBeLessThanOrEqual(LIMIT);
  expect(text).toContain('[1]');
  expect(annotations.map((a) => a.order)).toEqual([1]);
  expect(text.slice(annotations[0]!.start_index, annotations[0]!.end_index)).toBe('[1]');
}

describe('Responses: max_output_tokens', () => {
  it.each(['svc-test', 'svc-report'])('%s: a longer answer ends incomplete, cut within the limit, only its sources kept, usage counting what was sent', async (model) => {
    const r = await client.responses.create({ model, input: 'What was Apple revenue?', max_output_tokens: LIMIT });
    expect(r.status).toBe('incomplete');
    expect(r.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(r.max_output_tokens).toBe(LIMIT);
    const message = r.output[0] as OpenAI.Responses.ResponseOutputMessage;
    expect(message.status).toBe('incomplete');
    const part = message.content[0] as OpenAI.Responses.ResponseOutputText;
    expectCut(r.output_text, part.annotations as never);
    expect((r as unknown as { citations: unknown }).citations).toEqual([CITATIONS[0]]);
    expect(r.usage!.output_tokens).toBe(countTextTokens(r.output_text));
  });

  it('an answer within the limit completes unchanged', async () => {
    const r = await client.responses.create({ model: 'svc-test', input: 'q', max_output_tokens: countTextTokens(TEXT) });
    expect(r.status).toBe('completed');
    expect(r.incomplete_details).toBeNull();
    expect(r.output_text).toBe(TEXT);
  });

  it('streamed, it ends with response.incomplete carrying the cut answer; the SDK accumulates it', async () => {
    const stream = await client.responses.create({ model: 'svc-test', input: 'q', max_output_tokens: LIMIT, stream: true });
    const types: string[] = [];
    let text = '';
    let last: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.incomplete') last = event.response;
    }
    expect(types.at(-1)).toBe('response.incomplete');
    expect(types).not.toContain('response.completed');
    expect(last!.output_text ?? (last!.output[0] as OpenAI.Responses.ResponseOutputMessage).content.map((c) => (c as { text: string }).text).join('')).toBe(text);
    const final = await client.responses.stream({ model: 'svc-test', input: 'q', max_output_tokens: LIMIT }).finalResponse();
    expect(final.status).toBe('incomplete');
    expect(final.output_text).toBe(text);
  });

  it('kept, it is fetched incomplete again, and can be continued like a completed one', async () => {
    const r = await client.responses.create({ model: 'svc-turns', input: 'first question', max_output_tokens: 3 });
    expect(r.status).toBe('incomplete');
    const again = await client.responses.retrieve(r.id);
    expect(again).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(again.output_text).toBe(r.output_text);
    const next = await client.responses.create({ model: 'svc-turns', input: 'second', previous_response_id: r.id });
    expect(next.status).toBe('completed');
    expect(next.output_text).toBe(`user: first question | assistant: ${r.output_text} | user: second`);
  });

  it('in a conversation, the cut answer is added as an incomplete item', async () => {
    const conversation = await client.conversations.create();
    const r = await client.responses.create({ model: 'svc-test', input: 'q', conversation: conversation.id, max_output_tokens: LIMIT });
    expect(r.status).toBe('incomplete');
    const items = await client.conversations.items.list(conversation.id, { order: 'asc' });
    expect(items.data.map((i) => (i as { role: string; status: string }).status)).toEqual(['completed', 'incomplete']);
  });
});

describe('Chat Completions: max_completion_tokens and max_tokens', () => {
  it.each(['max_completion_tokens', 'max_tokens'] as const)('%s cuts the answer: finish_reason length, only its sources kept', async (field) => {
    const c = await client.chat.completions.create({ model: 'svc-test', messages: [{ role: 'user', content: 'q' }], [field]: LIMIT });
    const choice = c.choices[0]!;
    expect(choice.finish_reason).toBe('length');
    expectCut(choice.message.content!, (choice.message.annotations ?? []).map((a) => ({ order: (a as { order?: number }).order, ...a.url_citation })));
    expect(c.usage!.completion_tokens).toBe(countTextTokens(choice.message.content!));
  });

  it('streamed, the finish chunk says length; the SDK accumulates the cut answer', async () => {
    const final = await client.chat.completions.stream({ model: 'svc-report', messages: [{ role: 'user', content: 'q' }], max_completion_tokens: LIMIT }).finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('length');
    expect(TEXT.startsWith(final.choices[0]!.message.content!)).toBe(true);
    expect(final.choices[0]!.message.content!.length).toBeLessThan(TEXT.length);
  });
});

describe('AI SDK maxOutputTokens', () => {
  it.each(['responses', 'chat'] as const)('over openai.%s(), generateText and streamText finish with length', async (api) => {
    const provider = createOpenAI({ baseURL: svc.baseURL, apiKey });
    const model = provider[api]('svc-test');
    const plain = await generateText({ model, prompt: 'q', maxOutputTokens: LIMIT });
    expect(plain.finishReason).toBe('length');
    expect(TEXT.startsWith(plain.text)).toBe(true);
    expect(plain.text.length).toBeLessThan(TEXT.length);
    const streamed = streamText({ model, prompt: 'q', maxOutputTokens: LIMIT });
    expect(await streamed.text).toBe(plain.text);
    expect(await streamed.finishReason).toBe('length');
  });
});
