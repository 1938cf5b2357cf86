import { fenceAfterLine, fenceCloser, fenceReopener, type OpenFence } from './fences.js';
import { tableHeaderAt } from './table-header.js';

/**
 * Splitting long answers into platform-sized messages.
 *
 * Each chunk has a `source`, an exact slice of the original text (the sources concatenate back
 * to it: nothing is lost), and the `text` that is sent: the source, plus a re-opened code fence
 * in front when the previous chunk ended inside a code block and a closing fence at the end when
 * this one does. Cuts prefer paragraph, then line, then sentence, then word boundaries, never
 * right after a heading, and never fall inside a link (`[label](url)`, `<url|label>`), an inline code span, a table row or a word,
 * unless a single unbreakable token is longer than a whole message; even then (text without
 * spaces, like Chinese) not inside a citation marker (`[12]`) or a character as people see it
 * (a flag, an emoji sequence, a letter with its accents).
 */
export interface Chunk {
  source: string;
  text: string;
}

export interface Cut {
  chunk: Chunk;
  /** The text after this chunk. */
  rest: string;
  /** The code fence open at the end of this chunk's source, to reopen in the next one. */
  fence: OpenFence | null;
}

/** The smallest limit that leaves room for fences and some text. */
export const MIN_LIMIT = 64;
/** How far past a cut candidate we look for the end of a link that starts before it. */
const LOOKAHEAD = 2000;

enum Level {
  Paragraph,
  Line,
  Sentence,
  Word,
  WordInCode,
}

interface LineInfo {
  start: number;
  /** Index of its newline, or the window's end. */
  end: number;
  fenceBefore: OpenFence | null;
  fenceAfter: OpenFence | null;
  tableRow: boolean;
}

const PROTECTED = [
  /!?\[[^\]\n]{0,500}\]\((?:<[^>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)\)/g, // [label](url), [label](<url>), images
  /<[^<>\n]{1,1000}>/g, // <url|label>, <url>, <@U123>
  /`[^`\n]+`/g, // inline code
  /\[\d{1,6}\]/g, // citation markers
  /&(?:[A-Za-z][A-Za-z0-9]{1,30}|#\d{1,7}|#x[0-9A-Fa-f]{1,6});/g, // entities: Slack's text escapes &, < and >
];

function protectedSpans(window: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const re of PROTECTED) {
    re.lastIndex = 0;
    for (let m = re.exec(window); m; m = re.exec(window)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}

function describeLines(window: string, fence: OpenFence | null): LineInfo[] {
  const lines: LineInfo[] = [];
  let state = fence;
  let start = 0;
  while (start <= window.length) {
    const nl = window.indexOf('\n', start);
    const end = nl === -1 ? window.length : nl;
    const line = window.slice(start, end);
    const after = nl === -1 ? state : fenceAfterLine(line, state);
    lines.push({ start, end, fenceBefore: state, fenceAfter: after, tableRow: !state && /^\s*\|/.test(line) });
    state = after;
    if (nl === -1) break;
    start = nl + 1;
  }
  return lines;
}

/** A heading line: Markdown's `## Title`, or a whole line in bold (how Slack's mrkdwn shows a heading). */
const HEADING = /^ {0,3}#{1,6}[ \t]+\S|^\*[^*\n]+\*[ \t]*$/;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const isRegionalIndicator = (code: number | undefined) => code !== undefined && code >= 0x1f1e6 && code <= 0x1f1ff;

/** How far back from a hard cut we look for the start of the character (grapheme cluster) it falls in. */
const GRAPHEME_TAIL = 128;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Takes the first chunk of `text` that fits in `limit` characters once fences are added.
 * `fence` is the code block open where `text` starts; with `reopen: false` it is not repeated
 * in front (the text continues a message that opened it already).
 */
