import { fenceAfterLine, type OpenFence } from './fences.js';

/**
 * Markdown tables, which neither Slack nor Discord renders, become column-aligned code blocks:
 * readable in a monospace font, and safe to split between rows.
 */

type Align = 'left' | 'right' | 'center';

const ROW = /^\s*\|.*$/;
const DELIMITER_CELL = /^\s*:?-{1,}:?\s*$/;

function cellsOf(row: string): string[] {
  let s = row.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function isDelimiterRow(row: string): boolean {
  if (!ROW.test(row) || !row.includes('-')) return false;
  return cellsOf(row).every((c) => DELIMITER_CELL.test(c));
}

/** Inline Markdown in a cell, as plain text: links keep their address, emphasis and code marks go. */
function plainCell(cell: string): string {
  return cell
    .replace(/!?\[([^\]]*)\]\(<?([^)>\s]+)>?\)/g, (_m, label: string, url: string) => (label && label !== url ? `${label} (${url})` : url))
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(?<![\w*])\*(?=\S)([^*]+?)\*(?![\w*])/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/~~(.+?)~~/g, '$1');
}

// East Asian wide and fullwidth characters and most emoji take two columns of a monospace font.
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
// Combining marks, joiners and variation selectors take none.
const ZERO = /[\p{Mn}\p{Me}\u200B-\u200F\uFE00-\uFE0F]/u;

/** How many columns of a monospace font `text` takes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}

function pad(text: string, width: number, align: Align): string {
  const gap = width - displayWidth(text);
  if (gap <= 0) return text;
  if (align === 'right') return ' '.repeat(gap) + text;
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(Math.ceil(gap / 2));
  return text + ' '.repeat(gap);
}

/**
 * The widest a table's lines may be: Slack and Discord wrap a code block's long lines at the
 * window's width, which breaks a table's columns apart.
 */
export const TABLE_WIDTH = 80;

/**
 * The other columns in groups that each fit beside the key columns (the first `keys`, which name
 * the rows) within `limit` columns; a column too wide for any group gets one of its own.
 */
function columnGroups(width: number[], limit: number, keys: number): number[][] {
  const groups: number[][] = [];
  const keyWidth = width.slice(0, keys).reduce((sum, w) => sum + w, 0) + 3 * (keys - 1);
  let group: number[] = [];
  let used = keyWidth;
  for (let i = keys; i < width.length; i++) {
    if (group.length && used + 3 + width[i]! > limit) {
      groups.push(group);
      group = [];
      used = keyWidth;
    }
    group.push(i);
    used += 3 + width[i]!;
  }
  if (group.length) groups.push(group);
  return groups;
}

/**
 * How many leading columns name each row: the fewest whose cells together tell every row apart
 * ("Apple | Revenue" and "Apple | Net income"), so that every part of a table split by its width
 * says which row is which; at most half the width, else the first column alone.
 */
function keyColumns(body: string[][], width: number[], limit: number): number {
  for (let k = 1; k < width.length - 1; k++) {
    const keyWidth = width.slice(0, k).reduce((sum, w) => sum + w, 0) + 3 * (k - 1);
    if (keyWidth > limit / 2) break;
    if (new Set(body.map((r) => JSON.stringify(r.slice(0, k)))).size === body.length) return k;
  }
  return 1;
}

/**
 * A table (header row, delimiter row, data rows) as the lines of an aligned code block. One wider
 * than TABLE_WIDTH is shown as several tables one under another, each repeating the columns that
 * name the rows (see keyColumns) beside as many of the others as fit, the way wide data frames are printed.
 */
