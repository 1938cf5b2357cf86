import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountService } from '../../src/accounts/service.js';
import { rebuild } from '../../src/responses/replay.js';
import { ResponseStore, type ResponseRecord, type StoredResponse } from '../../src/responses/store.js';
import { ResponsesEncoder } from '../../src/wire/responses.js';
import type { TranscriptEntry } from '../../src/responses/transcript.js';
import { openStore, type Store } from '../../src/store/db.js';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';
import { inProgressRow } from '../helpers/response-params.js';

afterAll(() => dropTestSchemas());

const record = (i: number, accountId: string): ResponseRecord => ({
  id: `resp_batch_${i}`,
  accountId,
  model: 'svc-test',
  messageId: `msg_batch_${i}`,
  conversation: [{ role: 'user', content: `question ${i}` }],
  instructions: null,
  createdAt: 1_700_000_000_000 + i,
  params: { id: `resp_batch_${i}`, messageId: `msg_batch_${i}`, model: 'svc-test', createdAt: 1_700_000_000, instructions: null, previousResponseId: null, metadata: {}, store: true, temperature: null, topP: null, maxOutputTokens: null, user: null },
});

describeBackends('stored responses written behind in batches', (backend) => {
  let store: Store;
  let dataDir: string;
  let accountId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-responses-'));
    store = await openStore({ dataDir, databaseUrl: (await backend.env()).SVC_DATABASE_URL ?? '' });
    accountId = (await new AccountService(store.db, { keyCacheTtlMs: 0 }).createAccount({ email: `r-${backend.name}@example.com`, plan: 'free', credits: 0 })).account.id;
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('purges finished responses created before a cutoff, in batches, and never one still being produced', async () => {
    const responses = new ResponseStore(store.db, { batchMs: 5, leaseMs: 60_000 });
    const at = (i: number, createdAt: number): ResponseRecord => ({ ...record(i, accountId), id: `resp_old_${i}`, messageId: `msg_old_${i}`, createdAt });
    const old = 1_000_000;
    for (let i = 0; i < 5; i++) responses.save(at(i, old + i), { status: i === 4 ? 'failed' : 'completed', outputText: `old ${i}`, transcript: [['d', 1]], completedAt: old + i });
    responses.save(at(5, Date.now()), { status: 'completed', outputText: 'new', transcript: [['d', 1]], completedAt: Date.now() });
    // Old, but still running on some replica.
    responses.begin(at(6, old), () => ({}));
    await responses.flush();
    expect(await responses.purgeCreatedBefore(old + 100, 3)).toBe(3);
    expect(await responses.purgeCreatedBefore(old + 100, 3)).toBe(2);
    expect(await responses.purgeCreatedBefore(old + 100, 3)).toBe(0);
    const left = await store.db.selectFrom('responses').select('id').where('id', 'like', 'resp_old_%').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual(['resp_old_5', 'resp_old_6']);
  });

  it('writes a batch larger than one INSERT, then updates rows in place, exactly', async () => {
    const responses = new ResponseStore(store.db, { batchMs: 5 });
    const total = 450;
    for (let i = 0; i < total; i++) {
      const live = responses.begin(record(i, accountId), () => ({}));
      if (i % 2 === 0) live.finish({ status: 'completed', outputText: `answer ${i} [1]`, transcript: [['t', `answer ${i} [1]`], ['d', 1_700_000_001]], completedAt: 1_700_000_001_000 });
    }
    await responses.flush();
    const rows = await store.db.selectFrom('responses').select(['id', 'status', 'output_text', 'transcript']).where('id', 'like', 'resp_batch_%').execute();
    expect(rows).toHaveLength(total);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get('resp_batch_2')).toMatchObject({ status: 'completed', output_text: 'answer 2 [1]' });
    expect(byId.get('resp_batch_3')).toMatchObject({ status: 'in_progress', output_text: '' });

    // The odd ones finish later: the same rows are updated, not duplicated.
    const fresh = new ResponseStore(store.db, { batchMs: 5 });
    for (let i = 1; i < total; i += 2) fresh.save(record(i, accountId), { status: 'completed', outputText: `late ${i}`, transcript: [['t', `late ${i}`], ['d', 1]], completedAt: 2 });
    await fresh.flush();
    const after = await store.db.selectFrom('responses').select(['id', 'status', 'output_text']).where('id', 'like', 'resp_batch_%').execute();
    expect(after).toHaveLength(total);
    expect(after.filter((r) => r.status !== 'completed')).toEqual([]);
    const found = await fresh.get('resp_batch_449', accountId);
    expect(found && !found.live && found.stored.outputText).toBe('late 449');
    expect(await fresh.get('resp_batch_449', 'acct_someone_else')).toBeNull();
  });

  it('serves a response from memory before its batch is written', async () => {
    const responses = new ResponseStore(store.db, { batchMs: 60_000 });
    responses.save(record(9999, accountId), { status: 'completed', outputText: 'pending answer', transcript: [['t', 'pending answer'], ['d', 1]], completedAt: 1 });
    const found = await responses.get('resp_batch_9999', accountId);
    expect(found && !found.live && found.stored.outputText).toBe('pending answer');
    expect(await store.db.selectFrom('responses').select('id').where('id', '=', 'resp_batch_9999').executeTakeFirst()).toBeUndefined();
    await responses.flush();
    expect(await store.db.selectFrom('responses').select('id').where('id', '=', 'resp_batch_9999').executeTakeFirst()).toBeDefined();
  });

  it('keeps the answer once: the stored transcript holds lengths and reads back exactly; rows in the earlier form still read', async () => {
    const responses = new ResponseStore(store.db, { batchMs: 5 });
    const report = { text: `# Report "é" 🙂\n\n${'A claim [1].\n\n'.repeat(400)}`, citations: [{ order: 1, name: 'Kalshi', url: 'https://kalshi.com/markets/x' }] };
    const transcript: TranscriptEntry[] = [['t', 'Intro. '], ['a', report.text, report.citations], ['t', 'Outro.'], ['u', { inputTokens: 5, outputTokens: 900 }], ['d', 1_700_000_002]];
    const outputText = `Intro. ${report.text}Outro.`;
    responses.save(record(7001, accountId), { status: 'completed', outputText, transcript, completedAt: 2 });
    // A transcript that does not spell out the output (never written by the server, but possible in old rows) is kept whole.
    const odd: TranscriptEntry[] = [['t', 'something else'], ['d', 1]];
    responses.save(record(7002, accountId), { status: 'completed', outputText: 'not the same', transcript: odd, completedAt: 2 });
    await responses.flush();
    const row = await store.db.selectFrom('responses').select(['transcript']).where('id', '=', 'resp_batch_7001').executeTakeFirstOrThrow();
    expect(row.transcript.length).toBeLessThan(400);
    expect(JSON.parse(row.transcript)[1]).toEqual(['A', report.text.length, report.citations]);
    const fresh = new ResponseStore(store.db, { batchMs: 5 });
    const found = await fresh.get('resp_batch_7001', accountId);
    expect(found && !found.live && found.stored.transcript).toEqual(transcript);
    const kept = await fresh.get('resp_batch_7002', accountId);
    expect(kept && !kept.live && kept.stored.transcript).toEqual(odd);
    // A row written before lengths were stored: text entries in full.
    await store.db.updateTable('responses').set({ transcript: JSON.stringify(transcript) }).where('id', '=', 'resp_batch_7001').execute();
    const old = await new ResponseStore(store.db, { batchMs: 5 }).get('resp_batch_7001', accountId);
    expect(old && !old.live && old.stored.transcript).toEqual(transcript);
  });
  it('refers to kept answers instead of copying them, reads them back whole, and says when one is gone', async () => {
    const kept = { text: 'The kept report [1].', citations: [{ order: 1, name: 'Kalshi', url: 'https://kalshi.com/markets/k' }], textRef: 'report:rpt_kept' };
    const lookups: string[] = [];
    const answers = async (ref: string) => (lookups.push(ref), ref === kept.textRef ? kept : null);
    const responses = new ResponseStore(store.db, { batchMs: 5, answers });
    const transcript: TranscriptEntry[] = [['t', 'Before. '], ['a', kept.text, kept.citations, kept.textRef], ['t', ' After.'], ['d', 3]];
    const outputText = `Before. ${kept.text} After.`;
    responses.save(record(8001, accountId), { status: 'completed', outputText, transcript, completedAt: 3 });
    // Pending in the batch and once written, it reads back the same.
    const pending = await responses.get('resp_batch_8001', accountId);
    expect(pending && !pending.live && pending.stored.outputText).toBe(outputText);
    await responses.flush();
    const row = await store.db.selectFrom('responses').select(['output_text', 'transcript']).where('id', '=', 'resp_batch_8001').executeTakeFirstOrThrow();
    expect(row.output_text).toBe('Before.  After.');
    expect(JSON.parse(row.transcript)).toEqual([['T', 8], ['R', kept.textRef], ['T', 7], ['d', 3]]);
    const found = await new ResponseStore(store.db, { answers }).get('resp_batch_8001', accountId);
    expect(found && !found.live && found.stored).toMatchObject({ outputText, transcript });
    expect(await responses.messageTurn('msg_batch_8001', accountId)).toEqual({ role: 'assistant', content: outputText, itemId: 'msg_batch_8001', citations: kept.citations });
    expect(lookups.length).toBeGreaterThanOrEqual(2);

    // Without a way to resolve references, answers are kept in the row, as before.
    const plain = new ResponseStore(store.db, { batchMs: 5 });
    plain.save(record(8002, accountId), { status: 'completed', outputText, transcript, completedAt: 3 });
    await plain.flush();
    const whole = await store.db.selectFrom('responses').select(['output_text', 'transcript']).where('id', '=', 'resp_batch_8002').executeTakeFirstOrThrow();
    expect(whole.output_text).toBe(outputText);
    expect(JSON.parse(whole.transcript)[1]).toEqual(['A', kept.text.length, kept.citations]);

    // A reference nothing resolves is an error, never a silently shortened answer.
    await expect(new ResponseStore(store.db, { answers: async () => null }).get('resp_batch_8001', accountId)).rejects.toThrow('refers to report:rpt_kept, which is not stored');
  });

  it('renews the lease of responses it produces; one in progress past its lease (its producer died) reads back failed, settled in the database', async () => {
    const producer = new ResponseStore(store.db, { batchMs: 5, leaseMs: 300 });
    const reader = new ResponseStore(store.db, { batchMs: 5, leaseMs: 300, pollMs: 50 });
    const live = producer.begin(record(9001, accountId), () => ({}));
    await producer.flush();
    await new Promise((r) => setTimeout(r, 800));
    const running = await reader.get('resp_batch_9001', accountId);
    expect(running && !running.live && running.stored.status).toBe('in_progress');
    live.finish({ status: 'completed', outputText: 'done', transcript: [['t', 'done'], ['d', 5]], completedAt: 5 });
    await producer.flush();
    expect(await store.db.selectFrom('responses').select(['status', 'lease_expires_at']).where('id', '=', 'resp_batch_9001').executeTakeFirstOrThrow()).toEqual({ status: 'completed', lease_expires_at: null });

    // Rows a dead producer left: one with a lapsed lease, and one from before leases (created over 15 minutes ago).
    const row = (i: number, createdAt: number, leaseExpiresAt: number | null) => inProgressRow(`resp_batch_${i}`, accountId, { createdAt, leaseExpiresAt });
    const now = Date.now();
    await store.db
      .insertInto('responses')
      .values([row(9002, now - 5000, now - 1000), row(9003, now - 16 * 60_000, null), row(9004, now - 60_000, null), row(9005, now - 5000, now + 60_000)])
      .execute();
    for (const id of ['resp_batch_9002', 'resp_batch_9003']) {
      const found = await reader.get(id, accountId);
      expect(found && !found.live && found.stored).toMatchObject({ status: 'failed', transcript: [['f', expect.any(Number), { code: 'response_interrupted' }]] });
      const object = rebuild((found as { stored: StoredResponse }).stored, { events: false }).response as { created_at: number; completed_at: number };
      expect(object.completed_at).toBeGreaterThanOrEqual(object.created_at);
      expect(object.completed_at).toBeLessThan(now / 1000 + 1); // seconds, like every response
    }
    for (const id of ['resp_batch_9004', 'resp_batch_9005']) {
      const found = await reader.get(id, accountId);
      expect(found && !found.live && found.stored.status).toBe('in_progress');
    }
    const statuses = await store.db.selectFrom('responses').select(['id', 'status']).where('id', 'in', ['resp_batch_9002', 'resp_batch_9003', 'resp_batch_9004']).orderBy('id').execute();
    expect(statuses.map((r) => r.status)).toEqual(['failed', 'failed', 'in_progress']);

    // Following a response running on another replica: its opening events come at once, the rest when it finishes.
    await store.db.insertInto('responses').values(row(9006, now, now + 60_000)).execute();
    const follow = reader.replay('resp_batch_9006', accountId, -1, new AbortController().signal, (stored) => rebuild(stored, { events: true }).events)[Symbol.asyncIterator]();
    expect([(await follow.next()).value!.type, (await follow.next()).value!.type]).toEqual(['response.created', 'response.in_progress']);
    const elsewhere = new ResponseStore(store.db, { batchMs: 5 });
    elsewhere.save(record(9006, accountId), { status: 'completed', outputText: 'finished', transcript: [['t', 'finished'], ['d', 7]], completedAt: 7 });
    await elsewhere.flush();
    const rest: string[] = [];
    for (let e = await follow.next(); !e.done; e = await follow.next()) rest.push(`${e.value.sequence_number}:${e.value.type}`);
    expect(rest[0]).toBe('2:response.output_item.added');
    expect(rest.at(-1)).toMatch(/^\d+:response\.completed$/);
    expect(rest.map((r) => Number(r.split(':')[0]))).toEqual(rest.map((_, i) => i + 2));

    // Deleted while followed (after it finished, between two polls): the follower still gets an ending.
    await store.db.insertInto('responses').values(row(9007, now, now + 60_000)).execute();
    const doomed = reader.replay('resp_batch_9007', accountId, 5, new AbortController().signal, (stored) => rebuild(stored, { events: true }).events)[Symbol.asyncIterator]();
    const first = doomed.next();
    await new Promise((r) => setTimeout(r, 20));
    await store.db.deleteFrom('responses').where('id', '=', 'resp_batch_9007').execute();
    const ended = [await first, await doomed.next(), await doomed.next()];
    expect(ended.map((e) => e.done || `${e.value.sequence_number}:${e.value.type}`)).toEqual(['6:error', '7:response.failed', true]);
    expect(ended[0]!.value).toMatchObject({ code: 'response_deleted' });

    // Replayed from the start, the failure is a whole stream: created, in progress, error, failed.
    const events: string[] = [];
    for await (const e of reader.replay('resp_batch_9002', accountId, -1, new AbortController().signal, (stored) => rebuild(stored, { events: true }).events)) events.push(`${e.sequence_number}:${e.type}`);
    expect(events).toEqual(['0:response.created', '1:response.in_progress', '2:error', '3:response.failed']);
  });

  it('cancels a background response produced on another replica: marked at once, its producer stops at its next renewal and keeps its text; what it finishes meanwhile is not kept', async () => {
    const background = (i: number): ResponseRecord => {
      const r = record(i, accountId);
      return { ...r, params: { ...r.params, background: true } };
    };
    const producer = new ResponseStore(store.db, { batchMs: 5, leaseMs: 300 });
    const other = new ResponseStore(store.db, { batchMs: 5, leaseMs: 300 });
    let stops = 0;
    const transcript: TranscriptEntry[] = [['t', 'so far']];
    const live = producer.begin(background(9101), () => ({}), {
      onCancel: () => {
        stops++;
        transcript.push(['x', 11]);
        live.finish({ status: 'cancelled', outputText: 'so far', transcript, completedAt: 11_000 });
      },
    });
    await producer.flush();
    expect(await other.cancel('resp_batch_9101', 'acct_someone_else')).toBeNull();
    expect(await other.cancel('resp_batch_9101', accountId)).toBe(true);
    const marked = await other.get('resp_batch_9101', accountId);
    expect(marked && !marked.live && marked.stored).toMatchObject({ status: 'cancelled', outputText: '', transcript: [['x', expect.any(Number)]] });
    expect(await other.cancel('resp_batch_9101', accountId)).toBe(false); // no longer in progress
    // Not deleted while its producer may still write it (it would come back).
    expect(await other.delete('resp_batch_9101', accountId)).toBe('busy');
    // The producer learns of it within a third of a lease, and writes its own cancelled version.
    for (let waited = 0; stops === 0 && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(stops).toBe(1);
    await producer.flush();
    const kept = await other.get('resp_batch_9101', accountId);
    expect(kept && !kept.live && kept.stored).toMatchObject({ status: 'cancelled', outputText: 'so far' });
    const object = rebuild((kept as { stored: StoredResponse }).stored, { events: false }).response;
    expect(object).toMatchObject({ status: 'cancelled', error: null, output: [{ status: 'incomplete', content: [{ text: 'so far' }] }] });
    expect(await other.delete('resp_batch_9101', accountId)).toBe('deleted');
    expect(await other.delete('resp_batch_9101', accountId)).toBe('missing');

    // One that finished on its replica before hearing of the cancel: the cancel stands.
    const late = producer.begin(background(9102), () => ({}), { onCancel: () => {} });
    await producer.flush();
    expect(await other.cancel('resp_batch_9102', accountId)).toBe(true);
    late.finish({ status: 'completed', outputText: 'all of it', transcript: [['t', 'all of it'], ['d', 12]], completedAt: 12_000 });
    await producer.flush();
    expect(await store.db.selectFrom('responses').select(['status', 'output_text']).where('id', '=', 'resp_batch_9102').executeTakeFirstOrThrow()).toEqual({ status: 'cancelled', output_text: '' });
    // A producer that never writes its version (it died) holds up deletion for a lease at most.
    expect(await other.delete('resp_batch_9102', accountId, Date.now() + 400)).toBe('deleted');
    await store.db.insertInto('responses').values({ ...inProgressRow('resp_batch_9102', accountId, { createdAt: Date.now(), leaseExpiresAt: null, background: true }), status: 'cancelled', transcript: JSON.stringify([['x', 12]]), completed_at: 12_000 }).execute();

    // Only background responses, and only while in progress.
    const plain = producer.begin(record(9103, accountId), () => ({}));
    expect(await producer.cancel('resp_batch_9103', accountId)).toBe(false);
    await producer.flush();
    expect(await other.cancel('resp_batch_9103', accountId)).toBe(false);
    plain.finish({ status: 'completed', outputText: 'x', transcript: [['t', 'x'], ['d', 1]], completedAt: 1 });
    await producer.flush();

    // Followers elsewhere get the ending: opening events, then error and response.failed (status cancelled).
    const events: string[] = [];
    for await (const e of other.replay('resp_batch_9102', accountId, -1, new AbortController().signal, (stored) => rebuild(stored, { events: true }).events)) {
      events.push(`${e.sequence_number}:${e.type}${e.type === 'error' ? `:${e.code as string}` : e.type === 'response.failed' ? `:${(e.response as { status: string }).status}` : ''}`);
    }
    expect(events).toEqual(['0:response.created', '1:response.in_progress', '2:error:response_cancelled', '3:response.failed:cancelled']);
  });

  it('a follower on another replica that had seen part of a response cancelled there gets the ending, numbered on from what it saw', async () => {
    const producer = new ResponseStore(store.db, { batchMs: 5, leaseMs: 60_000 });
    const other = new ResponseStore(store.db, { batchMs: 5, leaseMs: 60_000, pollMs: 50 });
    const base = record(9201, accountId);
    const rec: ResponseRecord = { ...base, params: { ...base.params, background: true } };
    const encoder = new ResponsesEncoder(rec.params);
    const live = producer.begin(rec, () => encoder.response(), { onCancel: () => {} });
    live.append(encoder.begin());
    live.append(encoder.push({ type: 'text', delta: 'a' }, 0));
    live.append(encoder.push({ type: 'text', delta: 'b' }, 0)); // events 0-5, which the follower saw there
    await producer.flush();
    const seen: string[] = [];
    const following = (async () => {
      for await (const e of other.replay(rec.id, accountId, 5, new AbortController().signal, (stored) => rebuild(stored, { events: true }).events)) seen.push(`${e.sequence_number}:${e.type}`);
    })();
    await new Promise((r) => setTimeout(r, 100));
    expect(await other.cancel(rec.id, accountId)).toBe(true);
    await following;
    expect(seen).toEqual(['6:error', '7:response.failed']);

    // A follower of the producing replica stops at the producer's own ending, whatever the row says.
    const rec2: ResponseRecord = { ...record(9202, accountId), params: { ...record(9202, accountId).params, background: true } };
    const enc2 = new ResponsesEncoder(rec2.params);
    const live2 = producer.begin(rec2, () => enc2.response(), { onCancel: () => {} });
    live2.append(enc2.begin());
    await producer.flush();
    expect(await other.cancel(rec2.id, accountId)).toBe(true); // not heard yet by the producer, which completes
    const here: string[] = [];
    const followHere = (async () => {
      for await (const e of producer.replay(rec2.id, accountId, -1, new AbortController().signal, (stored) => rebuild(stored, { events: true }).events)) here.push(e.type);
    })();
    await new Promise((r) => setTimeout(r, 20));
    live2.append([...enc2.push({ type: 'text', delta: 'done' }, 1), ...enc2.push({ type: 'done' }, 1)]);
    live2.finish({ status: 'completed', outputText: 'done', transcript: [['t', 'done'], ['d', 1]], completedAt: 1000 });
    await followHere;
    expect(here.at(-1)).toBe('response.completed');
    expect(here.filter((t) => t === 'error')).toEqual([]);
  });
});
