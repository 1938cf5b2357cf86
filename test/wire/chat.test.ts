import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agents/types.js';
import { SvcError } from '../../src/errors.js';
import { ChatEncoder } from '../../src/wire/chat.js';

const base = { id: 'chatcmpl-1', model: 'svc-test', created: 1_700_000_000 };

describe('ChatEncoder', () => {
  it('starts with the assistant role, streams content, then one finish chunk with all annotations', () => {
    const enc = new ChatEncoder({ ...base, includeUsage: false });
    const frames: any[] = [...enc.begin()];
    frames.push(...enc.push({ type: 'text', delta: 'A [1]' }));
    frames.push(...enc.push({ type: 'citation', citation: { order: 1, name: 'Src', url: 'https://s' } }));
    frames.push(...enc.push({ type: 'usage', usage: { inputTokens: 2, outputTokens: 3 } }));
    frames.push(...enc.push({ type: 'done' }));
    expect(frames[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(frames[1].choices[0].delta).toEqual({ content: 'A [1]' });
    const finish = frames.at(-1);
    expect(finish.choices[0].finish_reason).toBe('stop');
    expect(finish.choices[0].delta.annotations).toEqual([
      { type: 'url_citation', url_citation: { url: 'https://s', title: 'Src', start_index: 2, end_index: 5 }, order: 1, name: 'Src', url: 'https://s' },
    ]);
    expect(finish.choices[0].citations).toEqual([{ order: 1, name: 'Src', url: 'https://s' }]);
    expect(frames.filter((f) => f.choices[0].delta.annotations)).toHaveLength(1);
    for (const f of frames) {
      expect(f).toMatchObject({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'svc-test' });
      expect('usage' in f).toBe(false);
      expect('error' in f).toBe(false);
    }
  });

  it('adds a usage chunk with empty choices when include_usage is set', () => {
    const enc = new ChatEncoder({ ...base, includeUsage: true });
    enc.begin();
    enc.push({ type: 'text', delta: 'hi' });
    enc.push({ type: 'usage', usage: { inputTokens: 2, outputTokens: 1 } });
    const frames: any[] = enc.push({ type: 'done' });
    expect(frames).toHaveLength(2);
    expect(frames[0].usage).toBeNull();
    expect(frames[1].choices).toEqual([]);
    expect(frames[1].usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 });
  });

  it('builds the non-stream completion with annotations [] when there are none', () => {
    const enc = new ChatEncoder({ ...base, includeUsage: false });
    enc.push({ type: 'text', delta: 'plain' });
    enc.push({ type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } });
    enc.push({ type: 'done' });
    const c = enc.completion();
    expect(c.choices[0]!.message).toEqual({ role: 'assistant', content: 'plain', refusal: null, annotations: [] });
    expect(c.choices[0]!.finish_reason).toBe('stop');
  });

  it("an answer cut at the caller's token limit finishes with finish_reason length, streamed or not", () => {
    for (const emit of [true, false]) {
      const enc = new ChatEncoder({ ...base, includeUsage: false }, { emit });
      enc.push({ type: 'text', delta: 'cut [1]' });
      enc.push({ type: 'citation', citation: { order: 1, name: 'Src', url: 'https://s' } });
      const frames: any[] = enc.push({ type: 'done', incomplete: 'max_output_tokens' });
      if (emit) expect(frames[0].choices[0].finish_reason).toBe('length');
      const c = enc.completion();
      expect(c.choices[0]!.finish_reason).toBe('length');
      expect(c.choices[0]!.citations).toEqual([{ order: 1, name: 'Src', url: 'https://s' }]);
      expect(enc.completionBody().toString('utf8')).toBe(JSON.stringify(c));
    }
  });

  it('reports a failure as a bare error frame', () => {
    const enc = new ChatEncoder({ ...base, includeUsage: false });
    const frames = enc.push({ type: 'failed', error: new SvcError('upstream', { code: 'upstream_error', message: 'down' }) });
    expect(frames).toEqual([{ error: { message: 'down', type: 'upstream_error', param: null, code: 'upstream_error' } }]);
  });
});

