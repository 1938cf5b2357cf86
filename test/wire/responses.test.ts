import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agents/types.js';
import { SvcError } from '../../src/errors.js';
import { ResponsesEncoder, type ResponseParams } from '../../src/wire/responses.js';
import { responseParams } from '../helpers/response-params.js';
import { responsesFrame } from '../../src/wire/sse.js';

const params = responseParams;

function run(events: AgentEvent[]) {
  const enc = new ResponsesEncoder(params);
  const out = [...enc.begin()];
  for (const e of events) out.push(...enc.push(e, 1_700_000_005));
  return { enc, out };
}

const cites = [
  { order: 2, name: 'Second', url: 'https://b' },
  { order: 1, name: 'First', url: 'https://a' },
];

describe('ResponsesEncoder', () => {
  it('emits the full OpenAI event sequence with contiguous sequence numbers', () => {
    const { out } = run([
      { type: 'text', delta: 'Revenue [1] ' },
      { type: 'text', delta: 'and margin [2].' },
      ...cites.map((citation) => ({ type: 'citation' as const, citation })),
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 9 } },
      { type: 'done' },
    ]);
    expect(out.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.annotation.added',
      'response.output_text.annotation.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(out.map((e) => e.sequence_number)).toEqual(out.map((_, i) => i));
    for (const e of out.filter((e) => 'item_id' in e)) expect(e.item_id).toBe('msg_1');
  });

  it('places annotations on their [n] markers, in order, and repeats the full state in every done event', () => {
    const { out, enc } = run([{ type: 'text', delta: 'Revenue [1] and margin [2].' }, ...cites.map((citation) => ({ type: 'citation' as const, citation })), { type: 'done' }]);
    const added = out.filter((e) => e.type === 'response.output_text.annotation.added');
    expect(added.map((e) => e.annotation_index)).toEqual([0, 1]);
    const a1 = added[0]!.annotation as Record<string, unknown>;
    expect(a1).toEqual({ type: 'url_citation', url: 'https://a', title: 'First', start_index: 8, end_index: 11, order: 1, name: 'First' });
    const text = 'Revenue [1] and margin [2].';
    expect(text.slice(a1.start_index as number, a1.end_index as number)).toBe('[1]');
    const partDone = out.find((e) => e.type === 'response.content_part.done')!.part as { text: string; annotations: unknown[] };
    expect(partDone.text).toBe(text);
    expect(partDone.annotations).toHaveLength(2);
    const completed = out.find((e) => e.type === 'response.completed')!.response as Record<string, any>;
    expect(completed.status).toBe('completed');
    expect(completed.output[0].content[0].annotations).toHaveLength(2);
    expect(completed.citations).toEqual([
      { order: 1, name: 'First', url: 'https://a' },
      { order: 2, name: 'Second', url: 'https://b' },
    ]);
    expect(completed.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(enc.response()).toEqual(completed);
  });

  it('gives an uncited source a zero-width span at the end of the text', () => {
    const { enc } = run([{ type: 'text', delta: 'No markers here.' }, { type: 'citation', citation: { order: 1, name: 'A', url: 'u' } }, { type: 'done' }]);
    const ann = enc.response().output[0]!.content[0]!.annotations[0]!;
    expect([ann.start_index, ann.end_index]).toEqual([16, 16]);
  });

  it('always carries annotations: [] and integer timestamps; usage null until the end', () => {
    const enc = new ResponsesEncoder(params);
    const [created] = enc.begin();
    const r = created!.response as Record<string, unknown>;
    expect(r.usage).toBeNull();
    expect(r.output).toEqual([]);
    expect(Number.isInteger(r.created_at)).toBe(true);
    const out = [...enc.push({ type: 'text', delta: 'x' }, 1), ...enc.push({ type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } }, 1), ...enc.push({ type: 'done' }, 1)];
    const part = out.find((e) => e.type === 'response.content_part.added')!.part as { annotations: unknown[] };
    expect(part.annotations).toEqual([]);
    expect(enc.response().output[0]!.content[0]!.annotations).toEqual([]);
    expect(enc.response().completed_at).toBe(1);
  });

  it('opens the message even when the answer is empty', () => {
    const { out } = run([{ type: 'done' }]);
    expect(out.map((e) => e.type)).toContain('response.output_item.added');
    expect(out.at(-1)!.type).toBe('response.completed');
  });

  it('fails with an error event then response.failed, keeping text already sent', () => {
    const err = new SvcError('upstream', { code: 'upstream_error', message: 'Kalshi is down' });
    const { out, enc } = run([{ type: 'text', delta: 'partial' }, { type: 'failed', error: err }]);
    const [error, failed] = out.slice(-2);
    expect(error).toMatchObject({ type: 'error', code: 'upstream_error', message: 'Kalshi is down', error: { type: 'upstream_error', code: 'upstream_error' } });
    expect(failed!.type).toBe('response.failed');
    expect(failed!.sequence_number).toBe(error!.sequence_number + 1);
    const r = enc.response();
    expect(r.status).toBe('failed');
    expect(r.error).toEqual({ code: 'upstream_error', message: 'Kalshi is down' });
    expect(r.output[0]!.content[0]!.text).toBe('partial');
    // Built without events (a plain body, GET of a stored response), it is the same object.
    const quiet = new ResponsesEncoder(params, { emit: false });
    for (const e of [{ type: 'text', delta: 'partial' }, { type: 'failed', error: err }] as AgentEvent[]) quiet.push(e, 1_700_000_005);
    expect(quiet.response()).toEqual(r);
  });

  it('cancel(): status cancelled with no error, the text so far kept incomplete; an error event then response.failed; nothing after an ending', () => {
    const { out, enc } = run([{ type: 'text', delta: 'so far' }]);
    const ending = enc.cancel(1_700_000_009);
    expect(ending.map((e) => [e.type, e.sequence_number])).toEqual([
      ['error', out.length],
      ['response.failed', out.length + 1],
    ]);
    expect(ending[0]).toMatchObject({ code: 'response_cancelled', error: { type: 'conflict_error', code: 'response_cancelled' } });
    const r = enc.response();
    expect(r).toMatchObject({ status: 'cancelled', error: null, completed_at: 1_700_000_009, output: [{ status: 'incomplete', content: [{ text: 'so far', annotations: [] }] }] });
    expect(ending[1]!.response).toEqual(r);
    expect(enc.cancel(1_700_000_010)).toEqual([]);
    expect(enc.push({ type: 'text', delta: ' more' }, 1_700_000_010)).toEqual([]);
    expect(enc.push({ type: 'done' }, 1_700_000_010)).toEqual([]);
    expect(enc.response()).toEqual(r);
    // Built without events, it is the same object; one that had finished is not cancelled.
    const quiet = new ResponsesEncoder(params, { emit: false });
    quiet.push({ type: 'text', delta: 'so far' }, 0);
    expect(quiet.cancel(1_700_000_009)).toEqual([]);
    expect(quiet.response()).toEqual(r);
    const finished = run([{ type: 'done' }]).enc;
    expect(finished.cancel(1_700_000_009)).toEqual([]);
    expect(finished.status).toBe('completed');
    expect(enc.responseJson()).toBe(JSON.stringify(r));
  });
});