export function renderTable(rows: string[]): string {
  const header = cellsOf(rows[0]!).map(plainCell);
  const aligns: Align[] = cellsOf(rows[1]!).map((c) => {
    const t = c.trim();
    return t.startsWith(':') && t.endsWith(':') ? 'center' : t.endsWith(':') ? 'right' : 'left';
  });
  const body = rows.slice(2).map((r) => cellsOf(r).map(plainCell));
  const columns = Math.max(header.length, ...body.map((r) => r.length));
  const width = Array.from({ length: columns }, (_, i) => Math.max(1, ...[header, ...body].map((r) => displayWidth(r[i] ?? ''))));
  const total = width.reduce((sum, w) => sum + w, 0) + 3 * (columns - 1);
  const keys = total > TABLE_WIDTH && columns > 2 ? keyColumns(body, width, TABLE_WIDTH) : 0;
  const groups = keys ? columnGroups(width, TABLE_WIDTH, keys).map((g) => [...Array.from({ length: keys }, (_, i) => i), ...g]) : [width.map((_, i) => i)];
  const blocks = groups.map((shown) => {
    const line = (cells: string[]) =>
      shown
        .map((i) => pad(cells[i] ?? '', width[i]!, aligns[i] ?? 'left'))
        .join(' | ')
        .trimEnd();
    const rule = shown.map((i) => '-'.repeat(width[i]!)).join('-+-');
    return [line(header), rule, ...body.map(line)].join('\n');
  });
  return ['```', blocks.join('\n\n'), '```'].join('\n');
}

/** Every Markdown table outside code blocks, replaced by an aligned code block. */
export function convertTables(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: OpenFence | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!fence && ROW.test(line) && i + 1 < lines.length && isDelimiterRow(lines[i + 1]!)) {
      let end = i + 2;
      while (end < lines.length && ROW.test(lines[end]!)) end++;
      out.push(renderTable(lines.slice(i, end)));
      i = end - 1;
      continue;
    }
    fence = fenceAfterLine(line, fence);
    out.push(line);
  }
  return out.join('\n');
}

/**
 * The append-only version of `convertTables`, for streams that cannot take text back (Slack's
 * native streaming): text passes through as it comes, except that lines which may belong to a
 * table are held until the table is complete, then released as its code block. The pieces
 * returned by `push` and `end` concatenate to `convertTables` of the whole text.
 */
export class TableHoldback {
  /** The part of the current line not emitted yet. */
  #pending = '';
  /** The part of the current line already emitted (it could not be a table row). */
  #lineHead = '';
  /** Complete lines that may form a table. */
  #held: string[] = [];
  #fence: OpenFence | null = null;

  /** Adds streamed text; returns what can be emitted now. */
  push(delta: string): string {
    this.#pending += delta;
    let out = '';
    for (let nl = this.#pending.indexOf('\n'); nl !== -1; nl = this.#pending.indexOf('\n')) {
      out += this.#completeLine(this.#pending.slice(0, nl));
      this.#pending = this.#pending.slice(nl + 1);
    }
    const line = this.#lineHead + this.#pending;
    // A partial line goes out at once unless it could still turn out to be a table row.
    if (this.#pending && (this.#lineHead || this.#fence || !/^\s*(\|.*)?$/.test(line))) {
      out += this.#releaseHeld() + this.#pending;
      this.#lineHead = line;
      this.#pending = '';
    }
    return out;
  }

  /** The end of the stream: everything still held. */
  end(): string {
    const rest = this.#pending;
    const line = this.#lineHead + rest;
    this.#pending = '';
    if (this.#lineHead) {
      this.#lineHead = '';
      return this.#releaseHeld() + rest;
    }
    if (rest && !this.#fence && ROW.test(line)) {
      this.#held.push(line);
      return this.#releaseHeld(false);
    }
    return this.#releaseHeld() + rest;
  }

  #completeLine(rest: string): string {
    const line = this.#lineHead + rest;
    if (this.#lineHead) {
      // Its start went out already: it is not a table row.
      this.#lineHead = '';
      this.#fence = fenceAfterLine(line, this.#fence);
      return `${rest}\n`;
    }
    if (!this.#fence && ROW.test(line)) {
      this.#held.push(line);
      return '';
    }
    const released = this.#releaseHeld();
    this.#fence = fenceAfterLine(line, this.#fence);
    return `${released}${line}\n`;
  }

  /** Held rows, converted like the whole text would be; they were whole lines, so a newline follows unless the text ended. */
  #releaseHeld(newline = true): string {
    if (!this.#held.length) return '';
    const rows = this.#held;
    this.#held = [];
    return convertTables(rows.join('\n')) + (newline ? '\n' : '');
  }
}
