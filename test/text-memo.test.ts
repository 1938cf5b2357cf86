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
});