describe('an answer cut at max_output_tokens', () => {
  it("ends incomplete: the item incomplete, incomplete_details naming the limit, every *.done event, then response.incomplete", () => {
    const { out, enc } = run([{ type: 'text', delta: 'Revenue rose [1]' }, { type: 'citation', citation: { order: 1, name: 'Src', url: 'https://s' } }, { type: 'usage', usage: { inputTokens: 5, outputTokens: 4 } }, { type: 'done', incomplete: 'max_output_tokens' }]);
    expect(out.map((e) => e.type).slice(-5)).toEqual(['response.output_text.annotation.added', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.incomplete']);
    const r = enc.response();
    expect(r).toMatchObject({ status: 'incomplete', error: null, incomplete_details: { reason: 'max_output_tokens' }, completed_at: 1_700_000_005, usage: { output_tokens: 4 } });
    expect(r.output[0]).toMatchObject({ status: 'incomplete', content: [{ text: 'Revenue rose [1]', annotations: [{ order: 1, start_index: 13, end_index: 16 }] }] });
    expect(out.at(-1)!.response).toEqual(r);
    expect(enc.status).toBe('incomplete');
    expect(enc.responseBody().toString('utf8')).toBe(JSON.stringify(r));
    // Nothing after its ending.
    expect(enc.push({ type: 'text', delta: ' more' }, 1_700_000_006)).toEqual([]);
  });
});

describe('fast serialisation', () => {
  it('responseJson() is exactly JSON.stringify(response()), including escapes and long texts', () => {
    for (const text of ['short "quoted" \\ text\n', `| a | b |\n${'x\u2028y\t"z"\n'.repeat(400)}`, '']) {
      const { enc } = run([{ type: 'text', delta: text }, { type: 'citation', citation: { order: 1, name: 'n "q"', url: 'u' } }, { type: 'done' }]);
      expect(enc.responseJson().toString()).toBe(JSON.stringify(enc.response()));
      expect(enc.responseJson().toString()).toBe(JSON.stringify(enc.response())); // memoised path
      expect(enc.responseBody().equals(Buffer.from(JSON.stringify(enc.response())))).toBe(true);
      expect(enc.responseBody().equals(Buffer.from(JSON.stringify(enc.response())))).toBe(true); // remembered bytes
    }
  });

  it('responseJson() matches JSON.stringify(response()) for every status and every echoed parameter', () => {
    const variants: Partial<ResponseParams>[] = [
      {},
      { instructions: 'Be "brief"\n\u2028é', previousResponseId: 'resp_prev', metadata: { b: '1', 'k "q"': 'v\n', '10': 'ten', '2': 'two' }, store: false },
      { temperature: 0.7, topP: 0.25, maxOutputTokens: 1024, user: 'user-🙂', model: 'svc-prediction-markets-agent:cache' },
      { temperature: 0, topP: 0, maxOutputTokens: 1 },
    ];
    const scripts: AgentEvent[][] = [
      [],
      [{ type: 'text', delta: 'partial [1]' }],
      [{ type: 'text', delta: 'answer [2] and [1]' }, ...cites.map((citation) => ({ type: 'citation' as const, citation })), { type: 'usage', usage: { inputTokens: 3, outputTokens: 9 } }, { type: 'done' }],
      [{ type: 'text', delta: 'cut off' }, { type: 'failed', error: new SvcError('upstream', { code: 'upstream_error', message: 'Kalshi is "down"' }) }],
      [{ type: 'text', delta: 'cut at [1]' }, { type: 'citation', citation: cites[0]! }, { type: 'usage', usage: { inputTokens: 3, outputTokens: 4 } }, { type: 'done', incomplete: 'max_output_tokens' }],
      [{ type: 'failed', error: new SvcError('invalid_request', { code: 'invalid_event_url', message: 'bad', param: 'input' }) }],
    ];
    for (const variant of variants) {
      for (const script of scripts) {
        const enc = new ResponsesEncoder({ ...params, ...variant }, { emit: false });
        expect(enc.responseJson()).toBe(JSON.stringify(enc.response()));
        for (const e of script) enc.push(e, 1_700_000_005);
        expect(enc.responseJson()).toBe(JSON.stringify(enc.response()));
        expect(enc.responseBody().toString('utf8')).toBe(JSON.stringify(enc.response()));
      }
    }
  });

  it('a long answer served again with changed citations is written with the new ones', () => {
    const text = `# Report\n${Array.from({ length: 150 }, (_, i) => `| row ${i} | [${(i % 5) + 1}] |`).join('\n')}`;
    const sources = (tweak: string) => [1, 2, 3, 4, 5].map((order) => ({ order, name: `Source ${order}`, url: `https://example.com/${order}${order === 4 ? tweak : ''}` }));
    for (const citations of [sources(''), sources(''), sources('?v=2'), sources('?v=2').slice(0, 4), sources('')]) {
      const enc = new ResponsesEncoder(params, { emit: false });
      enc.push({ type: 'text', delta: text.slice(0, 500) }, 1);
      enc.push({ type: 'text', delta: text.slice(500) }, 1);
      for (const citation of citations) enc.push({ type: 'citation', citation }, 1);
      enc.push({ type: 'done' }, 2);
      expect(enc.responseBody().toString('utf8')).toBe(JSON.stringify(enc.response()));
    }
  });

  it('a long answer served again is exact for every request: new ids and times, and any other field changed', () => {
    const text = `# Report\n${Array.from({ length: 120 }, (_, i) => `| row ${i} é | [${(i % 3) + 1}] |`).join('\n')}`;
    const citations = [1, 2, 3].map((order) => ({ order, name: `Source "${order}"`, url: `https://example.com/${order}` }));
    const serve = (variant: Partial<ResponseParams>, script: { usage?: number; citations?: typeof citations; completedAt?: number } = {}) => {
      const enc = new ResponsesEncoder({ ...params, ...variant }, { emit: false });
      enc.push({ type: 'answer', answer: { text, citations: script.citations ?? citations } }, 1);
      enc.push({ type: 'usage', usage: { inputTokens: 12, outputTokens: script.usage ?? 900 } }, 1);
      enc.push({ type: 'done' }, script.completedAt ?? 1_700_000_009);
      return enc;
    };
    const variants: [Partial<ResponseParams>, Parameters<typeof serve>[1]][] = [
      [{}, {}],
      [{ id: 'resp_2', messageId: 'msg_2', createdAt: 1_700_000_100 }, { completedAt: 1_700_000_101 }],
      [{ id: 'resp_ünïcode', messageId: 'msg_"q"', createdAt: 5 }, { completedAt: 99_999_999_999 }],
      [{ metadata: { a: '1', b: '2' } }, {}],
      [{ metadata: { b: '2', a: '1' } }, {}],
      [{ metadata: { b: '2', a: '1' } }, {}],
      [{ temperature: 0.5, topP: 0.9, maxOutputTokens: 10, user: 'u', instructions: 'be brief', previousResponseId: 'resp_0', store: false }, {}],
      [{ model: 'svc-prediction-markets-agent:cache' }, {}],
      [{}, { usage: 901 }],
      [{}, { citations: citations.map((c) => (c.order === 2 ? { ...c, url: 'https://example.com/two' } : c)) }],
      [{}, { citations: citations.slice(0, 2) }],
      [{ instructions: 'long "instructions"\n'.repeat(2000) }, {}],
      [{ instructions: 'long "instructions"\n'.repeat(2000) }, {}],
      [{}, {}],
    ];
    for (const [variant, script] of variants) {
      const enc = serve(variant, script);
      expect(enc.responseBody().toString('utf8')).toBe(JSON.stringify(enc.response()));
      // Served twice in a row: the second body comes from the template.
      expect(enc.responseBody().toString('utf8')).toBe(JSON.stringify(enc.response()));
    }
  });

  it('stream frames are exactly JSON.stringify of their events, the long text spliced in once', () => {
    const long = `| a | b |\n${'x\u2028y\t"z" é 🙂\n'.repeat(300)} [1]`;
    const scripts: AgentEvent[][] = [
      [{ type: 'text', delta: long.slice(0, 2000) }, { type: 'text', delta: long.slice(2000) }, { type: 'citation', citation: { order: 1, name: 'n', url: 'u' } }, { type: 'done' }],
      [{ type: 'text', delta: 'short [1]' }, { type: 'citation', citation: { order: 1, name: 'n', url: 'u' } }, { type: 'done' }],
      [{ type: 'text', delta: long }, { type: 'failed', error: new SvcError('upstream', { code: 'upstream_error', message: 'gone' }) }],
      [{ type: 'done' }],
    ];
    for (const script of scripts) {
      for (let pass = 0; pass < 2; pass++) {
        const { out } = run(script);
        for (const e of out) expect(responsesFrame(e)).toBe(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
      }
    }
  });
});
