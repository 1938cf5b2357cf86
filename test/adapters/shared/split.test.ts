import { describe, expect, it } from 'vitest';
import { joinSources, splitMessage, type Chunk } from '../../../adapters/shared/split.js';

/** A deterministic pseudo-random generator, so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['market', 'probability', 'the', 'Fed', 'decision', 'inflation', 'a', 'contracts', 'spread', 'volume', 'résumé', 'naïve', '📈', 'open-interest'];

/** Markdown like a report: paragraphs, links, citation markers, tables and code blocks. */
function report(seed: number, length: number): string {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const kind = r();
    let block: string;
    if (kind < 0.15) {
      const rows = 2 + Math.floor(r() * 8);
      block = ['| Outcome | Model | Market |', '|---|---:|---:|', ...Array.from({ length: rows }, (_, i) => `| Outcome ${i} with a long name | ${Math.floor(r() * 100)}% | ${Math.floor(r() * 100)}% |`)].join('\n');
    } else if (kind < 0.3) {
      const lines = 3 + Math.floor(r() * 20);
      block = ['```ts', ...Array.from({ length: lines }, (_, i) => `const value${i} = compute(${i}, "${pick(WORDS)}"); // ${pick(WORDS)} ${pick(WORDS)}`), '```'].join('\n');
    } else {
      const words = 20 + Math.floor(r() * 120);
      const out: string[] = [];
      for (let i = 0; i < words; i++) {
        const x = r();
        if (x < 0.05) out.push(`[${pick(WORDS)} report ${i}](https://example.com/reports/${i}?q=${pick(WORDS)}&page=${i})`);
        else if (x < 0.08) out.push(`[${1 + Math.floor(r() * 9)}]`);
        else if (x < 0.1) out.push(`<https://kalshi.com/markets/kxfed/fed/kxfed-${i}|Fed ${i}>`);
        else if (x < 0.12) out.push('`inline code span`');
        else out.push(pick(WORDS) + (r() < 0.1 ? '.' : ''));
      }
      block = out.join(' ');
    }
    parts.push(block);
    size += block.length + 2;
  }
  return parts.join('\n\n');
}

