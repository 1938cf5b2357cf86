import { describe, expect, it } from 'vitest';
import { ground } from '../../../src/agents/llm/grounding.js';

const sources = [
  { order: 1, name: 'Filing A', url: 'https://svc.example/documents/a.pdf?sig=1#page=4' },
  { order: 2, name: 'Filing B', url: 'https://svc.example/documents/b.pdf?sig=2#page=7' },
  { order: 3, name: 'Never cited', url: 'https://svc.example/c' },
];

describe('ground', () => {
  it('renumbers sources in order of first use and drops the uncited', () => {
    const g = ground('Margin rose [2], revenue too [1], and again [2].', sources);
    expect(g.text).toBe('Margin rose [1], revenue too [2], and again [1].');
    expect(g.citations).toEqual([
      { order: 1, name: 'Filing B', url: sources[1]!.url },
      { order: 2, name: 'Filing A', url: sources[0]!.url },
    ]);
  });

  it('drops markers that cite no source, and splits grouped markers', () => {
    const g = ground('Revenue was $85.8B [1, 7], up 5% [9].', sources);
    expect(g.text).toBe('Revenue was $85.8B [1], up 5%.');
    expect(g.dropped).toBe(2);
    expect(ground('Both [2,1].', sources).text).toBe('Both [1][2].');
  });

  it('removes every URL that was not retrieved, keeping a link’s words', () => {
    const g = ground('See [the filing](https://evil.example/x) or https://evil.example/y, and [1] (https://svc.example/documents/a.pdf?sig=1).', sources);
    expect(g.text).not.toContain('evil.example');
    expect(g.text).toContain('See the filing or');
    expect(g.text).toContain('https://svc.example/documents/a.pdf?sig=1');
    expect(g.removedUrls).toBe(2);
  });

  it('removes links of every form, and a cited document with another page', () => {
    const g = ground(
      'See www.evil.example/z, evil.example/q, ftp://evil.example/f, [x](javascript:alert(1)) and [p](https://svc.example/documents/a.pdf?sig=1#page=99), but [1] https://svc.example/documents/a.pdf?sig=1#page=4.',
      sources,
    );
    expect(g.text).not.toMatch(/evil|javascript|page=99/);
    expect(g.text).toContain('https://svc.example/documents/a.pdf?sig=1#page=4');
    expect(g.removedUrls).toBe(5);
  });

  it('reads other marker forms as markers: 【2】, [^2] and ranges [1-3]', () => {
    expect(ground('A 【2】, b [^1], c [1-2].', sources).text).toBe('A [1], b [2], c [2][1].');
  });
});
