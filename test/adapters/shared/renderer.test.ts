import { describe, expect, it } from 'vitest';
import { runAnswer, editingPresenter, type AnswerView } from '../../../adapters/shared/answer.js';
import type { AnswerEvent } from '../../../adapters/shared/api-client.js';
import { MessageStream, type MessageSink } from '../../../adapters/shared/message-stream.js';
import { ThrottledEditor } from '../../../adapters/shared/throttled-editor.js';
import { FakeClock, settle } from '../helpers/fake-clock.js';

class RateLimited extends Error {
  constructor(readonly ms: number) {
    super('rate limited');
  }
}

const errors = {
  retryAfterMs: (err: unknown) => (err instanceof RateLimited ? err.ms : null),
  isPermanent: (err: unknown) => err instanceof Error && err.message === 'gone',
};

/** A sink that records every call with the fake time it started at; calls resolve when released (or at once). */
class RecordingSink implements MessageSink<number> {
  calls: Array<{ op: 'post' | 'edit' | 'remove'; id: number; text: string; at: number }> = [];
  messages = new Map<number, string>();
  failures: Array<(op: string) => Error | null> = [];
  manual = false;
  #release: Array<() => void> = [];
  #ids = 0;

  constructor(private readonly clock: FakeClock) {}

  async #gate(op: string): Promise<void> {
    const fail = this.failures.shift()?.(op);
    if (fail) throw fail;
    if (this.manual) await new Promise<void>((r) => this.#release.push(r));
  }

  releaseAll(): void {
    for (const r of this.#release.splice(0)) r();
  }

  get inFlight(): number {
    return this.#release.length;
  }

  async post(text: string): Promise<number> {
    const id = ++this.#ids;
    this.calls.push({ op: 'post', id, text, at: this.clock.now() });
    await this.#gate('post');
    this.messages.set(id, text);
    return id;
  }

  async edit(id: number, text: string): Promise<void> {
    this.calls.push({ op: 'edit', id, text, at: this.clock.now() });
    await this.#gate('edit');
    this.messages.set(id, text);
  }

  async remove(id: number): Promise<void> {
    this.calls.push({ op: 'remove', id, text: '', at: this.clock.now() });
    this.messages.delete(id);
  }

  edits(id: number) {
    return this.calls.filter((c) => c.op === 'edit' && c.id === id);
  }
}

function editor(clock: FakeClock, sink: RecordingSink, intervalMs = 1000) {
  return new ThrottledEditor({ apply: (t) => sink.edit(1, t), intervalMs, clock, initial: { text: 'start', at: clock.now() }, ...errors });
}

describe('ThrottledEditor', () => {
  it('edits at most once per interval, with the latest text only', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const e = editor(clock, sink);
    for (let i = 1; i <= 50; i++) {
      e.update(`text ${i}`);
      await clock.advance(100); // 50 updates over 5 s
    }
    const edits = sink.edits(1);
    expect(edits.length).toBeLessThanOrEqual(5);
    expect(edits.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < edits.length; i++) expect(edits[i]!.at - edits[i - 1]!.at).toBeGreaterThanOrEqual(1000);
    // Each edit carries the newest text at the time it started.
    for (const edit of edits) expect(edit.text).toBe(`text ${Math.round((edit.at - (clock.now() - 5000)) / 100)}`);
    const done = e.finish('final');
    await clock.advance(1000);
    expect(await done).toBe(true);
    expect(sink.messages.get(1)).toBe('final');
  });

  it('keeps one edit in flight and skips identical text', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    sink.manual = true;
    const e = editor(clock, sink);
    e.update('a');
    await clock.advance(1000);
    expect(sink.inFlight).toBe(1);
    e.update('b');
    e.update('c');
    await clock.advance(5000);
    expect(sink.edits(1).map((c) => c.text)).toEqual(['a']); // still waiting for the first one
    sink.releaseAll();
    await settle();
    await clock.advance(0);
    expect(sink.edits(1).map((c) => c.text)).toEqual(['a', 'c']);
    sink.releaseAll();
    await settle();
    e.update('c');
    await clock.advance(5000);
    expect(sink.edits(1)).toHaveLength(2);
  });