function checkInvariants(text: string, chunks: Chunk[], limit: number) {
  expect(joinSources(chunks)).toBe(text);
  for (const c of chunks) {
    expect(c.text.length).toBeLessThanOrEqual(limit);
    expect(c.text).toContain(c.source);
  }
  // No link, citation marker, inline code span or table row is cut: each lies within one chunk's source.
  const protectedPieces = [
    ...text.matchAll(/\[[^\]\n]*\]\([^)\s]*\)/g),
    ...text.matchAll(/\[\d+\]/g),
    ...text.matchAll(/<[^<>\n]+>/g),
    ...text.matchAll(/`[^`\n]+`/g),
    ...text.matchAll(/^\|.*\|$/gm),
  ];
  let offset = 0;
  const bounds = chunks.map((c) => {
    const b = [offset, offset + c.source.length];
    offset += c.source.length;
    return b;
  });
  for (const m of protectedPieces) {
    const start = m.index!;
    const end = start + m[0].length;
    const inOne = bounds.some(([s, e]) => s! <= start && end <= e!);
    expect(inOne, `"${m[0]}" was cut`).toBe(true);
  }
  // No word is cut: every chunk but the last ends at whitespace.
  for (const c of chunks.slice(0, -1)) expect(c.source).toMatch(/\s$/);
}

describe('splitMessage', () => {
  it('keeps a short text whole', () => {
    expect(splitMessage('hello world', 2000)).toEqual([{ source: 'hello world', text: 'hello world' }]);
  });

  it('prefers paragraph breaks, then lines, then sentences, then words', () => {
    const para = `${'a '.repeat(40)}\n\n${'b '.repeat(40)}`;
    expect(splitMessage(para, 100)[0]!.source).toBe(`${'a '.repeat(40)}\n\n`);
    const lines = `${'a '.repeat(40)}\n${'b '.repeat(40)}`;
    expect(splitMessage(lines, 100)[0]!.source).toBe(`${'a '.repeat(40)}\n`);
    const sentences = `${'word '.repeat(12)}ends here. ${'more '.repeat(20)}`;
    expect(splitMessage(sentences, 100)[0]!.source.endsWith('here. ')).toBe(true);
    const words = 'word '.repeat(50);
    const chunks = splitMessage(words, 100);
    expect(chunks.every((c) => c.source.endsWith(' '))).toBe(true);
  });

  it('never cuts right after a heading: the heading goes with its section', () => {
    const report = `${'a '.repeat(30)}\n\n## Key claims\n\n${'- claim '.repeat(6)}\n${'b '.repeat(30)}`;
    const first = splitMessage(report, 100)[0]!.source;
    expect(first).toBe(`${'a '.repeat(30)}\n\n`);
    // Slack shows a heading as a line in bold.
    const slack = `${'a '.repeat(30)}\n*Key claims*\n${'b '.repeat(40)}`;
    expect(splitMessage(slack, 100)[0]!.source).toBe(`${'a '.repeat(30)}\n`);
  });

  it('closes a code block at a cut and reopens it with its language', () => {
    const code = ['Intro.', '', '```python', ...Array.from({ length: 40 }, (_, i) => `print("line ${i} of the example")`), '```', '', 'After.'].join('\n');
    const chunks = splitMessage(code, 300);
    expect(chunks.length).toBeGreaterThan(2);
    checkInvariants(code, chunks, 300);
    for (const c of chunks.slice(1, -1)) {
      expect(c.text.startsWith('```python\n')).toBe(true);
      expect(c.text.endsWith('\n```')).toBe(true);
    }
    // Every message has balanced fences.
    for (const c of chunks) expect((c.text.match(/^```/gm) ?? []).length % 2).toBe(0);
    // Removing what was added gives back the original.
    const stripped = chunks.map((c, i) => {
      let t = c.text;
      if (i > 0 && t.startsWith('```python\n') && !c.source.startsWith('```python\n')) t = t.slice('```python\n'.length);
      if (t.endsWith('\n```') && !c.source.endsWith('\n```')) t = t.slice(0, -('\n```'.length - (c.source.endsWith('\n') ? 1 : 0)));
      return t;
    });
    expect(stripped.join('')).toBe(code);
  });

  it('never cuts a link, even one that straddles the limit', () => {
    const link = '[The Federal Reserve statement of December](https://www.federalreserve.gov/newsevents/pressreleases/monetary20251210a.htm)';
    const text = `${'word '.repeat(30)}${link} tail`; // the link starts at 150 and ends past 250
    const chunks = splitMessage(text, 200);
    checkInvariants(text, chunks, 200);
    expect(chunks[0]!.source).toBe('word '.repeat(30));
    expect(chunks[1]!.source.startsWith(link)).toBe(true);
    const text2 = `${'word '.repeat(10)}${link.slice(0, 60)}) and more words after it`;
    checkInvariants(text2, splitMessage(text2, 80), 80);
    const slack = `${'word '.repeat(18)}<https://example.com/a/long/path|a label with spaces> end`;
    const chunks3 = splitMessage(slack, 100);
    checkInvariants(slack, chunks3, 100);
    expect(chunks3.some((c) => c.source.includes('<https://example.com/a/long/path|a label with spaces>'))).toBe(true);
  });

  it('keeps table rows whole', () => {
    const table = ['| Outcome | Model | Market |', '|---|---|---|', ...Array.from({ length: 30 }, (_, i) => `| Outcome number ${i} | ${i}% | ${100 - i}% |`)].join('\n');
    const chunks = splitMessage(table, 200);
    checkInvariants(table, chunks, 200);
    for (const c of chunks) for (const line of c.source.split('\n').filter(Boolean)) expect(line).toMatch(/^\|.*\|$/);
  });

  it('hard-cuts a single token longer than a message, without splitting a surrogate pair', () => {
    const token = '📈'.repeat(120);
    const chunks = splitMessage(token, 101);
    expect(joinSources(chunks)).toBe(token);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(101);
      expect(c.source.length % 2).toBe(0);
    }
  });

  /** Offsets where a person sees one character end and the next begin. */
  const graphemeBoundaries = (text: string) => new Set([...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((g) => g.index).concat(text.length));

  it.each([
    ['Chinese with citation markers', `${'美联储十二月议息会议维持利率不变市场预期'.repeat(4)}[12]${'降息概率上升'.repeat(3)}[3][45]${'通胀数据'.repeat(30)}`],
    ['flags', '🇯🇵🇺🇸🇬🇧'.repeat(40)],
    ['flags after an odd character', `中${'🇨🇳🇺🇸'.repeat(40)}`],
    ['ZWJ sequences and skin tones', `${'👩‍👩‍👧‍👦👍🏽🏳️‍🌈'.repeat(20)}`],
    ['keycaps and combining marks', `${'1️⃣e\u0301a\u0308\u0323中'.repeat(40)}`],
    ['Chinese, markers and emoji mixed', `${'市场价格[1]🇺🇸👨‍👩‍👧合约[23]'.repeat(25)}`],
  ])('hard-cuts text without spaces (%s) between characters, never inside a [n] marker, at every limit', (_name, text) => {
    const boundaries = graphemeBoundaries(text);
    for (let limit = 64; limit <= 140; limit++) {
      const chunks = splitMessage(text, limit);
      expect(joinSources(chunks)).toBe(text);
      let offset = 0;
      for (const c of chunks) {
        expect(c.text.length).toBeLessThanOrEqual(limit);
        offset += c.source.length;
        expect(boundaries.has(offset), `limit ${limit}: cut at ${offset} splits a character`).toBe(true);
        expect(c.source, `limit ${limit}: cut inside a marker`).not.toMatch(/\[\d*$/);
      }
    }
  });

  it('never hard-cuts inside an escaped character (&amp; &lt; &gt; &#39;), at every limit', () => {
    const text = 'S&amp;P&lt;500&gt;&#39;s&#x2014;'.repeat(20);
    for (let limit = 64; limit <= 100; limit++) {
      const chunks = splitMessage(text, limit);
      expect(joinSources(chunks)).toBe(text);
      for (const c of chunks) {
        expect(c.text.length).toBeLessThanOrEqual(limit);
        expect(c.source, `limit ${limit}: cut inside an entity`).not.toMatch(/&[#\w]*$/);
      }
    }
  });

  it('still hard-cuts one character longer than a message (a run of combining marks), losing nothing', () => {
    const text = `中${'e'}${'\u0301'.repeat(300)}中`;
    const chunks = splitMessage(text, 100);
    expect(joinSources(chunks)).toBe(text);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(100);
  });

  it.each([
    [1, 15_000, 3500],
    [2, 9_000, 2000],
    [3, 20_000, 2000],
    [4, 5_000, 300],
    [5, 12_000, 1000],
  ])('loses nothing and breaks nothing in a generated report (seed %i, %i chars, limit %i)', (seed, length, limit) => {
    const text = report(seed, length);
    const chunks = splitMessage(text, limit);
    expect(chunks.length).toBeGreaterThan(1);
    checkInvariants(text, chunks, limit);
    for (const c of chunks) expect((c.text.match(/^```/gm) ?? []).length % 2).toBe(0);
  });
});
