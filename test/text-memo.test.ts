import { describe, expect, it } from 'vitest';
import { TextMemo, fingerprint } from '../src/text-memo.js';

describe('TextMemo', () => {
  it('computes once per text and stays exact when two texts share a fingerprint', () => {
    const a = 'a'.repeat(5000);
    // Same length, same sampled characters, one character different where no sample falls.
    const b = `${'a'.repeat(51)}b${'a'.repeat(4948)}`;
    expect(fingerprint(a)).toBe(fingerprint(b));
    let calls = 0;
    const memo = new TextMemo<string>({ maxBytes: 1 << 20 });
    const compute = (t: string) => {
      calls++;
      return t.includes('b') ? 'has b' : 'all a';
    };
    expect(memo.get(a, compute)).toBe('all a');
    expect(memo.get(a.slice(0, 2500) + a.slice(2500), compute)).toBe('all a');
    expect(calls).toBe(1);
    expect(memo.get(b, compute)).toBe('has b');
    expect(memo.get(a, compute)).toBe('all a');
    expect(calls).toBe(3);
  });

  it('uses short texts themselves as keys', () => {
    expect(fingerprint('short text')).toBe('short text');
  });

  it('stays within its byte budget', () => {
    const memo = new TextMemo<number>({ maxBytes: 100_000 });
    let calls = 0;
    for (let i = 0; i < 100; i++) memo.get(`${i}`.padStart(2000, '.'), () => ++calls);
    // The oldest texts were evicted: asking again computes again.
    memo.get('0'.padStart(2000, '.'), () => ++calls);
    expect(calls).toBe(101);
  });

  it('evicts the least recently used text first, hits counting as use', () => {
    const text = (c: string) => c.repeat(2000);
    const memo = new TextMemo<string>({ maxBytes: 13_000 }); // room for three 2000-character texts
    const computed: string[] = [];
    const get = (c: string) => memo.get(text(c), () => (computed.push(c), c));
    for (const c of ['a', 'b', 'c']) get(c);
    get('a'); // a becomes the most recent
    get('d'); // evicts b
    get('d'); // already the most recent
    get('d');
    get('e'); // evicts c
    get('a');
    get('d');
    get('e');
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e']);
    get('b');
    get('c');
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e', 'b', 'c']);
  });
});

describe('texts given as pieces', () => {
  const whole = Array.from({ length: 300 }, (_, i) => `row ${i} | ${i * 7} |\n`).join('');
  const splits = [[whole], [whole.slice(0, 1), whole.slice(1)], [whole.slice(0, 100), whole.slice(100, 3000), whole.slice(3000, whole.length - 3), whole.slice(-3)], whole.match(/[\s\S]{1,7}/g)!];

  it('have the fingerprint of the joined text however they are split', () => {
    for (const parts of splits) expect(fingerprint(parts)).toBe(fingerprint(whole));
  });

  it('find the value remembered for the joined text, and never one of a different text', () => {
    const memo = new TextMemo<number>({ maxBytes: 1 << 20 });
    let calls = 0;
    expect(memo.get(whole, () => ++calls)).toBe(1);
    for (const parts of splits) expect(memo.get(parts, () => ++calls)).toBe(1);
    // Same length and same sampled characters, one character changed in the middle of a piece.
    const at = 1234;
    const other = whole.slice(0, at) + (whole[at] === 'x' ? 'y' : 'x') + whole.slice(at + 1);
    const sampled = fingerprint(other) === fingerprint(whole);
    expect(memo.get([other.slice(0, 2000), other.slice(2000)], () => ++calls)).toBe(2);
    expect(memo.get(whole, () => ++calls)).toBe(sampled ? 3 : 1);
  });

  it('intern to one string: the same text joined again is the string returned before', async () => {
    const { internText } = await import('../src/text-memo.js');
    const first = internText(splits[2]!);
    expect(first).toBe(whole);
    expect(internText(splits[3]!)).toBe(first);
    expect(internText(['short ', 'text'])).toBe('short text');
    const changed = internText([whole.slice(0, 10), 'Z', whole.slice(11)]);
    expect(changed).not.toBe(whole);
    expect(changed.length).toBe(whole.length);
  });
  it('keeps nothing over its bound, not even as the last text looked up', () => {
    const memo = new TextMemo<number>({ maxBytes: 1000 });
    const big = 'a long answer, '.repeat(100);
    let calls = 0;
    expect(memo.get(big, () => ++calls)).toBe(1);
    expect(memo.get(big, () => ++calls)).toBe(2);
    const small = 'a text that fits '.repeat(10);
    expect(memo.get(small, () => ++calls)).toBe(3);
    expect(memo.get(small, () => ++calls)).toBe(3);
  });
});