  it('waits out a Retry-After before the next edit', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const e = editor(clock, sink);
    sink.failures.push(() => new RateLimited(7000));
    e.update('one');
    await clock.advance(1000);
    const limitedAt = clock.now();
    e.update('two');
    await clock.advance(6900);
    expect(sink.edits(1)).toHaveLength(1);
    await clock.advance(200);
    expect(sink.edits(1).map((c) => c.text)).toEqual(['one', 'two']);
    expect(sink.edits(1)[1]!.at - limitedAt).toBeGreaterThanOrEqual(7000);
  });

  it('retries the final edit until it lands, honouring Retry-After', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const e = editor(clock, sink);
    sink.failures.push(
      () => new RateLimited(3000),
      () => new Error('502 bad gateway'),
      () => new RateLimited(2000),
    );
    const done = e.finish('the end');
    await clock.advance(60_000);
    expect(await done).toBe(true);
    const edits = sink.edits(1);
    expect(edits.map((c) => c.text)).toEqual(['the end', 'the end', 'the end', 'the end']);
    expect(edits[1]!.at - edits[0]!.at).toBeGreaterThanOrEqual(3000);
    expect(edits[3]!.at - edits[2]!.at).toBeGreaterThanOrEqual(2000);
    expect(sink.messages.get(1)).toBe('the end');
  });

  it('gives up on a permanent error', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const e = editor(clock, sink);
    sink.failures.push(() => new Error('gone'));
    const done = e.finish('x');
    await clock.advance(10_000);
    expect(await done).toBe(false);
    expect(sink.edits(1)).toHaveLength(1);
  });

  it('a streaming edit refused by a permanent error is the last attempt: no retries, nor a final edit', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const e = editor(clock, sink);
    sink.failures.push(() => new Error('gone'));
    e.update('text 1');
    await clock.advance(5000);
    e.update('text 2');
    await clock.advance(5000);
    expect(e.broken).toBe(true);
    const done = e.finish('the end');
    await clock.advance(10_000);
    expect(await done).toBe(false);
    expect(sink.edits(1).map((c) => c.text)).toEqual(['text 1']);
  });
});

describe('MessageStream', () => {
  it('spreads a growing text over messages, each throttled, and lands every part', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const stream = new MessageStream(sink, { limit: 200, intervalMs: 1000, clock, ...errors });
    let text = '';
    for (let i = 0; i < 100; i++) {
      text += `word${i} `;
      stream.show(text);
      await clock.advance(50);
    }
    const finished = stream.finish(`${text}THE END`);
    await clock.advance(10_000);
    expect(await finished).toBe(true);
    const shown = [...sink.messages.values()];
    expect(shown.join('')).toBe(`${text}THE END`);
    expect(shown.every((t) => t.length <= 200)).toBe(true);
    for (const id of sink.messages.keys()) {
      const edits = sink.edits(id);
      for (let i = 1; i < edits.length; i++) expect(edits[i]!.at - edits[i - 1]!.at).toBeGreaterThanOrEqual(1000);
    }
  });

  it('removes messages the final text no longer needs', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const stream = new MessageStream(sink, { limit: 100, intervalMs: 1000, clock, ...errors });
    stream.show('x '.repeat(120));
    await clock.advance(5000);
    expect(sink.messages.size).toBe(3);
    const finished = stream.finish('short');
    await clock.advance(5000);
    expect(await finished).toBe(true);
    expect([...sink.messages.values()]).toEqual(['short']);
  });

  it('a message refused for good while streaming breaks the stream: no more posts until the end', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const stream = new MessageStream(sink, { limit: 100, intervalMs: 1000, clock, ...errors });
    stream.show('first words');
    await clock.advance(100);
    sink.failures.push((op) => (op === 'edit' ? new Error('gone') : null));
    stream.show('first words and more');
    await clock.advance(2000);
    stream.show('x '.repeat(120));
    await clock.advance(5000);
    expect(sink.calls.map((c) => c.op)).toEqual(['post', 'edit']);
  });
});

