import OpenAI from 'openai';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

const cited = scriptedAgent('svc-test', (req) =>
  answer(`Answer to ${req.messages.at(-1)!.content} [1].`, [{ order: 1, name: 'Source', url: 'https://s.example/1' }]),
);
const other = scriptedAgent('svc-other', () => answer('Other answer.'));
/** Answers once the test opens its gate. */
let openGate: () => void = () => {};
const gated = scriptedAgent('svc-gated', async function* () {
  await new Promise<void>((r) => (openGate = r));
  yield* answer('Late answer.');
});

afterAll(() => dropTestSchemas());

type ApiError = InstanceType<typeof OpenAI.APIError>;
/** The metadata a stored completion carries (the SDK's ChatCompletion type leaves it out). */
const metadataOf = (c: OpenAI.ChatCompletion) => (c as unknown as { metadata: Record<string, string> }).metadata;
/** The page's JSON body as the server sent it. */
const bodyOf = (page: unknown) => (page as { body: unknown }).body;
const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ApiError);

describeBackends('stored chat completions (store: true)', (backend) => {
  let svc: TestService;
  let client: OpenAI;
  let stranger: OpenAI;

  beforeAll(async () => {
    svc = await startService({ agents: [cited, other, gated], env: await backend.env() });
    client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
    stranger = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
  });
  afterAll(() => svc.close());

  it('retrieves a stored completion as it was answered, with its metadata, and lists the messages it was asked with', async () => {
    const created = await client.chat.completions.create({
      model: 'svc-test',
      store: true,
      metadata: { topic: 'apple' },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Apple' }, { type: 'text', text: 'revenue?' }] },
      ],
    });
    const fetched = await client.chat.completions.retrieve(created.id);
    expect(fetched).toEqual({ ...created, metadata: { topic: 'apple' } });
    expect(fetched.choices[0]!.message.content).toBe('Answer to Apple\nrevenue? [1].');

    const messages = await client.chat.completions.messages.list(created.id);
    expect(messages.data).toEqual([
      { id: `${created.id}-0`, role: 'system', content: 'Be brief.', name: null, content_parts: null },
      {
        id: `${created.id}-1`,
        role: 'user',
        content: 'Apple\nrevenue?',
        name: null,
        content_parts: [
          { type: 'text', text: 'Apple' },
          { type: 'text', text: 'revenue?' },
        ],
      },
    ]);
    expect(messages.has_more).toBe(false);
  });

  it('stores a streamed completion before [DONE]: fetched right after the stream, it is the final completion', async () => {
    const stream = client.chat.completions.stream({ model: 'svc-test', store: true, messages: [{ role: 'user', content: 'streamed' }] });
    const final = await stream.finalChatCompletion();
    const fetched = await client.chat.completions.retrieve(final.id);
    expect(fetched.choices[0]!.message.content).toBe('Answer to streamed [1].');
    expect(fetched.choices[0]!.message.content).toBe(final.choices[0]!.message.content);
    expect((fetched as unknown as { citations: unknown[] }).citations).toEqual([{ order: 1, name: 'Source', url: 'https://s.example/1' }]);
    expect(metadataOf(fetched)).toEqual({});
  });

  it('keeps nothing without store: true (OpenAI’s default for chat), and an unknown id is a 404 naming completion_id', async () => {
    const plain = await client.chat.completions.create({ model: 'svc-test', messages: [{ role: 'user', content: 'q' }] });
    const unstored = await client.chat.completions.create({ model: 'svc-test', store: false, messages: [{ role: 'user', content: 'q' }] });
    for (const id of [plain.id, unstored.id, 'chatcmpl-nope']) {
      const err = await failure(client.chat.completions.retrieve(id));
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect(err).toMatchObject({ code: 'completion_not_found', param: 'completion_id' });
    }
  });

  it('lists an account’s completions oldest first, in pages the SDK follows, newest first on order=desc, filtered by model and by metadata pairs', async () => {
    const own = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
    const ids: string[] = [];
    const specs: { model: string; metadata: Record<string, string> }[] = [
      { model: 'svc-test', metadata: { run: 'a', kind: 'x' } },
      { model: 'svc-other', metadata: { run: 'a', kind: 'y' } },
      { model: 'svc-test', metadata: { run: 'b', kind: 'x' } },
      { model: 'svc-test', metadata: { run: 'a', kind: 'x' } },
      { model: 'svc-other', metadata: {} },
    ];
    for (const [i, spec] of specs.entries()) ids.push((await own.chat.completions.create({ ...spec, store: true, messages: [{ role: 'user', content: `q${i}` }] })).id);

    const firstPage = await own.chat.completions.list({ limit: 2 });
    expect(firstPage.data.map((c) => c.id)).toEqual(ids.slice(0, 2));
    expect(firstPage.has_more).toBe(true);
    expect(bodyOf(firstPage)).toMatchObject({ object: 'list', first_id: ids[0], last_id: ids[1], has_more: true });
    const all: string[] = [];
    for await (const c of own.chat.completions.list({ limit: 2 })) all.push(c.id);
    expect(all).toEqual(ids);

    const desc: string[] = [];
    for await (const c of own.chat.completions.list({ limit: 3, order: 'desc' })) desc.push(c.id);
    expect(desc).toEqual([...ids].reverse());

    const byModel = await own.chat.completions.list({ model: 'svc-other' });
    expect(byModel.data.map((c) => c.id)).toEqual([ids[1], ids[4]]);
    const byPairs = await own.chat.completions.list({ metadata: { run: 'a', kind: 'x' } });
    expect(byPairs.data.map((c) => c.id)).toEqual([ids[0], ids[3]]);
    expect(metadataOf(byPairs.data[0]!)).toEqual({ run: 'a', kind: 'x' });
    const both = await own.chat.completions.list({ metadata: { run: 'a' }, model: 'svc-test', order: 'desc' });
    expect(both.data.map((c) => c.id)).toEqual([ids[3], ids[0]]);
    expect((await own.chat.completions.list({ metadata: { run: 'zzz' } })).data).toEqual([]);

    // Accounts never see each other's.
    expect((await stranger.chat.completions.list()).data).toEqual([]);
    expect(await failure(stranger.chat.completions.retrieve(ids[0]!))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(stranger.chat.completions.delete(ids[0]!))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(stranger.chat.completions.update(ids[0]!, { metadata: { x: 'y' } }))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(stranger.chat.completions.list({ after: ids[0]! }))).toMatchObject({ status: 400, param: 'after' });
  });

  it('lists in the order completions were asked for, not the order they finished in', async () => {
    const own = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
    const slow = own.chat.completions.create({ model: 'svc-gated', store: true, messages: [{ role: 'user', content: 'first asked' }] });
    await new Promise((r) => setTimeout(r, 30));
    const fast = await own.chat.completions.create({ model: 'svc-test', store: true, messages: [{ role: 'user', content: 'second asked' }] });
    openGate();
    const late = await slow;
    expect((await own.chat.completions.list()).data.map((c) => c.id)).toEqual([late.id, fast.id]);
    expect((await own.chat.completions.list({ order: 'desc' })).data.map((c) => c.id)).toEqual([fast.id, late.id]);
  });

  it('pages on past completions deleted meanwhile (delete while iterating), and takes metadata: null as no filter', async () => {
    const own = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
    for (let i = 0; i < 7; i++) await own.chat.completions.create({ model: 'svc-test', store: true, metadata: { batch: 'x' }, messages: [{ role: 'user', content: `q${i}` }] });
    let deleted = 0;
    for await (const c of own.chat.completions.list({ metadata: { batch: 'x' }, limit: 3 })) {
      await own.chat.completions.delete(c.id);
      deleted++;
    }
    expect(deleted).toBe(7);
    expect((await own.chat.completions.list({ metadata: null })).data).toEqual([]);
  });

  it('keeps metadata filters to the pairs themselves: empty values match, __proto__ is a key like another, empty keys are refused when stored', async () => {
    const own = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
    const { id } = await own.chat.completions.create({ model: 'svc-test', store: true, metadata: { empty: '', emoji: '😀'.repeat(512) }, messages: [{ role: 'user', content: 'q' }] });
    expect((await own.chat.completions.list({ metadata: { empty: '' } })).data.map((c) => c.id)).toEqual([id]);
    expect((await own.chat.completions.list({ metadata: { emoji: '😀'.repeat(512) } })).data.map((c) => c.id)).toEqual([id]);
    const proto = await fetch(`${svc.baseURL}/chat/completions?metadata[__proto__]=zz`, { headers: { authorization: `Bearer ${own.apiKey}` } });
    expect(((await proto.json()) as { data: unknown[] }).data).toEqual([]);
    expect(await failure(own.chat.completions.create({ model: 'svc-test', store: true, metadata: { '': 'x' }, messages: [{ role: 'user', content: 'q' }] }))).toMatchObject({ status: 400, param: 'metadata' });
  });

  it('lists an assistant turn’s tool calls and refusal, and a tool result’s call id, as they were sent', async () => {
    const toolCall = { id: 'call_1', type: 'function' as const, function: { name: 'lookup', arguments: '{"q":"x"}' } };
    const { id } = await client.chat.completions.create({
      model: 'svc-test',
      store: true,
      messages: [
        { role: 'user', content: 'look it up' },
        { role: 'assistant', content: null, tool_calls: [toolCall] },
        { role: 'tool', tool_call_id: 'call_1', content: 'found' },
        { role: 'assistant', content: null, refusal: 'I cannot say.' },
        { role: 'assistant', content: [{ type: 'text', text: 'Partly' }, { type: 'refusal', refusal: 'not all' }] },
        { role: 'user', content: 'now?' },
      ],
    });
    const messages = (await client.chat.completions.messages.list(id)).data;
    expect(messages[1]).toMatchObject({ role: 'assistant', content: null, tool_calls: [toolCall] });
    expect(messages[2]).toMatchObject({ role: 'tool', content: 'found', tool_call_id: 'call_1' });
    expect(messages[3]).toMatchObject({ role: 'assistant', content: null, refusal: 'I cannot say.' });
    expect(messages[4]).toMatchObject({ role: 'assistant', content: 'Partly', refusal: 'not all', content_parts: [{ type: 'text', text: 'Partly' }] });
  });

  it('replaces metadata on update (null clears it), and lists filter on the new pairs, not the old', async () => {
    const { id } = await client.chat.completions.create({ model: 'svc-test', store: true, metadata: { stage: 'draft' }, messages: [{ role: 'user', content: 'q' }] });
    const updated = await client.chat.completions.update(id, { metadata: { stage: 'final', owner: 'ana' } });
    expect(updated.id).toBe(id);
    expect(metadataOf(updated)).toEqual({ stage: 'final', owner: 'ana' });
    expect(metadataOf(await client.chat.completions.retrieve(id))).toEqual({ stage: 'final', owner: 'ana' });
    expect((await client.chat.completions.list({ metadata: { stage: 'draft' } })).data.map((c) => c.id)).not.toContain(id);
    expect((await client.chat.completions.list({ metadata: { stage: 'final' } })).data.map((c) => c.id)).toContain(id);
    expect(metadataOf(await client.chat.completions.update(id, { metadata: null }))).toEqual({});
    expect((await client.chat.completions.list({ metadata: { owner: 'ana' } })).data.map((c) => c.id)).not.toContain(id);
  });

  it('deletes a completion: its object says so, then it is gone from retrieve, lists and its messages', async () => {
    const { id } = await client.chat.completions.create({ model: 'svc-test', store: true, metadata: { doomed: 'yes' }, messages: [{ role: 'user', content: 'q' }] });
    expect(await client.chat.completions.delete(id)).toEqual({ object: 'chat.completion.deleted', id, deleted: true });
    expect(await failure(client.chat.completions.retrieve(id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(client.chat.completions.messages.list(id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(client.chat.completions.delete(id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await client.chat.completions.list({ metadata: { doomed: 'yes' } })).data).toEqual([]);
  });

  it('pages a completion’s messages with after, limit and order', async () => {
    const messages = Array.from({ length: 5 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `m${i}` }));
    const { id } = await client.chat.completions.create({ model: 'svc-test', store: true, messages });
    const page = await client.chat.completions.messages.list(id, { limit: 2 });
    expect(page.data.map((m) => m.content)).toEqual(['m0', 'm1']);
    expect(page.has_more).toBe(true);
    const all: (string | null)[] = [];
    for await (const m of client.chat.completions.messages.list(id, { limit: 2 })) all.push(m.content);
    expect(all).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    const desc = await client.chat.completions.messages.list(id, { order: 'desc', after: `${id}-3`, limit: 10 });
    expect(desc.data.map((m) => m.content)).toEqual(['m2', 'm1', 'm0']);
    expect(bodyOf(desc)).toMatchObject({ object: 'list', first_id: `${id}-2`, last_id: `${id}-0`, has_more: false });
  });

  it('answers wrong list, update and messages parameters with a 400 naming them', async () => {
    const { id } = await client.chat.completions.create({ model: 'svc-test', store: true, messages: [{ role: 'user', content: 'q' }] });
    const get = (path: string) => fetch(`${svc.baseURL}${path}`, { headers: { authorization: `Bearer ${client.apiKey}` } });
    const post = (path: string, body: unknown) =>
      fetch(`${svc.baseURL}${path}`, { method: 'POST', headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const cases: [Promise<Response>, number, string][] = [
      [get('/chat/completions?limit=0'), 400, 'limit'],
      [get('/chat/completions?limit=101'), 400, 'limit'],
      [get('/chat/completions?limit=ten'), 400, 'limit'],
      [get('/chat/completions?order=newest'), 400, 'order'],
      [get('/chat/completions?after=chatcmpl-unknown'), 400, 'after'],
      [get('/chat/completions?metadata=run'), 400, 'metadata'],
      [get('/chat/completions?metadata[run]=a&metadata[run]=b'), 400, 'metadata[run]'],
      [get(`/chat/completions?${Array.from({ length: 17 }, (_, i) => `metadata[k${i}]=v`).join('&')}`), 400, 'metadata'],
      [get(`/chat/completions/${id}/messages?after=${id}-9`), 400, 'after'],
      [get(`/chat/completions/${id}/messages?order=up`), 400, 'order'],
      [post(`/chat/completions/${id}`, {}), 400, 'metadata'],
      [post(`/chat/completions/${id}`, { metadata: { k: 1 } }), 400, 'metadata.k'],
      [post(`/chat/completions/${id}`, { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }), 400, 'metadata'],
      [post(`/chat/completions/${id}`, { metadata: {}, messages: [] }), 400, 'messages'],
      [post('/chat/completions/chatcmpl-unknown', { metadata: {} }), 404, 'completion_id'],
    ];
    for (const [res, status, param] of cases) {
      const r = await res;
      const body = (await r.json()) as { error: { param: string; message: string } };
      expect({ url: r.url, status: r.status, param: body.error.param }).toEqual({ url: r.url, status, param });
      expect(body.error.message.length).toBeGreaterThan(20);
    }
  });

  it('deletes completions past their retention, with their metadata', async () => {
    const { id } = await client.chat.completions.create({ model: 'svc-test', store: true, metadata: { old: 'yes' }, messages: [{ role: 'user', content: 'q' }] });
    const store = svc.service.deps.chatCompletions;
    expect(await store.purgeCreatedBefore(Date.now() - 60_000)).toBe(0);
    expect(await store.purgeCreatedBefore(Date.now() + 1000)).toBeGreaterThanOrEqual(1);
    expect(await failure(client.chat.completions.retrieve(id))).toBeInstanceOf(OpenAI.NotFoundError);
    const left = await svc.service.deps.store.db.selectFrom('chat_completion_metadata').select('key').where('completion_id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('says when a completion asked to be stored could not be (503 plain, an error frame before [DONE] streamed), and stores nothing half', async () => {
    const broken = await startService({ agents: [cited], env: await backend.env() });
    try {
      const api = new OpenAI({ baseURL: broken.baseURL, apiKey: (await broken.account()).apiKey, maxRetries: 0 });
      await sql`drop table chat_completion_metadata`.execute(broken.service.deps.store.db);
      const plainErr = await failure(api.chat.completions.create({ model: 'svc-test', store: true, metadata: { a: 'b' }, messages: [{ role: 'user', content: 'q' }] }));
      expect(plainErr).toBeInstanceOf(OpenAI.InternalServerError);
      expect(plainErr).toMatchObject({ status: 503, code: 'storage_unavailable' });
      const streamErr = await failure(api.chat.completions.stream({ model: 'svc-test', store: true, metadata: { a: 'b' }, messages: [{ role: 'user', content: 'q' }] }).finalChatCompletion());
      expect(streamErr).toBeInstanceOf(OpenAI.APIError);
      expect(String((streamErr as Error).message)).toMatch(/could not be stored/);
      const rows = await broken.service.deps.store.db.selectFrom('chat_completions').select('id').execute();
      expect(rows).toEqual([]);
      // Without store: true the same service answers as usual.
      await expect(api.chat.completions.create({ model: 'svc-test', messages: [{ role: 'user', content: 'q' }] })).resolves.toMatchObject({ object: 'chat.completion' });
    } finally {
      await broken.close();
    }
  });
});
