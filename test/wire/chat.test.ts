import { describe, expect, it } from 'vitest';
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
});
