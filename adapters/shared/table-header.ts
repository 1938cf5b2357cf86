import { fenceAfterLine, type OpenFence } from './fences.js';

/**
 * The header of a table that a split message cuts between two rows, to repeat at the top of the
 * next part so its rows still say which column is which: the header and separator rows of a
 * Markdown table, or of a table already shown as an aligned code block (`Outcome | Model`, then
 * `--------+------`, see renderTable).
 */

/** A rendered table's rule: its columns' dashes joined by `-+-`. */
const RULE = /^-+(?:\+-+)*$/;
const ROW = /^\s*\|/;
const DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
/** A fence that opens a rendered table: no language after it. */
const BARE_OPENER = /^ {0,3}(`{3,}|~{3,})\s*$/;

/**
 * The rows to repeat (each ending in a newline) when text continues with `rest` after `before`
 * (which ends where the cut fell, `fence` the code block open there); empty when the cut is not
 * between two rows of one table.
 */
export function tableHeaderAt(before: string, fence: OpenFence | null, rest: string): string {
  // Only a cut at a line's start falls between rows.
  if (!before.endsWith('\n')) return '';
  const next = rest.slice(0, rest.indexOf('\n') === -1 ? rest.length : rest.indexOf('\n'));
  if (!next.trim()) return '';
  const lines = before.slice(0, -1).split('\n');
  return fence ? codeTableHeader(lines, fence, next) : markdownTableHeader(lines, next);
}

function markdownTableHeader(lines: string[], next: string): string {
  if (!ROW.test(next) || DELIMITER.test(next)) return '';
  let i = lines.length - 1;
  while (i >= 0 && ROW.test(lines[i]!)) i--;
  // lines[i + 1] is the header row, lines[i + 2] its delimiter, then at least one data row.
  const head = i + 1;
  if (lines.length - head < 3 || !DELIMITER.test(lines[head + 1]!) || !lines[head + 1]!.includes('-')) return '';
  return `${lines[head]}\n${lines[head + 1]}\n`;
}

function codeTableHeader(lines: string[], fence: OpenFence, next: string): string {
  if (fenceAfterLine(next, fence) === null) return '';
  // The block open at the cut starts after the last line that opened a fence.
  let state: OpenFence | null = null;
  let opened = -1;
  lines.forEach((line, i) => {
    const after = fenceAfterLine(line, state);
    if (!state && after) opened = i;
    state = after;
  });
  if (opened < 0 || !BARE_OPENER.test(lines[opened]!)) return '';
  const block = lines.slice(opened + 1);
  // The sub-table the cut falls in: the last header and rule after a blank line (or the block's start), rows since.
  let rule = block.length - 1;
  while (rule >= 1 && block[rule]!.trim() && !RULE.test(block[rule]!)) rule--;
  if (rule < 1 || !RULE.test(block[rule]!) || rule === block.length - 1) return '';
  const header = block[rule - 1]!;
  if (!header.trim() || (rule >= 2 && block[rule - 2]!.trim())) return '';
  // The header has the rule's columns, and fits over it.
  if (header.split(' | ').length !== block[rule]!.split('-+-').length || header.trimEnd().length > block[rule]!.length + 8) return '';
  if (RULE.test(next)) return '';
  return `${header}\n${block[rule]}\n`;
}
