import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agents/types.js';
import { inProgressRow } from '../helpers/response-params.js';
import { answer, scriptedAgent, sleep } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';
import { post, readSse } from '../helpers/sse.js';

/** Answers with what it saw, so tests can check the conversation a request produced. */
const echo = scriptedAgent('svc-echo', (req) => answer(JSON.stringify({ messages: req.messages, instructions: req.instructions })));

let release: () => void = () => {};
const gated = scriptedAgent('svc-gated', async function* (): AsyncGenerator<AgentEvent> {
  yield { type: 'text', delta: 'first part, ' };
  await new Promise<void>((r) => (release = r));
  yield { type: 'text', delta: 'second part.' };
  yield { type: 'done' };
});

const slow = scriptedAgent('svc-slow', async function* (): AsyncGenerator<AgentEvent> {
  for (let i = 0; i < 10; i++) {
    yield { type: 'text', delta: `chunk ${i}. ` };
    await sleep(30);
  }
  yield { type: 'done' };
});

const cited = scriptedAgent('svc-test', () => answer('Answer [1].', [{ order: 1, name: 'Source', url: 'https://s.example/1' }]));

/** Every run waits until the test opens the gate. */
let openGate: () => void = () => {};
let gate = new Promise<void>((r) => (openGate = r));
const held = scriptedAgent('svc-held', async function* (): AsyncGenerator<AgentEvent> {
  await gate;
  yield* answer('let go');
});
// The same, saying first that it works (so a stream of it opens at once).
const heldTalking = scriptedAgent('svc-held-talking', async function* (): AsyncGenerator<AgentEvent> {
  yield { type: 'progress', message: 'waiting' };
  await gate;
  yield* answer('let go');
});
const agents = [echo, gated, slow, cited, held, heldTalking];

let svc: TestService;
let key: string;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({ agents });
  key = (await svc.account()).apiKey;
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: key, maxRetries: 0 });
});
afterAll(() => svc.close());

