import { createOpenAI as createOpenAI3 } from '@ai-sdk/openai';
import { createOpenAI as createOpenAI2 } from '@ai-sdk/openai-v2';
import { createOpenAI as createOpenAI4 } from '@ai-sdk/openai-v4';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText as generateText6, streamText as streamText6 } from 'ai';
import { generateText as generateText5, streamText as streamText5 } from 'ai-v5';
import { generateText as generateText7, streamText as streamText7 } from 'ai-v7';
import OpenAI6 from 'openai';
import OpenAI7 from 'openai-v7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agents/types.js';
import { SvcError, type ErrorKind } from '../../src/errors.js';
import { answer, scriptedAgent, sleep } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

const TEXT = 'Apple reported revenue of $85.8 billion [1] for the quarter, up 5% year over year [2]. Services grew faster [1].';
const CITATIONS = [
  { order: 1, name: 'Apple Inc. Form 10-Q, quarter ended 2024-06-29, page 4', url: 'https://docs.example/a.pdf#page=4' },
  { order: 2, name: 'Apple Inc. Form 10-Q, quarter ended 2023-07-01, page 4', url: 'https://docs.example/b.pdf#page=4' },
];

const failing = (kind: ErrorKind, code: string) =>
  scriptedAgent(`svc-fail-${code}`, () => [{ type: 'failed', error: new SvcError(kind, { code, message: `scripted ${code}`, retryAfterSeconds: kind === 'rate_limited' ? 1 : undefined }) }]);

const ERROR_AGENTS: [ErrorKind, string, number][] = [
  ['invalid_request', 'bad_thing', 400],
  ['payment_required', 'insufficient_credits', 402],
  ['permission', 'plan_required', 403],
  ['not_found', 'event_not_found', 404],
  ['conflict', 'in_progress', 409],
  ['unprocessable', 'key_reused', 422],
  ['rate_limited', 'rate_limit_exceeded', 429],
  ['internal', 'server_error', 500],
  ['upstream', 'upstream_error', 502],
];

let svc: TestService;
let apiKey: string;

beforeAll(async () => {
  svc = await startService({
    agents: [
      scriptedAgent('svc-test', () => answer(TEXT, CITATIONS)),
      scriptedAgent('svc-plain', () => answer('No sources needed.')),
      // What reached the agent of the conversation: role and text of each turn.
      scriptedAgent('svc-turns', (req) => answer(req.messages.map((m) => `${m.role}: ${m.content}`).join(' | '))),
      scriptedAgent('svc-broken', async function* (): AsyncGenerator<AgentEvent> {
        yield { type: 'text', delta: 'Partial answer ' };
        await sleep(20);
        yield { type: 'failed', error: new SvcError('upstream', { code: 'upstream_error', message: 'The exchange stopped answering.' }) };
      }),
      // A bug, not a decided failure: an exception thrown after text went out.
      scriptedAgent('svc-crash', async function* (): AsyncGenerator<AgentEvent> {
        yield { type: 'text', delta: 'Partial answer ' };
        await sleep(20);
        throw new TypeError("Cannot read properties of undefined (reading 'secret_internal')");
      }),
      ...ERROR_AGENTS.map(([kind, code]) => failing(kind, code)),
    ],
  });
  apiKey = (await svc.account()).apiKey;
});

afterAll(() => svc.close());

const CLIENTS = [
  ['openai-node 6', () => new OpenAI6({ baseURL: svc.baseURL, apiKey, maxRetries: 0 }), OpenAI6],
  ['openai-node 7', () => new OpenAI7({ baseURL: svc.baseURL, apiKey, maxRetries: 0 }), OpenAI7],
] as const;