describe('fast serialisation', () => {
  it('completionJson() is exactly JSON.stringify(completion())', () => {
    for (const text of ['a "b"', `${'line\n"quoted"\t'.repeat(500)}`]) {
      const enc = new ChatEncoder({ ...base, includeUsage: false });
      enc.push({ type: 'text', delta: text });
      enc.push({ type: 'done' });
      expect(enc.completionJson().toString()).toBe(JSON.stringify(enc.completion()));
    }
  });

  it('completionBody() is exactly JSON.stringify(completion()) for short, long, whole-answer and cited answers', () => {
    const long = `| a | b |\n${'x\u2028y\t"z" é 🙂 [1]\n'.repeat(300)}`;
    const cites = [1, 2, 3, 4, 5].map((order) => ({ order, name: `Source "${order}"`, url: `https://example.com/${order}` }));
    const scripts: AgentEvent[][] = [
      [{ type: 'text', delta: 'short [1]' }, { type: 'citation', citation: cites[0]! }, { type: 'done' }],
      [{ type: 'text', delta: long.slice(0, 1500) }, { type: 'text', delta: long.slice(1500) }, ...cites.map((citation) => ({ type: 'citation' as const, citation })), { type: 'done' }],
      [{ type: 'answer', answer: { text: long, citations: cites } }, { type: 'usage', usage: { inputTokens: 4, outputTokens: 700 } }, { type: 'done' }],
      [{ type: 'done' }],
    ];
    for (const includeUsage of [false, true]) {
      for (const script of scripts) {
        const enc = new ChatEncoder({ ...base, includeUsage }, { emit: false });
        for (const e of script) expect(enc.push(e).filter((f) => !('error' in f) && (f as any).choices?.[0]?.delta?.content !== undefined)).toEqual([]);
        expect(enc.completionJson()).toBe(JSON.stringify(enc.completion()));
        expect(enc.completionBody().toString('utf8')).toBe(JSON.stringify(enc.completion()));
        expect(enc.completionBody().toString('utf8')).toBe(JSON.stringify(enc.completion())); // from the template
      }
    }
  });

  it('a long answer served again is exact for every request: new id and time, and any other field changed', () => {
    const text = `# Report\n${Array.from({ length: 120 }, (_, i) => `| row ${i} é | [${(i % 5) + 1}] |`).join('\n')}`;
    const citations = [1, 2, 3, 4, 5].map((order) => ({ order, name: `Source "${order}"`, url: `https://example.com/${order}` }));
    type Script = { id?: string; created?: number; model?: string; usage?: number; citations?: typeof citations; deltas?: boolean };
    const serve = (s: Script = {}) => {
      const enc = new ChatEncoder({ id: s.id ?? 'chatcmpl-1', model: s.model ?? 'svc-test', created: s.created ?? 1_700_000_000, includeUsage: false }, { emit: false });
      if (s.deltas) {
        enc.push({ type: 'text', delta: text.slice(0, 700) });
        enc.push({ type: 'text', delta: text.slice(700) });
        for (const citation of s.citations ?? citations) enc.push({ type: 'citation', citation });
      } else {
        enc.push({ type: 'answer', answer: { text, citations: s.citations ?? citations } });
      }
      enc.push({ type: 'usage', usage: { inputTokens: 12, outputTokens: s.usage ?? 900 } });
      enc.push({ type: 'done' });
      return enc;
    };
    const moved = citations.map((c) => (c.order === 2 ? { ...c, order: 6 } : c));
    const scripts: Script[] = [
      {},
      { id: 'chatcmpl-2', created: 1_700_000_100 },
      { id: 'chatcmpl-ünï"code"', created: 5 },
      { created: 99_999_999_999 },
      { model: 'svc-prediction-markets-agent:cache' },
      { usage: 901 },
      { citations: citations.map((c) => (c.order === 2 ? { ...c, url: 'https://example.com/two' } : c)) },
      { citations: citations.map((c) => (c.order === 3 ? { ...c, name: 'Renamed' } : c)) },
      { citations: citations.slice(0, 4) },
      // A citation whose marker is not in the text: its span moves to the end.
      { citations: moved },
      { deltas: true },
      { deltas: true, citations: citations.slice(1) },
      {},
    ];
    for (const script of scripts) {
      const enc = serve(script);
      expect(enc.completionBody().toString('utf8')).toBe(JSON.stringify(enc.completion()));
      // Served twice in a row: the second body comes from the template.
      expect(enc.completionBody().toString('utf8')).toBe(JSON.stringify(enc.completion()));
    }
  });
});
