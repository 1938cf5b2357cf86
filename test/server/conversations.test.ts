import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agents/types.js';
import { SvcError } from '../../src/errors.js';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

/** Says what it was given, so a test sees the turns a conversation supplied; cites one source. */
const echo = scriptedAgent('svc-echo', (req) =>
  answer(`Seen: ${req.messages.map((m) => `${m.role}:${m.content}`).join(' | ')}${req.instructions ? ` || ${req.instructions}` : ''} [1]`, [{ order: 1, name: 'Source', url: 'https://s.example/1' }]),
);
const failing = scriptedAgent('svc-failing', async function* (): AsyncGenerator<AgentEvent> {
  yield { type: 'text', delta: 'Half an answer' };
  throw new SvcError('upstream', { code: 'upstream_error', message: 'The exchange did not answer.' });
});

afterAll(() => dropTestSchemas());

type ApiError = InstanceType<typeof OpenAI.APIError>;
const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ApiError);
const textOf = (item: unknown) => (item as { content: { text: string }[] }).content.map((c) => c.text).join('');

describeBackends('conversations', (backend) => {
  let svc: TestService;
  let client: OpenAI;
  let stranger: OpenAI;

  beforeAll(async () => {
    svc = await startService({ agents: [echo, failing], env: await backend.env() });
    client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
    stranger = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
  });
  afterAll(() => svc.close());

  it('creates a conversation with first items and metadata, reads it back, and lists its items newest first by default', async () => {
    const conv = await client.conversations.create({
      metadata: { desk: 'rates' },
      items: [
        { type: 'message', role: 'system', content: 'Answer briefly.' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fed in December?' }] },
      ],
    });
    expect(conv).toMatchObject({ object: 'conversation', metadata: { desk: 'rates' } });
    expect(conv.id).toMatch(/^conv_/);
    expect(Math.abs(conv.created_at - Date.now() / 1000)).toBeLessThan(60);
    expect(await client.conversations.retrieve(conv.id)).toEqual(conv);
    const items = await client.conversations.items.list(conv.id);
    expect(items.data.map(textOf)).toEqual(['Fed in December?', 'Answer briefly.']);
    expect(items.data[0]).toMatchObject({ type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'Fed in December?' }] });
    const asc = await client.conversations.items.list(conv.id, { order: 'asc' });
    expect(asc.data.map((i) => (i as { role: string }).role)).toEqual(['system', 'user']);
    // A conversation created with no arguments at all (the SDK sends no body).
    expect(await client.conversations.create()).toMatchObject({ object: 'conversation', metadata: {} });
  });

  it('gives a response the conversation as context, then holds its input and its answer under the ids the response uses', async () => {
    const conv = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'first question' }, { type: 'message', role: 'assistant', content: 'first answer' }] });
    const r1 = await client.responses.create({ model: 'svc-echo', conversation: conv.id, input: 'second question' });
    expect(r1.output_text).toBe('Seen: user:first question | assistant:first answer | user:second question [1]');
    expect((r1 as unknown as { conversation: unknown }).conversation).toEqual({ id: conv.id });
    const r2 = await client.responses.create({ model: 'svc-echo', conversation: { id: conv.id }, input: [{ role: 'developer', content: 'Be exact.' }, { role: 'user', content: 'third question' }] });
    expect(r2.output_text).toBe(`Seen: user:first question | assistant:first answer | user:second question | assistant:${r1.output_text} | user:third question || Be exact. [1]`);

    const items = [];
    for await (const item of client.conversations.items.list(conv.id, { order: 'asc', limit: 2 })) items.push(item);
    expect(items.map((i) => (i as { role: string }).role)).toEqual(['user', 'assistant', 'user', 'assistant', 'developer', 'user', 'assistant']);
    // The answer is the response's own output item, sources as annotations; the input keeps the id input_items lists it under.
    expect(items[3]).toEqual(r1.output[0]);
    const inputItems = await client.responses.inputItems.list(r1.id, { order: 'asc' });
    expect(inputItems.data.at(-1)!.id).toBe(items[2]!.id);
    expect(await client.conversations.items.retrieve(items[3]!.id!, { conversation_id: conv.id })).toEqual(r1.output[0]);
  });

  it('holds a streamed turn before its client reads response.completed', async () => {
    const conv = await client.conversations.create();
    const stream = await client.responses.create({ model: 'svc-echo', conversation: conv.id, input: 'streamed question', stream: true });
    let completedId = '';
    for await (const event of stream) {
      if (event.type === 'response.completed') {
        completedId = event.response.output[0]!.id!;
        const items = await client.conversations.items.list(conv.id, { order: 'asc' });
        expect(items.data.map(textOf)).toEqual(['streamed question', 'Seen: user:streamed question [1]']);
        expect(items.data[1]!.id).toBe(completedId);
      }
    }
    expect(completedId).not.toBe('');
  });

  it('a background response extends the conversation when it completes', async () => {
    const conv = await client.conversations.create();
    const started = await client.responses.create({ model: 'svc-echo', conversation: conv.id, input: 'in the background', background: true });
    let status = started.status;
    for (let i = 0; i < 100 && status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await client.responses.retrieve(started.id)).status;
    }
    expect(status).toBe('completed');
    await expect.poll(async () => (await client.conversations.items.list(conv.id)).data.map(textOf)).toEqual(['Seen: user:in the background [1]', 'in the background']);
  });

  it('a response that fails adds nothing; a conversation that is unknown, another account’s or combined with previous_response_id is refused, naming conversation', async () => {
    const conv = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'kept' }] });
    expect(await failure(client.responses.create({ model: 'svc-failing', conversation: conv.id, input: 'q' }))).toMatchObject({ status: 502 });
    const stream = await client.responses.create({ model: 'svc-failing', conversation: conv.id, input: 'q', stream: true });
    const types: string[] = [];
    const streamed = await (async () => {
      for await (const e of stream) types.push(e.type);
    })().then(() => null, (e: unknown) => e);
    expect(streamed).toBeInstanceOf(OpenAI.APIError); // the SDK throws on the stream's error event
    expect(types).toContain('response.in_progress');
    expect((await client.conversations.items.list(conv.id)).data.map(textOf)).toEqual(['kept']);

    const unknown = await failure(client.responses.create({ model: 'svc-echo', conversation: 'conv_nope', input: 'q' }));
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect(unknown).toMatchObject({ code: 'conversation_not_found', param: 'conversation' });
    expect(await failure(stranger.responses.create({ model: 'svc-echo', conversation: conv.id, input: 'q' }))).toBeInstanceOf(OpenAI.NotFoundError);
    const prev = await client.responses.create({ model: 'svc-echo', input: 'q' });
    expect(await failure(client.responses.create({ model: 'svc-echo', conversation: conv.id, previous_response_id: prev.id, input: 'q' }))).toMatchObject({ status: 400, param: 'conversation' });
    expect(await failure(client.responses.create({ model: 'svc-echo', conversation: 42 as unknown as string, input: 'q' }))).toMatchObject({ status: 400, param: 'conversation' });
  });

  it('adds, reads and deletes items; updates metadata; deletes the conversation, after which it and its items are gone', async () => {
    const conv = await client.conversations.create({ metadata: { a: '1' } });
    const added = await client.conversations.items.create(conv.id, { items: [{ type: 'message', role: 'user', content: 'one' }, { type: 'message', role: 'assistant', content: 'two' }] });
    expect(added).toMatchObject({ object: 'list', has_more: false });
    expect(added.data.map(textOf)).toEqual(['one', 'two']);
    expect(added.data[1]).toMatchObject({ role: 'assistant', content: [{ type: 'output_text', text: 'two', annotations: [] }] });
    const afterDelete = await client.conversations.items.delete(added.data[0]!.id!, { conversation_id: conv.id });
    expect(afterDelete).toMatchObject({ id: conv.id, object: 'conversation' });
    expect((await client.conversations.items.list(conv.id)).data.map(textOf)).toEqual(['two']);
    expect(await failure(client.conversations.items.retrieve(added.data[0]!.id!, { conversation_id: conv.id }))).toMatchObject({ status: 404, param: 'item_id' });
    expect(await client.conversations.update(conv.id, { metadata: { b: '2' } })).toMatchObject({ metadata: { b: '2' } });
    expect((await client.conversations.update(conv.id, { metadata: null })).metadata).toEqual({});
    expect(await failure(stranger.conversations.retrieve(conv.id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(stranger.conversations.delete(conv.id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await client.conversations.delete(conv.id)).toEqual({ id: conv.id, object: 'conversation.deleted', deleted: true });
    expect(await failure(client.conversations.retrieve(conv.id))).toMatchObject({ status: 404, code: 'conversation_not_found', param: 'conversation_id' });
    expect(await failure(client.conversations.items.list(conv.id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(client.responses.create({ model: 'svc-echo', conversation: conv.id, input: 'q' }))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('pages on past items deleted meanwhile (delete while iterating)', async () => {
    const conv = await client.conversations.create({ items: Array.from({ length: 7 }, (_, i) => ({ type: 'message' as const, role: 'user' as const, content: `m${i}` })) });
    let deleted = 0;
    for await (const item of client.conversations.items.list(conv.id, { limit: 3 })) {
      await client.conversations.items.delete(item.id!, { conversation_id: conv.id });
      deleted++;
    }
    expect(deleted).toBe(7);
    expect((await client.conversations.items.list(conv.id)).data).toEqual([]);
  });

  it('keeps messages sent by item_reference too, and resolves an item_reference to a conversation’s own item', async () => {
    const first = await client.responses.create({ model: 'svc-echo', input: 'stored question' });
    const sent = (await client.responses.inputItems.list(first.id)).data[0]!.id;
    const conv = await client.conversations.create();
    const r = await client.responses.create({ model: 'svc-echo', conversation: conv.id, input: [{ type: 'item_reference', id: sent }, { type: 'item_reference', id: first.output[0]!.id! }, { role: 'user', content: 'follow-up' }] });
    expect(r.output_text).toBe(`Seen: user:stored question | assistant:${first.output_text} | user:follow-up [1]`);
    const items = (await client.conversations.items.list(conv.id, { order: 'asc' })).data;
    expect(items.map((i) => i.id)).toEqual([sent, first.output[0]!.id, expect.stringMatching(/^msg_in_/), r.output[0]!.id]);
    // The earlier answer keeps its sources in the conversation.
    expect(items[1]).toMatchObject({ role: 'assistant', content: [{ type: 'output_text', annotations: [expect.objectContaining({ type: 'url_citation', url: 'https://s.example/1' })] }] });
    // A conversation's item, named by item_reference in another request.
    const other = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'from a conversation' }] });
    const itemId = (await client.conversations.items.list(other.id)).data[0]!.id!;
    expect((await client.responses.create({ model: 'svc-echo', input: [{ type: 'item_reference', id: itemId }] })).output_text).toBe('Seen: user:from a conversation [1]');
    expect(await failure(stranger.responses.create({ model: 'svc-echo', input: [{ type: 'item_reference', id: itemId }] }))).toMatchObject({ status: 400, code: 'item_not_found' });
  });

  it('answers the conversation’s last message when the request has no input of its own; one ending in an answer is a 400 naming input', async () => {
    const conv = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'added first' }] });
    const r = await client.responses.create({ model: 'svc-echo', conversation: conv.id } as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    expect(r.output_text).toBe('Seen: user:added first [1]');
    expect((await client.conversations.items.list(conv.id)).data.map(textOf)).toEqual(['Seen: user:added first [1]', 'added first']);
    expect(await failure(client.responses.create({ model: 'svc-echo', conversation: conv.id, input: [] }))).toMatchObject({ status: 400, code: 'empty_input', param: 'input' });
    expect(await failure(client.responses.create({ model: 'svc-echo', input: [] }))).toMatchObject({ status: 400, param: 'input' });
  });

  it('keeps an item’s content parts as sent', async () => {
    const conv = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'part one' }, { type: 'input_text', text: 'part two' }] }] });
    expect((await client.conversations.items.list(conv.id)).data[0]).toMatchObject({ content: [{ type: 'input_text', text: 'part one' }, { type: 'input_text', text: 'part two' }] });
    expect((await client.responses.create({ model: 'svc-echo', conversation: conv.id, input: 'q' })).output_text).toBe('Seen: user:part one\npart two | user:q [1]');
  });

  it('over the size limit, leaves out the oldest items with truncation: "auto", and is a 400 naming conversation without it', async () => {
    const conv = await client.conversations.create();
    const big = 'x'.repeat(60_000);
    for (let batch = 0; batch < 2; batch++) {
      await client.conversations.items.create(conv.id, { items: Array.from({ length: 10 }, (_, i) => ({ type: 'message' as const, role: 'user' as const, content: `${batch * 10 + i}:${big}` })) });
    }
    expect(await failure(client.responses.create({ model: 'svc-echo', conversation: conv.id, input: 'q' }))).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'conversation' });
    const r = await client.responses.create({ model: 'svc-echo', conversation: conv.id, input: 'q', truncation: 'auto' });
    // 20 items of 60,002 characters: the 3 oldest go, and the rest fits within 1,048,576.
    expect(r.output_text.startsWith(`Seen: user:3:${big} | user:4:`)).toBe(true);
    expect(r.output_text.length).toBeLessThan(1_048_576 + 200);
    expect(r.output_text).toContain('| user:q [1]');
  });

  it('works as the AI SDK’s conversation option', async () => {
    const conv = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'earlier' }] });
    const openai = createOpenAI({ baseURL: svc.baseURL, apiKey: client.apiKey! });
    const result = await generateText({ model: openai.responses('svc-echo'), prompt: 'now', providerOptions: { openai: { conversation: conv.id } } });
    expect(result.text).toBe('Seen: user:earlier | user:now [1]');
    expect(result.finishReason).toBe('stop');
    expect((await client.conversations.items.list(conv.id)).data).toHaveLength(3);
  });

  it('answers wrong items and parameters with a 400 naming them', async () => {
    const conv = await client.conversations.create();
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${svc.baseURL}${path}`, { method, headers: { authorization: `Bearer ${client.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const cases: [Promise<Response>, number, string][] = [
      [call('POST', '/conversations', { items: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }] }), 400, 'items[0].type'],
      [call('POST', '/conversations', { items: [{ role: 'tool', content: 'x' }] }), 400, 'items[0].role'],
      [call('POST', '/conversations', { items: [{ role: 'user' }] }), 400, 'items[0].content'],
      [call('POST', '/conversations', { items: [{ role: 'user', content: [{ type: 'input_image', image_url: 'x' }] }] }), 400, 'items[0].content[0].type'],
      [call('POST', '/conversations', { items: Array.from({ length: 21 }, () => ({ role: 'user', content: 'x' })) }), 400, 'items'],
      [call('POST', '/conversations', { items: 'hello' }), 400, 'items'],
      [call('POST', '/conversations', { metadata: { k: 1 } }), 400, 'metadata.k'],
      [call('POST', '/conversations', { title: 'x' }), 400, 'title'],
      [call('POST', `/conversations/${conv.id}`, {}), 400, 'metadata'],
      [call('POST', `/conversations/${conv.id}/items`, {}), 400, 'items'],
      [call('POST', `/conversations/${conv.id}/items`, { items: [] }), 400, 'items'],
      [call('GET', `/conversations/${conv.id}/items?limit=0`), 400, 'limit'],
      [call('GET', `/conversations/${conv.id}/items?order=up`), 400, 'order'],
      [call('GET', `/conversations/${conv.id}/items?after=msg_nope`), 400, 'after'],
      [call('DELETE', `/conversations/${conv.id}/items/msg_nope`), 404, 'item_id'],
      [call('GET', '/conversations/conv_nope'), 404, 'conversation_id'],
      [call('POST', '/responses', { model: 'svc-echo', conversation: 'c'.repeat(300), input: 'q' }), 400, 'conversation'],
      [call('POST', '/responses', { model: 'svc-echo', conversation: { id: conv.id, foo: 1 }, input: 'q' }), 400, 'conversation.foo'],
    ];
    for (const [res, status, param] of cases) {
      const r = await res;
      const body = (await r.json()) as { error: { param: string; message: string } };
      expect({ url: r.url, status: r.status, param: body.error.param }).toEqual({ url: r.url, status, param });
      expect(body.error.message.length).toBeGreaterThan(20);
    }
  });
});