export function takeChunk(text: string, limit: number, fence: OpenFence | null = null, options: { reopen?: boolean; header?: string } = {}): Cut {
  if (limit < MIN_LIMIT) throw new RangeError(`message limit ${limit} is below ${MIN_LIMIT}`);
  // A table's header rows, repeated (after the reopened fence) when the text continues a table.
  const header = options.header && options.header.length <= limit / 4 ? options.header : '';
  const prefix = (fence && options.reopen !== false ? fenceReopener(fence) : '') + header;
  const window = text.slice(0, limit + LOOKAHEAD);
  const lines = describeLines(window, fence);
  if (prefix.length + text.length <= limit) {
    // The whole text is in the window here; a trailing partial line does not change the state.
    return { chunk: { source: text, text: prefix + text }, rest: '', fence: lines.at(-1)!.fenceBefore };
  }
  const longestMarker = Math.max(3, fence?.marker.length ?? 0, ...lines.map((l) => l.fenceAfter?.marker.length ?? 0));
  const budget = limit - prefix.length - (longestMarker + 1);
  if (budget < MIN_LIMIT / 2) throw new RangeError(`message limit ${limit} leaves no room after the code fence "${fence?.line}"`);
  const spans = protectedSpans(window);
  // Positions strictly inside a link or code span, marked once so each candidate is checked in O(1).
  const inside = new Uint8Array(window.length + 1);
  for (const [s, e] of spans) inside.fill(1, s + 1, e);
  const insideSpan = (p: number) => inside[p] === 1;

  const lineAt = (index: number): LineInfo => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid]!.start <= index) lo = mid;
      else hi = mid - 1;
    }
    return lines[lo]!;
  };

  const levelOf = (p: number): Level | null => {
    const before = window[p - 1]!;
    if (isHighSurrogate(window.charCodeAt(p - 1)) || insideSpan(p)) return null;
    if (before === '\n') {
      const ended = lineAt(p - 1);
      if (!ended.fenceBefore && ended.fenceAfter) return null; // right after an opening fence line
      const paragraph = p >= 2 && window[p - 2] === '\n';
      // Never right after a heading: it would end one message and leave its section to the next.
      const last = paragraph ? lineAt(p - 2) : ended;
      if (!last.fenceBefore && HEADING.test(window.slice(last.start, last.end))) return null;
      return paragraph ? Level.Paragraph : Level.Line;
    }
    if (before !== ' ' && before !== '\t') return null;
    const line = lineAt(p - 1);
    if (line.tableRow) return null;
    const fenceLine = line.fenceBefore !== line.fenceAfter || (!line.fenceBefore && /^ {0,3}(`{3,}|~{3,})/.test(window.slice(line.start, line.end)));
    if (fenceLine) return null;
    if (line.fenceBefore) return Level.WordInCode;
    return p >= 2 && /[.!?:;]/.test(window[p - 2]!) ? Level.Sentence : Level.Word;
  };

  const best = new Map<Level, number>();
  for (let p = budget; p >= 1; p--) {
    // Candidates in the upper half win over any below it, so stop once one is known.
    if (p < budget / 2 && best.size > 0) break;
    const level = levelOf(p);
    if (level !== null && !best.has(level)) best.set(level, p);
  }
  const order = [Level.Paragraph, Level.Line, Level.Sentence, Level.Word, Level.WordInCode];
  let cut = order.map((l) => best.get(l)).find((p) => p !== undefined && p >= budget / 2);
  cut ??= order.map((l) => best.get(l)).find((p) => p !== undefined);
  cut ??= hardCut(window, budget, spans);

  const source = text.slice(0, cut);
  // Cut at a line start or inside a line: either way the state is the one that line began with.
  const state = lineAt(cut).fenceBefore;
  const closer = state ? fenceCloser(prefix + source, state) : '';
  return { chunk: { source, text: prefix + source + closer }, rest: text.slice(cut), fence: state };
}

/**
 * No boundary at all: cut at the budget, but before a link, code span or citation marker that
 * straddles it (or an HTML entity), and at the start of the grapheme cluster it falls in; never inside a surrogate pair.
 */
function hardCut(window: string, budget: number, spans: Array<[number, number]>): number {
  let p = budget;
  for (let before = -1; p !== before; ) {
    before = p;
    const straddling = spans.find(([s, e]) => s < p && p < e && s > 0);
    if (straddling) p = straddling[0];
    p = graphemeStart(window, p);
  }
  if (isHighSurrogate(window.charCodeAt(p - 1))) p--;
  return Math.max(1, p);
}

/** The last grapheme boundary at or before `p`; `p` itself when the cluster is longer than the tail looked at. */
function graphemeStart(text: string, p: number): number {
  let start = Math.max(0, p - GRAPHEME_TAIL);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start--;
  // Regional indicators pair into flags from the start of their run: segment from outside it.
  while (start >= 2 && isRegionalIndicator(text.codePointAt(start - 2))) start -= 2;
  let boundary = start;
  for (const { index } of graphemes.segment(text.slice(start, p + 4))) {
    if (start + index > p) break;
    boundary = start + index;
  }
  return boundary > start ? boundary : p;
}

/** Splits the whole text into chunks whose `text` is at most `limit` characters. */
export function splitMessage(text: string, limit: number): Chunk[] {
  const chunks: Chunk[] = [];
  let rest = text;
  let fence: OpenFence | null = null;
  let header = '';
  while (rest.length > 0) {
    const cut = takeChunk(rest, limit, fence, { header });
    chunks.push(cut.chunk);
    rest = cut.rest;
    fence = cut.fence;
    // A table cut between its rows goes on under its header and separator rows again.
    header = rest ? tableHeaderAt(text.slice(0, text.length - rest.length), fence, rest) : '';
  }
  // Trailing whitespace on its own would be an empty message: fold it into the previous one.
  const last = chunks.at(-1);
  const previous = chunks.at(-2);
  if (last && previous && !last.source.trim() && previous.text.length + last.source.length <= limit && !previous.text.endsWith('```') && !previous.text.endsWith('~~~')) {
    chunks.splice(-2, 2, { source: previous.source + last.source, text: previous.text + last.source });
  }
  return chunks.length ? chunks : [{ source: '', text: '' }];
}

/** The original text back from its chunks. */
export function joinSources(chunks: readonly Chunk[]): string {
  return chunks.map((c) => c.source).join('');
}