describe.each(CLIENTS)('%s', (_name, make, SDK) => {
  it('responses.create returns text with url_citation annotations and usage', async () => {
    const client = make() as OpenAI6;
    const r = await client.responses.create({ model: 'svc-test', input: 'What was Apple revenue?' });
    expect(r.status).toBe('completed');
    expect(r.output_text).toBe(TEXT);
    const content = (r.output[0] as OpenAI6.Responses.ResponseOutputMessage).content[0] as OpenAI6.Responses.ResponseOutputText;
    expect(content.annotations).toHaveLength(2);
    for (const a of content.annotations as any[]) expect(TEXT.slice(a.start_index, a.end_index)).toBe(`[${a.order}]`);
    expect(r.usage!.total_tokens).toBeGreaterThan(0);
    expect(r._request_id).toMatch(/^req_/);
  });

  it('responses.create with stream: true yields the full typed event sequence', async () => {
    const client = make() as OpenAI6;
    const stream = await client.responses.create({ model: 'svc-test', input: 'q', stream: true });
    const types: string[] = [];
    let text = '';
    let completed: any;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types[1]).toBe('response.in_progress');
    expect(types.at(-1)).toBe('response.completed');
    expect(text).toBe(TEXT);
    expect(completed.citations).toEqual(CITATIONS);
  });

  it('responses.stream().finalResponse() accumulates the same response', async () => {
    const client = make() as OpenAI6;
    const final = await client.responses.stream({ model: 'svc-test', input: 'q' }).finalResponse();
    expect(final.output_text).toBe(TEXT);
    const content = (final.output[0] as OpenAI6.Responses.ResponseOutputMessage).content[0] as OpenAI6.Responses.ResponseOutputText;
    expect(content.annotations.map((a: any) => a.order)).toEqual([1, 2]);
  });

  it('chat.completions.create returns the message with nested url_citation annotations', async () => {
    const client = make() as OpenAI6;
    const c = await client.chat.completions.create({ model: 'svc-test', messages: [{ role: 'user', content: 'q' }] });
    expect(c.choices[0]!.message.content).toBe(TEXT);
    expect(c.choices[0]!.finish_reason).toBe('stop');
    const ann = c.choices[0]!.message.annotations as any[];
    expect(ann.map((a) => a.url_citation.url)).toEqual(CITATIONS.map((x) => x.url));
    expect((c.choices[0] as any).citations).toEqual(CITATIONS);
    expect(c.usage!.total_tokens).toBeGreaterThan(0);
  });

  it('chat.completions.create stream: true ends with a finish chunk carrying citations', async () => {
    const client = make() as OpenAI6;
    const stream = await client.chat.completions.create({ model: 'svc-test', messages: [{ role: 'user', content: 'q' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let finish: any;
    let usage: any;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      text += choice.delta.content ?? '';
      if (choice.finish_reason) finish = choice;
    }
    expect(text).toBe(TEXT);
    expect(finish.finish_reason).toBe('stop');
    expect(finish.citations).toEqual(CITATIONS);
    expect(usage.completion_tokens).toBeGreaterThan(0);
  });

  it('chat.completions.stream().finalChatCompletion() accumulates the answer', async () => {
    const client = make() as OpenAI6;
    const final = await client.chat.completions.stream({ model: 'svc-test', messages: [{ role: 'user', content: 'q' }] }).finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe(TEXT);
    expect(final.choices[0]!.finish_reason).toBe('stop');
  });

  it('a failure mid-stream surfaces as an APIError on both endpoints', async () => {
    const client = make() as OpenAI6;
    const drain = async (iter: AsyncIterable<unknown>) => {
      for await (const _ of iter);
    };
    await expect(drain(await client.responses.create({ model: 'svc-broken', input: 'q', stream: true }))).rejects.toBeInstanceOf(SDK.APIError);
    await expect(drain(await client.chat.completions.create({ model: 'svc-broken', messages: [{ role: 'user', content: 'q' }], stream: true }))).rejects.toBeInstanceOf(
      SDK.APIError,
    );
  });

  it('an exception thrown mid-stream ends both streams with a 500-class error naming nothing internal, after the text sent', async () => {
    const client = make() as OpenAI6;
    const events: string[] = [];
    let text = '';
    const err = await (async () => {
      for await (const e of await client.responses.create({ model: 'svc-crash', input: 'q', stream: true })) {
        events.push(e.type);
        if (e.type === 'response.output_text.delta') text += e.delta;
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SDK.APIError);
    expect(text).toBe('Partial answer ');
    expect(String((err as Error).message)).not.toMatch(/secret_internal|TypeError|at \//);
    expect(events).toContain('response.output_text.delta');

    const raw = await fetch(`${svc.baseURL}/responses`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'svc-crash', input: 'q', stream: true }) });
    const body = await raw.text();
    expect(body).not.toMatch(/secret_internal|TypeError/);
    const frames = body.split('\n\n').filter((f) => f.startsWith('event:')).map((f) => /^event: (.+)$/m.exec(f)![1]);
    expect(frames.slice(-2)).toEqual(['error', 'response.failed']);
    const failed = JSON.parse(/^data: (.+)$/m.exec(body.split('\n\n').filter((f) => f.startsWith('event: response.failed'))[0]!)![1]!);
    expect(failed.response).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
    // The text sent before the failure stays in the failed response's output.
    expect(JSON.stringify(failed.response.output)).toContain('Partial answer ');

    let chatText = '';
    const chatErr = await (async () => {
      for await (const c of await client.chat.completions.create({ model: 'svc-crash', messages: [{ role: 'user', content: 'q' }], stream: true })) chatText += c.choices[0]?.delta?.content ?? '';
    })().catch((e: unknown) => e);
    expect(chatErr).toBeInstanceOf(SDK.APIError);
    expect(chatText).toBe('Partial answer ');
    expect(String((chatErr as Error).message)).not.toMatch(/secret_internal|TypeError/);
  });

  it.each(ERROR_AGENTS)('maps %s to the SDK exception class of HTTP %i', async (_kind, code, status) => {
    const client = make() as OpenAI6;
    const expected: Record<number, unknown> = {
      400: SDK.BadRequestError,
      402: SDK.APIError,
      403: SDK.PermissionDeniedError,
      404: SDK.NotFoundError,
      409: SDK.ConflictError,
      422: SDK.UnprocessableEntityError,
      429: SDK.RateLimitError,
      500: SDK.InternalServerError,
      502: SDK.InternalServerError,
    };
    for (const stream of [false, true]) {
      const err = await client.responses.create({ model: `svc-fail-${code}`, input: 'q', stream }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(expected[status] as any);
      expect(err).toMatchObject({ status, code });
      const chatErr = await client.chat.completions.create({ model: `svc-fail-${code}`, messages: [{ role: 'user', content: 'q' }], stream }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(chatErr).toBeInstanceOf(expected[status] as any);
    }
  });

  it("a conversation holding the caller's own tool calls and their results is answered, those passed over", async () => {
    // Either major: the two SDKs' unions of overloads are not callable as one.
    const client = make() as unknown as OpenAI6;
    const chat = await client.chat.completions.create({
      model: 'svc-turns',
      messages: [
        { role: 'user', content: 'Apple revenue?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"AAPL"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"revenue":1}' },
        { role: 'assistant', content: 'It was 1.' },
        { role: 'user', content: 'And Microsoft?' },
      ],
    });
    expect(chat.choices[0]!.message.content).toBe('user: Apple revenue? | assistant:  | assistant: It was 1. | user: And Microsoft?');
    // The content of a turn that called tools may be left out, as OpenAI allows.
    const omitted = await client.chat.completions.create({
      model: 'svc-turns',
      messages: [
        { role: 'user', content: 'Apple revenue?' },
        { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"AAPL"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"revenue":1}' },
        { role: 'user', content: 'And Microsoft?' },
      ],
    });
    expect(omitted.choices[0]!.message.content).toBe('user: Apple revenue? | assistant:  | user: And Microsoft?');
    const r = await client.responses.create({
      model: 'svc-turns',
      input: [
        { role: 'user', content: 'Apple revenue?' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"revenue":1}' },
        { role: 'assistant', content: 'It was 1.' },
        { role: 'user', content: 'And Microsoft?' },
      ] as any,
    });
    expect(r.output_text).toBe('user: Apple revenue? | assistant: It was 1. | user: And Microsoft?');
  });

  it('a bad key is an AuthenticationError', async () => {
    const client = new SDK({ baseURL: svc.baseURL, apiKey: 'sk-svc-not-a-real-key-000000000', maxRetries: 0 }) as unknown as OpenAI6;
    await expect(client.responses.create({ model: 'svc-test', input: 'q' })).rejects.toBeInstanceOf(SDK.AuthenticationError);
  });

  it('models.list pages through the agents', async () => {
    const client = make() as OpenAI6;
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toContain('svc-test');
    const one = await client.models.retrieve('svc-test');
    expect(one.id).toBe('svc-test');
  });
});

const AI_SDKS = [
  ['AI SDK 5 + @ai-sdk/openai 2', () => createOpenAI2({ baseURL: svc.baseURL, apiKey }), generateText5, streamText5],
  ['AI SDK 6 + @ai-sdk/openai 3', () => createOpenAI3({ baseURL: svc.baseURL, apiKey }), generateText6, streamText6],
  ['AI SDK 7 + @ai-sdk/openai 4', () => createOpenAI4({ baseURL: svc.baseURL, apiKey }), generateText7, streamText7],
] as const;

describe.each(AI_SDKS)('%s', (_name, makeProvider, generateText, streamText) => {
  const apis = ['responses', 'chat'] as const;

  it.each(apis)('generateText over openai.%s() returns the text, finishReason stop and the sources', async (api) => {
    const provider = makeProvider() as any;
    const result = await (generateText as any)({ model: provider[api]('svc-test'), prompt: 'What was Apple revenue?' });
    expect(result.text).toBe(TEXT);
    expect(result.finishReason).toBe('stop');
    const urls = result.sources.map((s: any) => s.url);
    expect(urls).toEqual(expect.arrayContaining(CITATIONS.map((c) => c.url)));
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it.each(apis)('streamText over openai.%s() streams with no error parts, finishReason stop, sources', async (api) => {
    const provider = makeProvider() as any;
    const result = (streamText as any)({ model: provider[api]('svc-test'), prompt: 'What was Apple revenue?' });
    const parts: any[] = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(parts.filter((p) => p.type === 'error')).toEqual([]);
    const text = parts.filter((p) => p.type === 'text-delta').map((p) => p.text ?? p.textDelta ?? p.delta).join('');
    expect(text).toBe(TEXT);
    expect(await result.finishReason).toBe('stop');
    const sources = parts.filter((p) => p.type === 'source');
    expect(sources.map((s) => s.url)).toEqual(expect.arrayContaining(CITATIONS.map((c) => c.url)));
  });

  it.each(apis)('a history with a tool call and its result over openai.%s() is answered', async (api) => {
    const provider = makeProvider() as any;
    const result = await (generateText as any)({
      model: provider[api]('svc-turns'),
      messages: [
        { role: 'user', content: 'Apple revenue?' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: { q: 'AAPL' }, args: { q: 'AAPL' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'lookup', output: { type: 'text', value: '1' }, result: '1' }] },
        { role: 'user', content: 'And Microsoft?' },
      ],
    });
    expect(result.text).toMatch(/^user: Apple revenue\? \| .*user: And Microsoft\?$/);
    expect(result.finishReason).toBe('stop');
  });

  it.each(apis)('a plain answer over openai.%s() has no sources and still finishes with stop', async (api) => {
    const provider = makeProvider() as any;
    const result = await (generateText as any)({ model: provider[api]('svc-plain'), prompt: 'hello' });
    expect(result.text).toBe('No sources needed.');
    expect(result.finishReason).toBe('stop');
    expect(result.sources).toEqual([]);
  });

  it.each(apis)('a mid-stream failure over openai.%s() becomes an error part, not a silent success', async (api) => {
    const provider = makeProvider() as any;
    const result = (streamText as any)({ model: provider[api]('svc-broken'), prompt: 'q', onError: () => {} });
    const parts: any[] = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(parts.some((p) => p.type === 'error')).toBe(true);
  });
});

// The generic provider for OpenAI-compatible servers reads chat completions only, and no citations
// (it has no notion of annotations): the text, with its [n] markers, must still come through intact.
describe('AI SDK 6 + @ai-sdk/openai-compatible 2 (chat)', () => {
  const model = (id: string) => createOpenAICompatible({ name: 'svc', baseURL: svc.baseURL, apiKey, includeUsage: true }).chatModel(id);

  it('generateText returns the text, finishReason stop and usage', async () => {
    const result = await generateText6({ model: model('svc-test'), prompt: 'What was Apple revenue?' });
    expect(result.text).toBe(TEXT);
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('streamText streams the text with no error parts and finishes with stop', async () => {
    const result = streamText6({ model: model('svc-test'), prompt: 'What was Apple revenue?' });
    const parts: any[] = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(parts.filter((p) => p.type === 'error')).toEqual([]);
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.text).join('')).toBe(TEXT);
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
  });

  it('a mid-stream failure becomes an error part', async () => {
    const result = streamText6({ model: model('svc-broken'), prompt: 'q', onError: () => {} });
    const parts: any[] = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(parts.some((p) => p.type === 'error')).toBe(true);
  });

  it.each(ERROR_AGENTS)('a %s error before the stream is an APICallError with status %s and our message', async (_kind, code, status) => {
    const err = await generateText6({ model: model(`svc-fail-${code}`), prompt: 'q', maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ statusCode: status, message: `scripted ${code}` });
  });
});