describe('stored responses', () => {
  it('GET /v1/responses/{id} returns the same Response object', async () => {
    const created = await client.responses.create({ model: 'svc-test', input: 'q' });
    const fetched = await client.responses.retrieve(created.id);
    expect(fetched).toEqual(created);
  });

  it('echoes the text verbosity asked for (medium when none), stored with the response; an unknown one is 400 naming text.verbosity', async () => {
    const low = await client.responses.create({ model: 'svc-test', input: 'q', text: { verbosity: 'low' } });
    expect(low.text?.verbosity).toBe('low');
    expect((await client.responses.retrieve(low.id)).text?.verbosity).toBe('low');
    expect((await client.responses.create({ model: 'svc-test', input: 'q' })).text?.verbosity).toBe('medium');
    const bad = await client.responses.create({ model: 'svc-test', input: 'q', text: { verbosity: 'loud' as 'low' } }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('text.verbosity');
  });

  it('echoes the tool and routing fields as sent (the agents call no tools), stored and streamed alike; defaults otherwise', async () => {
    const tools = [{ type: 'function' as const, name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false }];
    const asked = {
      tools,
      tool_choice: 'none' as const,
      parallel_tool_calls: false,
      truncation: 'auto' as const,
      reasoning: { effort: 'high' as const },
      prompt_cache_key: 'cache-1',
      safety_identifier: 'user-hash-1',
    };
    const echoed = { tools, tool_choice: 'none', parallel_tool_calls: false, truncation: 'auto', reasoning: { effort: 'high', summary: null }, prompt_cache_key: 'cache-1', safety_identifier: 'user-hash-1' };
    const plain = await client.responses.create({ model: 'svc-test', input: 'q', ...asked });
    expect(plain).toMatchObject(echoed);
    expect(await client.responses.retrieve(plain.id)).toEqual(plain);
    const streamed = await client.responses.stream({ model: 'svc-test', input: 'q', ...asked }).finalResponse();
    expect(streamed).toMatchObject(echoed);
    const allowed = { type: 'allowed_tools' as const, mode: 'auto' as const, tools: [{ type: 'function', name: 'lookup' }] };
    const named = await client.responses.create({ model: 'svc-test', input: 'q', tools, tool_choice: allowed });
    expect(named.tool_choice).toEqual(allowed);
    // A call forced ('required', a named tool) cannot be honoured: refused before anything runs or is charged.
    const forced = await client.responses.create({ model: 'svc-test', input: 'q', tools, tool_choice: { type: 'function', name: 'lookup' } }).catch((e: unknown) => e);
    expect(forced).toBeInstanceOf(OpenAI.BadRequestError);
    expect((forced as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('tool_choice');
    expect(await client.responses.create({ model: 'svc-test', input: 'q' })).toMatchObject({ tools: [], tool_choice: 'auto', parallel_tool_calls: true, truncation: 'disabled', reasoning: null, prompt_cache_key: null, safety_identifier: null });
  });

  it('replays a stream byte for byte, and from starting_after', async () => {
    const original = await readSse(await post(`${svc.baseURL}/responses`, key, { model: 'svc-test', input: 'q', stream: true }));
    const id = (JSON.parse(original.frames[0]!.data) as { response: { id: string } }).response.id;
    const replay = await readSse(await fetch(`${svc.baseURL}/responses/${id}?stream=true`, { headers: { authorization: `Bearer ${key}` } }));
    expect(replay.frames).toEqual(original.frames);
    const tail = await readSse(await fetch(`${svc.baseURL}/responses/${id}?stream=true&starting_after=4`, { headers: { authorization: `Bearer ${key}` } }));
    expect(tail.frames).toEqual(original.frames.slice(5));
    expect(JSON.parse(tail.frames[0]!.data).sequence_number).toBe(5);
  });

  it('replays a non-streamed response as a stream too', async () => {
    const created = await client.responses.create({ model: 'svc-test', input: 'q' });
    const resumed = await client.responses.stream({ response_id: created.id }).finalResponse();
    expect(resumed.output_text).toBe(created.output_text);
  });

  it('a reader joining a running response gets what was sent and then follows it live', async () => {
    const first = await post(`${svc.baseURL}/responses`, key, { model: 'svc-gated', input: 'q', stream: true });
    const reader = first.body!.getReader();
    let head = '';
    while (!head.includes('first part')) head += new TextDecoder().decode((await reader.read()).value);
    const id = /"id":"(resp_[^"]+)"/.exec(head)![1]!;
    const following = fetch(`${svc.baseURL}/responses/${id}?stream=true&starting_after=1`, { headers: { authorization: `Bearer ${key}` } }).then(readSse);
    await sleep(100);
    release();
    const followed = await following;
    const types = followed.frames.map((f) => f.event);
    expect(types[0]).toBe('response.output_item.added');
    expect(types.at(-1)).toBe('response.completed');
    expect(followed.raw).toContain('second part.');
    await reader.cancel();
  });

  it('a stored stream keeps running when its client leaves, and can be resumed', async () => {
    const ctrl = new AbortController();
    const res = await post(`${svc.baseURL}/responses`, key, { model: 'svc-slow', input: 'q', stream: true });
    const reader = res.body!.getReader();
    const head = new TextDecoder().decode((await reader.read()).value);
    const id = /"id":"(resp_[^"]+)"/.exec(head)![1]!;
    await reader.cancel();
    ctrl.abort();
    await sleep(500);
    const resumed = await client.responses.stream({ response_id: id, starting_after: 2 }).finalResponse();
    expect(resumed.status).toBe('completed');
    expect(resumed.output_text).toBe(Array.from({ length: 10 }, (_, i) => `chunk ${i}. `).join(''));
  });

  it('store: false leaves nothing to fetch', async () => {
    const created = await client.responses.create({ model: 'svc-test', input: 'q', store: false });
    await expect(client.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("one account cannot see another's responses", async () => {
    const created = await client.responses.create({ model: 'svc-test', input: 'q' });
    const other = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
    await expect(other.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(other.responses.create({ model: 'svc-echo', input: 'q', previous_response_id: created.id })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('previous_response_id continues the conversation without earlier instructions', async () => {
    const first = await client.responses.create({ model: 'svc-echo', input: 'What was Apple revenue in Q3 2024?', instructions: 'be brief' });
    const second = await client.responses.create({ model: 'svc-echo', input: 'and the quarter before?', previous_response_id: first.id });
    const seen = JSON.parse(second.output_text) as { messages: { role: string; content: string }[]; instructions: string | null };
    expect(seen.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(seen.messages[0]!.content).toBe('What was Apple revenue in Q3 2024?');
    expect(seen.messages[1]!.content).toBe(first.output_text);
    expect(seen.messages[2]!.content).toBe('and the quarter before?');
    expect(seen.instructions).toBeNull();
    expect(second.previous_response_id).toBe(first.id);
  });

  it('a previous_response_id chain stops growing at 1,048,576 characters with 400 context_length_exceeded', async () => {
    const big = 'word '.repeat(120_000); // 600,000 characters
    const first = await client.responses.create({ model: 'svc-test', input: big });
    const second = await post(`${svc.baseURL}/responses`, key, { model: 'svc-test', input: big, previous_response_id: first.id });
    expect(second.status).toBe(400);
    const err = ((await second.json()) as any).error;
    expect(err).toMatchObject({ code: 'context_length_exceeded', param: 'previous_response_id', type: 'invalid_request_error' });
    expect(err.message).toContain('1,200,011 characters');
    // Under the limit, it continues.
    const small = await client.responses.create({ model: 'svc-test', input: 'and then?', previous_response_id: first.id });
    expect(small.status).toBe('completed');
  });

  it('input arrays: system/developer messages become instructions, turns keep their order', async () => {
    const r = await client.responses.create({
      model: 'svc-echo',
      instructions: 'top',
      input: [
        { role: 'developer', content: 'dev note' },
        { role: 'user', content: [{ type: 'input_text', text: 'part one' }, { type: 'input_text', text: 'part two' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'earlier answer', annotations: [] }] } as any,
        { role: 'user', content: 'follow-up' },
      ],
    });
    const seen = JSON.parse(r.output_text);
    expect(seen.instructions).toBe('top\n\ndev note');
    // The response echoes the request's own `instructions`, not the developer message joined in.
    expect(r.instructions).toBe('top');
    expect(((await client.responses.retrieve(r.id)) as any).instructions).toBe('top');
    expect(seen.messages).toEqual([
      { role: 'user', content: 'part one\npart two' },
      { role: 'assistant', content: 'earlier answer' },
      { role: 'user', content: 'follow-up' },
    ]);
  });

  it("keeps the input's developer and system messages in the conversation: listed by input_items and carried on by previous_response_id (the instructions field is not)", async () => {
    const first = await client.responses.create({
      model: 'svc-echo',
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Always answer in French.' },
        { role: 'user', content: 'q1' },
        { role: 'system', content: 'Cite everything.' },
      ],
    });
    expect(JSON.parse(first.output_text)).toEqual({ messages: [{ role: 'user', content: 'q1' }], instructions: 'Be brief.\n\nAlways answer in French.\n\nCite everything.' });
    const items = await client.responses.inputItems.list(first.id, { order: 'asc' });
    expect(items.data.map((i: any) => [i.role, i.content[0].type, i.content[0].text])).toEqual([
      ['developer', 'input_text', 'Always answer in French.'],
      ['user', 'input_text', 'q1'],
      ['system', 'input_text', 'Cite everything.'],
    ]);

    const second = await client.responses.create({ model: 'svc-echo', input: 'q2', previous_response_id: first.id });
    expect(JSON.parse(second.output_text)).toEqual({
      messages: [
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: first.output_text },
        { role: 'user', content: 'q2' },
      ],
      instructions: 'Always answer in French.\n\nCite everything.',
    });
    expect(second.instructions).toBeNull();
    const carried = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(carried.data.map((i: any) => i.role)).toEqual(['developer', 'user', 'system', 'assistant', 'user']);

    // Paging both ways: `after` and `before` are item ids; a page from `before` is the one nearest to it.
    const page = async (query: string) => (await (await fetch(`${svc.baseURL}/responses/${second.id}/input_items?${query}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;
    const ids = carried.data.map((i: any) => i.id as string);
    expect((await page(`order=asc&before=${ids[3]}`)).data.map((i: any) => i.id)).toEqual(ids.slice(0, 3));
    expect(await page(`order=asc&before=${ids[3]}&limit=2`)).toMatchObject({ data: [{ id: ids[1] }, { id: ids[2] }], has_more: true });
    expect(await page(`order=asc&after=${ids[0]}&before=${ids[4]}`)).toMatchObject({ data: ids.slice(1, 4).map((id) => ({ id })), has_more: false });
    expect((await page(`order=desc&before=${ids[1]}`)).data.map((i: any) => i.id)).toEqual([ids[4], ids[3], ids[2]]);
    for (const [query, param, code] of [
      ['before=msg_nope', 'before', 'invalid_value'],
      [`after=${ids[0]}&after=${ids[1]}`, 'after', 'invalid_type'],
      ['before=', 'before', 'invalid_type'],
    ]) {
      expect((await page(query!)).error, query).toMatchObject({ param, code });
    }
  });

  it("passes on an earlier chat turn that refused (content null, refusal beside it) as what it said", async () => {
    const completion = await client.chat.completions.create({
      model: 'svc-echo',
      messages: [
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
        { role: 'user', content: 'q2' },
      ],
    });
    expect(JSON.parse(completion.choices[0]!.message.content!).messages).toEqual([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'I cannot help with that.' },
      { role: 'user', content: 'q2' },
    ]);
  });

  it('resolves the item_reference the AI SDK sends for earlier assistant turns', async () => {
    const provider = createOpenAI({ baseURL: svc.baseURL, apiKey: key });
    const first = await generateText({ model: provider.responses('svc-echo'), prompt: 'first question' });
    const second = await generateText({
      model: provider.responses('svc-echo'),
      messages: [{ role: 'user', content: 'first question' }, ...first.response.messages, { role: 'user', content: 'second question' }],
    });
    const seen = JSON.parse(second.text);
    expect(seen.messages).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: first.text },
      { role: 'user', content: 'second question' },
    ]);
  });

  it('lists input items under ids that stay theirs along a conversation, answers with their sources; an item_reference to any of them works', async () => {
    const first = await client.responses.create({ model: 'svc-test', input: 'first question' });
    const second = await client.responses.create({ model: 'svc-echo', input: 'second question', previous_response_id: first.id });
    const third = await client.responses.create({ model: 'svc-echo', input: 'third question', previous_response_id: second.id });
    const [ofFirst, ofSecond, ofThird] = await Promise.all([first, second, third].map(async (r) => (await client.responses.inputItems.list(r.id, { order: 'asc' })).data as any[]));
    // The first question keeps the id it was listed under; an answer is listed under its own message id, with its sources.
    expect(ofSecond.map((i) => i.id)).toEqual([ofFirst[0].id, first.output[0]!.id, ofSecond[2].id]);
    expect(ofThird.map((i) => i.id)).toEqual([...ofSecond.map((i) => i.id), second.output[0]!.id, ofThird[4].id]);
    expect(ofSecond[1].content[0]).toMatchObject({ type: 'output_text', text: 'Answer [1].', annotations: [{ type: 'url_citation', url: 'https://s.example/1', start_index: 7, end_index: 10, order: 1 }] });
    // The agent is given the words only.
    expect(JSON.parse(third.output_text).messages).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'Answer [1].' },
      { role: 'user', content: 'second question' },
      { role: 'assistant', content: second.output_text },
      { role: 'user', content: 'third question' },
    ]);
    // Any listed id can be sent back as an item_reference, and is listed under it again.
    const again = await client.responses.create({
      model: 'svc-echo',
      input: [{ type: 'item_reference', id: ofThird[0].id }, { type: 'item_reference', id: ofThird[1].id }, { role: 'user', content: 'once more' }],
    });
    expect(JSON.parse(again.output_text).messages).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'Answer [1].' },
      { role: 'user', content: 'once more' },
    ]);
    const ofAgain = (await client.responses.inputItems.list(again.id, { order: 'asc' })).data as any[];
    expect(ofAgain.slice(0, 2).map((i) => i.id)).toEqual([ofThird[0].id, ofThird[1].id]);
    expect(ofAgain[1].content[0].annotations).toHaveLength(1);
    const unknown = await client.responses.create({ model: 'svc-echo', input: [{ type: 'item_reference', id: `${ofThird[0].id.replace(/_\d+$/, '')}_9` }, { role: 'user', content: 'q' }] }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 400, code: 'item_not_found' });
    // A stored user message can be the question itself; an assistant message cannot.
    const asked = await client.responses.create({ model: 'svc-echo', input: [{ type: 'item_reference', id: ofThird[2].id }] });
    expect(JSON.parse(asked.output_text).messages).toEqual([{ role: 'user', content: 'second question' }]);
    const answer = await client.responses.create({ model: 'svc-echo', input: [{ role: 'user', content: 'q' }, { type: 'item_reference', id: ofThird[1].id }] }).catch((e: unknown) => e);
    expect(answer).toMatchObject({ status: 400, code: 'invalid_value', param: 'input[1]' });
    expect((answer as Error).message).toContain("is an assistant message");
  });

  it('lists input items and deletes a response', async () => {
    const r = await client.responses.create({ model: 'svc-echo', input: 'hello there' });
    const items = await client.responses.inputItems.list(r.id, { order: 'asc' });
    expect(items.data.map((i: any) => i.content[0].text)).toEqual(['hello there']);
    await client.responses.delete(r.id);
    await expect(client.responses.retrieve(r.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('background: true answers at once (in progress, background echoed), runs on, and is fetched or followed later', async () => {
    // The agent waits for the test, which lets it go only once the POST has been answered.
    const waiting = release;
    const letGo = async () => {
      while (release === waiting) await sleep(10);
      release();
    };
    const started = await client.responses.create({ model: 'svc-gated', input: 'q', background: true });
    expect(started).toMatchObject({ status: 'in_progress', background: true, output: [] });
    const followed = fetch(`${svc.baseURL}/responses/${started.id}?stream=true`, { headers: { authorization: `Bearer ${key}` } }).then(readSse);
    expect((await client.responses.retrieve(started.id)).status).toBe('in_progress');
    await letGo();
    let done = await client.responses.retrieve(started.id);
    while (done.status === 'in_progress') {
      await sleep(20);
      done = await client.responses.retrieve(started.id);
    }
    expect(done).toMatchObject({ status: 'completed', background: true, output_text: 'first part, second part.' });
    const events = (await followed).frames.map((f) => JSON.parse(f.data) as { type: string; sequence_number: number; response?: { background: boolean } });
    expect(events[0]).toMatchObject({ type: 'response.created', sequence_number: 0, response: { background: true } });
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { background: true } });
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));

    // Streamed in the background: a stored stream that echoes it.
    const before = release;
    const streamed = client.responses.stream({ model: 'svc-gated', input: 'q', background: true } as any);
    while (release === before) await sleep(10);
    release();
    expect(await streamed.finalResponse()).toMatchObject({ status: 'completed', background: true });

    const unstored = await post(`${svc.baseURL}/responses`, key, { model: 'svc-test', input: 'q', background: true, store: false });
    expect(unstored.status).toBe(400);
    expect(((await unstored.json()) as any).error).toMatchObject({ code: 'invalid_value', param: 'background' });
  });

  it('an account may have 16 background responses running at once, streamed or not; the next is 429 until one finishes', async () => {
    const { apiKey } = await svc.account();
    const own = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    // Streamed ones count too: they run on after their clients leave.
    const streams = await Promise.all(Array.from({ length: 8 }, () => post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-held-talking', input: 'q', background: true, stream: true })));
    const streamedIds: string[] = [];
    for (const res of streams) {
      const reader = res.body!.getReader();
      let seen = '';
      while (!/"id":"resp_/.test(seen)) seen += new TextDecoder().decode((await reader.read()).value);
      streamedIds.push(/"id":"(resp_[^"]+)"/.exec(seen)![1]!);
      await reader.cancel();
    }
    const started = [
      ...(await Promise.all(Array.from({ length: 8 }, () => own.responses.create({ model: 'svc-held', input: 'q', background: true })))),
      ...(await Promise.all(streamedIds.map((id) => own.responses.retrieve(id)))),
    ];
    expect(new Set(started.map((r) => r.status))).toEqual(new Set(['in_progress']));
    const refused = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-held', input: 'q', background: true });
    expect(refused.status).toBe(429);
    const refusedStream = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-held-talking', input: 'q', background: true, stream: true });
    expect(refusedStream.status).toBe(429);
    expect(((await refusedStream.json()) as any).error).toMatchObject({ code: 'too_many_background_responses', param: 'background' });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as any).error).toMatchObject({ code: 'too_many_background_responses', param: 'background' });
    // Another account is not held up, nor are this account's ordinary requests.
    expect((await client.responses.create({ model: 'svc-test', input: 'q', background: true })).status).toBe('in_progress');
    expect((await own.responses.create({ model: 'svc-test', input: 'q' })).status).toBe('completed');
    openGate();
    for (const r of started) {
      while ((await own.responses.retrieve(r.id)).status === 'in_progress') await sleep(10);
    }
    expect((await own.responses.create({ model: 'svc-test', input: 'q', background: true })).status).toBe('in_progress');
    gate = new Promise<void>((r) => (openGate = r));
  });

  it('refuses to delete a response still in progress, here or on another replica (409), and deletes one whose producer died', async () => {
    const running = await post(`${svc.baseURL}/responses`, key, { model: 'svc-gated', input: 'q', stream: true });
    const reader = running.body!.getReader();
    let seen = '';
    while (!/"id":"resp_/.test(seen)) seen += new TextDecoder().decode((await reader.read()).value);
    const id = /"id":"(resp_[^"]+)"/.exec(seen)![1]!;
    const del = (rid: string) => fetch(`${svc.baseURL}/responses/${rid}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    const here = await del(id);
    expect(here.status).toBe(409);
    // Running for as long as it takes: SDKs are told not to retry at once.
    expect(here.headers.get('x-should-retry')).toBe('false');
    expect(((await here.json()) as any).error).toMatchObject({ code: 'response_in_progress', param: 'id' });
    release();
    while (!(await reader.read()).done);

    // Rows another replica is producing, and one whose producer died (its lease lapsed).
    const { id: accountId } = await svc.service.deps.accounts.authenticate(key).then((a) => a!.account);
    const now = Date.now();
    const row = (rid: string, leaseExpiresAt: number) => inProgressRow(rid, accountId, { createdAt: now, leaseExpiresAt });
    await svc.service.deps.store.db.insertInto('responses').values([row('resp_elsewhere', now + 60_000), row('resp_orphan', now - 1)]).execute();
    expect((await del('resp_elsewhere')).status).toBe(409);
    expect((await client.responses.retrieve('resp_orphan')).status).toBe('failed');
    // As the OpenAI Python SDK sends it: Content-Type JSON and no body.
    const asPython = await fetch(`${svc.baseURL}/responses/resp_orphan`, { method: 'DELETE', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
    expect(asPython.status).toBe(200);
    expect(await asPython.json()).toMatchObject({ id: 'resp_orphan', object: 'response.deleted', deleted: true });
  });
});

describe('cancelling background responses (POST /v1/responses/{id}/cancel)', () => {
  /** Reads a stream until its text contains `pattern`; returns what was read. */
  async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, pattern: RegExp): Promise<string> {
    let seen = '';
    while (!pattern.test(seen)) seen += new TextDecoder().decode((await reader.read()).value);
    return seen;
  }
  async function readRest(reader: ReadableStreamDefaultReader<Uint8Array>, seen: string) {
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen += new TextDecoder().decode(r.value);
    return readSse(new Response(seen));
  }
  type Event = { type: string; sequence_number: number; code?: string; response?: { status: string; error: unknown } };
  const auth = () => ({ authorization: `Bearer ${key}` });

  it('stops it with the text so far; followers get an ending (error response_cancelled, then response.failed with status cancelled); cancelling again answers the same; it cannot be continued, and can be deleted', async () => {
    const waiting = release;
    const started = await client.responses.create({ model: 'svc-gated', input: 'q', background: true });
    while (release === waiting) await sleep(10); // the agent sent its first part and waits
    const follower = (await fetch(`${svc.baseURL}/responses/${started.id}?stream=true`, { headers: auth() })).body!.getReader();
    const seen = await readUntil(follower, /first part/);

    const cancelled = await client.responses.cancel(started.id);
    // (openai-node adds output_text to what create and retrieve return, not to what cancel returns)
    expect(cancelled).toMatchObject({ id: started.id, status: 'cancelled', background: true, error: null });
    expect(cancelled.output).toMatchObject([{ type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: 'first part, ' }] }]);
    release(); // the stopped agent may go on: nothing it sends is kept

    const followed = await readRest(follower, seen);
    const events = followed.frames.map((f) => JSON.parse(f.data) as Event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.slice(-2)).toMatchObject([
      { type: 'error', code: 'response_cancelled' },
      { type: 'response.failed', response: { status: 'cancelled', error: null } },
    ]);
    expect(events.some((e) => e.type === 'response.completed')).toBe(false);

    await sleep(50);
    expect(await client.responses.retrieve(started.id)).toEqual({ ...cancelled, output_text: 'first part, ' });
    expect(await client.responses.cancel(started.id)).toEqual(cancelled);
    const replay = await readSse(await fetch(`${svc.baseURL}/responses/${started.id}?stream=true`, { headers: auth() }));
    expect(replay.frames).toEqual(followed.frames);

    const continued = await post(`${svc.baseURL}/responses`, key, { model: 'svc-echo', input: 'more', previous_response_id: started.id });
    expect(continued.status).toBe(400);
    expect(((await continued.json()) as any).error).toMatchObject({ code: 'previous_response_not_completed' });
    expect((await fetch(`${svc.baseURL}/responses/${started.id}`, { method: 'DELETE', headers: auth() })).status).toBe(200);
  });

  it('a background stream that is cancelled sends its own client the same ending', async () => {
    const waiting = release;
    const res = await post(`${svc.baseURL}/responses`, key, { model: 'svc-gated', input: 'q', stream: true, background: true });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const seen = await readUntil(reader, /first part/);
    while (release === waiting) await sleep(10);
    const id = /"id":"(resp_[^"]+)"/.exec(seen)![1]!;
    expect(await client.responses.cancel(id)).toMatchObject({ status: 'cancelled', output: [{ content: [{ text: 'first part, ' }] }] });
    release();
    const own = await readRest(reader, seen);
    const events = own.frames.map((f) => JSON.parse(f.data) as Event);
    expect(events.slice(-2)).toMatchObject([
      { type: 'error', code: 'response_cancelled' },
      { type: 'response.failed', response: { status: 'cancelled' } },
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const replay = await readSse(await fetch(`${svc.baseURL}/responses/${id}?stream=true`, { headers: auth() }));
    expect(replay.frames).toEqual(own.frames);
  });

  it('a retry of a cancelled background stream under its Idempotency-Key replays it, cancelled, and runs nothing again', async () => {
    const send = () => post(`${svc.baseURL}/responses`, key, { model: 'svc-gated', input: 'q', stream: true, background: true }, { 'idempotency-key': 'cancel-me-once' });
    const waiting = release;
    const first = await send();
    const reader = first.body!.getReader();
    const seen = await readUntil(reader, /first part/);
    while (release === waiting) await sleep(10);
    const id = /"id":"(resp_[^"]+)"/.exec(seen)![1]!;
    await client.responses.cancel(id);
    release();
    const own = await readRest(reader, seen);
    const before = release;
    const retry = await send();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await readSse(retry)).frames).toEqual(own.frames);
    await sleep(50);
    expect(release).toBe(before); // the agent did not run again
  });

  it('frees its place among the 16 background responses an account may run', async () => {
    const { apiKey } = await svc.account();
    const own = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const started = await Promise.all(Array.from({ length: 16 }, () => own.responses.create({ model: 'svc-held', input: 'q', background: true })));
    expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-held', input: 'q', background: true })).status).toBe(429);
    expect((await own.responses.cancel(started[0]!.id)).status).toBe('cancelled');
    const next = await own.responses.create({ model: 'svc-held', input: 'q', background: true });
    expect(next.status).toBe('in_progress');
    openGate();
    for (const r of [...started.slice(1), next]) {
      while ((await own.responses.retrieve(r.id)).status === 'in_progress') await sleep(10);
    }
    expect((await own.responses.retrieve(started[0]!.id)).status).toBe('cancelled');
    gate = new Promise<void>((r) => (openGate = r));
  });

  it('cancels one running on another replica by marking it (its text stays there until that replica stops it)', async () => {
    const { id: accountId } = await svc.service.deps.accounts.authenticate(key).then((a) => a!.account);
    const now = Date.now();
    await svc.service.deps.store.db.insertInto('responses').values(inProgressRow('resp_bg_elsewhere', accountId, { createdAt: now, leaseExpiresAt: now + 60_000, background: true })).execute();
    const cancelled = await client.responses.cancel('resp_bg_elsewhere');
    expect(cancelled).toMatchObject({ id: 'resp_bg_elsewhere', status: 'cancelled', background: true, output: [] });
    expect((await client.responses.retrieve('resp_bg_elsewhere')).status).toBe('cancelled');
    // Until that replica has stopped it (its last write would bring the row back), it is not deleted.
    const del = await fetch(`${svc.baseURL}/responses/resp_bg_elsewhere`, { method: 'DELETE', headers: auth() });
    expect(del.status).toBe(409);
    expect(del.headers.get('retry-after')).toBe('2');
    expect(del.headers.get('x-should-retry')).toBeNull();
    const error = ((await del.json()) as any).error;
    expect(error).toMatchObject({ code: 'response_in_progress', param: 'id' });
    expect(error.message).toContain('still stopping');
  });

  it('refuses what cannot be cancelled: 400 for a response not in the background, 409 for one already finished, 404 for an unknown id', async () => {
    const cancel = (id: string) => fetch(`${svc.baseURL}/responses/${id}/cancel`, { method: 'POST', headers: auth() });
    const foreground = await client.responses.create({ model: 'svc-test', input: 'q' });
    const notBackground = await cancel(foreground.id);
    expect(notBackground.status).toBe(400);
    expect(((await notBackground.json()) as any).error).toMatchObject({ type: 'invalid_request_error', code: 'response_not_background', param: 'id' });
    await expect(client.responses.cancel(foreground.id)).rejects.toBeInstanceOf(OpenAI.BadRequestError);

    const finished = await client.responses.create({ model: 'svc-test', input: 'q', background: true });
    while ((await client.responses.retrieve(finished.id)).status === 'in_progress') await sleep(10);
    const late = await cancel(finished.id);
    expect(late.status).toBe(409);
    expect(late.headers.get('x-should-retry')).toBe('false');
    const error = ((await late.json()) as any).error;
    expect(error).toMatchObject({ code: 'response_not_cancellable', param: 'id' });
    expect(error.message).toContain('already completed');
    expect((await client.responses.retrieve(finished.id)).status).toBe('completed');

    const unknown = await cancel('resp_nope');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error).toMatchObject({ code: 'response_not_found', param: 'id' });
  });
});

describe('durability', () => {
  it('stored responses, accounts and keys survive a restart', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-restart-'));
    try {
      const a = await startService({ agents, dataDir });
      const acct = await a.account({ plan: 'pro', credits: 5 });
      const created = await new OpenAI({ baseURL: a.baseURL, apiKey: acct.apiKey }).responses.create({ model: 'svc-test', input: 'q' });
      await a.close();
      const b = await startService({ agents, dataDir });
      const again = new OpenAI({ baseURL: b.baseURL, apiKey: acct.apiKey });
      expect((await again.responses.retrieve(created.id)).output_text).toBe(created.output_text);
      expect(b.adminKey).toBe(a.adminKey);
      await b.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
