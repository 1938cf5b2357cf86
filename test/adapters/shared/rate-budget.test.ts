import { describe, expect, it } from 'vitest';
import { MessageStream, type MessageSink } from '../../../adapters/shared/message-stream.js';
import { RateBudget } from '../../../adapters/shared/rate-budget.js';
import { ThrottledEditor } from '../../../adapters/shared/throttled-editor.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { busiestWindow } from '../helpers/windows.js';

const noErrors = { retryAfterMs: () => null, isPermanent: () => false };

/** Takes `n` slots at once; returns who got one when, in the order they were handed out. */
function takeMany(budget: RateBudget<'send'>, clock: FakeClock, n: number, scope = 'C1') {
  const granted: Array<{ who: number; at: number }> = [];
  for (let who = 0; who < n; who++) void budget.take('send', scope).then(() => granted.push({ who, at: clock.now() }));
  return granted;
}

describe('RateBudget', () => {
  it('hands out at most `count` slots in any window (and its margin of 250 ms), in the order they were asked for', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const budget = new RateBudget({ send: { count: 5, perMs: 5000 } }, clock);
    const granted = takeMany(budget, clock, 12);
    await clock.advance(0);
    expect(granted.map((g) => g.who)).toEqual([0, 1, 2, 3, 4]);
    await clock.advance(5249);
    expect(granted).toHaveLength(5);
    await clock.advance(1);
    expect(granted.map((g) => g.who)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await clock.advance(5250);
    expect(granted.map((g) => g.who)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(granted.map((g) => g.at - start)).toEqual([0, 0, 0, 0, 0, 5250, 5250, 5250, 5250, 5250, 10_500, 10_500]);
    expect(busiestWindow(granted.map((g) => g.at), 5000)).toBe(5);
  });

  it('frees a slot when the oldest one leaves the window (a sliding window, not a refilling bucket)', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const budget = new RateBudget({ send: { count: 2, perMs: 1000 } }, clock);
    const at: number[] = [];
    const take = () => void budget.take('send', 'C1').then(() => at.push(clock.now() - start));
    take();
    await clock.advance(600);
    take();
    await clock.advance(100);
    take(); // both slots are in the window until 1100 (1000 and its margin)
    await clock.advance(300);
    take(); // the second slot frees at 1700
    await clock.advance(2000);
    expect(at).toEqual([0, 600, 1100, 1700]);
  });

  it('keeps scopes and kinds apart', async () => {
    const clock = new FakeClock();
    const budget = new RateBudget({ post: { count: 1, perMs: 1000 }, update: { count: 1, perMs: 1000 } }, clock);
    const got: string[] = [];
    for (const [kind, scope] of [['post', 'C1'], ['post', 'C1'], ['post', 'C2'], ['update', 'C1']] as const) {
      void budget.take(kind, scope).then(() => got.push(`${kind} ${scope}`));
    }
    await clock.advance(0);
    expect(got).toEqual(['post C1', 'post C2', 'update C1']);
    await clock.advance(1099);
    expect(got).toEqual(['post C1', 'post C2', 'update C1']);
    await clock.advance(1);
    expect(got).toEqual(['post C1', 'post C2', 'update C1', 'post C1']);
  });

  it('hands out slots only as the clock runs, even a free one', async () => {
    const clock = new FakeClock();
    const budget = new RateBudget({ send: { count: 5, perMs: 5000 } }, clock);
    const granted = takeMany(budget, clock, 1);
    await Promise.resolve();
    expect(granted).toHaveLength(0);
    await clock.advance(0);
    expect(granted).toHaveLength(1);
  });
});

describe('ThrottledEditor with a shared budget', () => {
  /** A channel whose one slot per 5 s another answer has just used. */
  async function busyChannel() {
    const clock = new FakeClock();
    const start = clock.now();
    const budget = new RateBudget({ send: { count: 1, perMs: 5000 } }, clock);
    const taken = budget.take('send', 'C1');
    await clock.advance(0);
    await taken;
    const edits: Array<{ text: string; at: number }> = [];
    const editor = new ThrottledEditor({
      apply: async (text) => void edits.push({ text, at: clock.now() - start }),
      takeSlot: () => budget.take('send', 'C1'),
      intervalMs: 1000,
      clock,
      initial: { text: 'start', at: clock.now() },
      ...noErrors,
    });
    return { clock, editor, edits };
  }

  it('an edit waiting for its slot sends the newest text when the slot comes', async () => {
    const { clock, editor, edits } = await busyChannel();
    editor.update('a');
    await clock.advance(2000);
    editor.update('a b');
    await clock.advance(2000);
    editor.update('a b c');
    expect(edits).toEqual([]);
    await clock.advance(1250);
    expect(edits).toEqual([{ text: 'a b c', at: 5250 }]);
  });

  it('finishing while an edit waits for its slot sends the final text in that slot, once', async () => {
    const { clock, editor, edits } = await busyChannel();
    editor.update('a');
    await clock.advance(2000);
    const done = editor.finish('the whole answer');
    await clock.advance(10_000);
    expect(await done).toBe(true);
    expect(edits).toEqual([{ text: 'the whole answer', at: 5250 }]);
  });
});

/** Messages in one channel that every stream shares, with the channel's budget. */
class Channel {
  readonly calls: Array<{ op: 'post' | 'edit'; at: number }> = [];
  readonly messages: string[] = [];

  constructor(
    private readonly clock: FakeClock,
    private readonly budget: RateBudget<'send'>,
  ) {}

  sink(): MessageSink<number> & { mine: number[] } {
    const mine: number[] = [];
    return {
      mine,
      post: async (text) => {
        this.calls.push({ op: 'post', at: this.clock.now() });
        mine.push(this.messages.push(text) - 1);
        return mine.at(-1)!;
      },
      edit: async (id, text) => {
        this.calls.push({ op: 'edit', at: this.clock.now() });
        this.messages[id] = text;
      },
      remove: async () => {},
      waitForSlot: () => this.budget.take('send', 'C1'),
    };
  }
}

describe('MessageStream with a shared budget', () => {
  it('several answers streaming into one channel stay within its budget, and every part of every answer lands', async () => {
    const clock = new FakeClock();
    const channel = new Channel(clock, new RateBudget({ send: { count: 5, perMs: 5000 } }, clock));
    const answers = Array.from({ length: 5 }, (_, n) => {
      const sink = channel.sink();
      return { n, sink, text: '', stream: new MessageStream(sink, { limit: 1000, intervalMs: 1000, clock, ...noErrors }) };
    });
    for (let step = 0; step < 60; step++) {
      for (const a of answers) {
        a.text += `Answer ${a.n} sentence ${step}. `;
        a.stream.show(a.text);
      }
      await clock.advance(250);
    }
    const streamedUntil = clock.now();
    const finished = answers.map((a) => a.stream.finish(`${a.text}Sources: [1]`));
    await clock.advance(300_000);
    expect(await Promise.all(finished)).toEqual([true, true, true, true, true]);
    for (const a of answers) expect(a.sink.mine.map((id) => channel.messages[id]).join('')).toBe(`${a.text}Sources: [1]`);
    expect(busiestWindow(channel.calls.map((c) => c.at), 5000)).toBe(5);
    // Every answer needed several messages, and messages were edited while streaming, not only at the end.
    for (const a of answers) expect(a.sink.mine.length).toBeGreaterThan(1);
    expect(channel.calls.filter((c) => c.op === 'edit' && c.at < streamedUntil).length).toBeGreaterThanOrEqual(answers.length);
  });
});