describe('MessageStream: a part of the final text that cannot be posted', () => {
  it('is tried as long as a final edit; failing that, the last message that landed says the rest is missing', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const stream = new MessageStream(sink, { limit: 200, intervalMs: 1000, clock, ...errors });
    stream.show('First part of the answer.');
    await clock.advance(100);
    // The platform fails every post from now on (an outage), edits still land.
    for (let i = 0; i < 20; i++) sink.failures.push((op) => (op === 'post' ? new Error('internal_error') : null));
    const finished = stream.finish(`First part of the answer. ${'more words '.repeat(40)}The end.`);
    await clock.advance(200_000);
    expect(await finished).toBe(false);
    expect(sink.calls.filter((c) => c.op === 'post').length).toBe(1 + 8);
    const [only] = [...sink.messages.values()];
    expect(sink.messages.size).toBe(1);
    expect(only!.length).toBeLessThanOrEqual(200);
    expect(only).toMatch(/^First part of the answer\. more words[^\n]* …\n\n⚠️ The rest of this answer could not be posted\. Please ask again to see it whole\.$/);
  });
});

describe('runAnswer', () => {
  const view: AnswerView = {
    status: (ms) => `working ${Math.floor(ms / 1000)}s`,
    interim: (md) => `${md} …`,
    final: (md, citations) => `${md}\n${citations.map((c) => `[${c.order}] ${c.name}`).join('\n')}`,
    failed: (md, problem, interrupted) => `${md}\n${interrupted ? 'interrupted: ' : ''}${problem.message}`,
  };

  async function* scripted(clock: FakeClock, gate: Promise<void>, events: AnswerEvent[]): AsyncGenerator<AnswerEvent> {
    await gate;
    yield* events;
    void clock;
  }

  it('shows a status line with the elapsed time until text arrives, then the answer with sources', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const stream = new MessageStream(sink, { limit: 2000, intervalMs: 1000, clock, ...errors });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const outcome = runAnswer(
      scripted(clock, gate, [
        { type: 'text', delta: 'The answer [1].' },
        { type: 'done', citations: [{ order: 1, name: 'Source', url: 'https://x' }] },
      ]),
      editingPresenter(stream, view),
      { clock, statusIntervalMs: 10_000 },
    );
    await clock.advance(35_000);
    expect(sink.calls[0]).toMatchObject({ op: 'post', text: 'working 0s' });
    expect(sink.messages.get(1)).toBe('working 30s');
    open();
    await settle();
    await clock.advance(5000);
    expect((await outcome).status).toBe('done');
    expect(sink.messages.get(1)).toBe('The answer [1].\n[1] Source');
    expect(clock.pending).toBe(0);
  });

  it('keeps the text so far when the stream breaks, and says so', async () => {
    const clock = new FakeClock();
    const sink = new RecordingSink(clock);
    const stream = new MessageStream(sink, { limit: 2000, intervalMs: 1000, clock, ...errors });
    const outcome = runAnswer(
      scripted(clock, Promise.resolve(), [
        { type: 'text', delta: 'Half an answer' },
        { type: 'failed', problem: { kind: 'server_error', message: 'it broke' }, interrupted: true },
      ]),
      editingPresenter(stream, view),
      { clock, statusIntervalMs: 10_000 },
    );
    await clock.advance(5000);
    expect((await outcome).status).toBe('failed');
    expect(sink.messages.get(1)).toBe('Half an answer\ninterrupted: it broke');
  });
});
