/** Fenced code blocks (``` or ~~~), tracked line by line. */

import { tableHeaderAt } from './table-header.js';

/** An open fence: the line that opened it (reopened verbatim after a split) and its marker. */
export interface OpenFence {
  line: string;
  marker: string;
}

const OPENER = /^ {0,3}(`{3,}|~{3,})([^`]*)$/;
const CLOSER = /^ {0,3}(`{3,}|~{3,})\s*$/;

/** The fence state after `line` (without its newline), given the state before it. */
export function fenceAfterLine(line: string, open: OpenFence | null): OpenFence | null {
  if (open) {
    const m = CLOSER.exec(line);
    if (m && m[1]![0] === open.marker[0] && m[1]!.length >= open.marker.length) return null;
    return open;
  }
  const m = OPENER.exec(line);
  return m ? { line: line.trimEnd(), marker: m[1]! } : null;
}

/** The fence state at the end of `text` (a trailing partial line counts as a line). */
export function fenceAfter(text: string, open: OpenFence | null = null): OpenFence | null {
  let state = open;
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) break;
    state = fenceAfterLine(text.slice(start, nl), state);
    start = nl + 1;
  }
  // A partial last line only opens a fence once it is complete; it can close one though only
  // when complete as well, so partial lines leave the state alone.
  return state;
}

/** The text that closes `open` after `body`: on a line of its own. */
export function fenceCloser(body: string, open: OpenFence): string {
  return `${body.endsWith('\n') || body === '' ? '' : '\n'}${open.marker}`;
}

export function fenceReopener(open: OpenFence): string {
  return `${open.line}\n`;
}

/** `text` with a code block it leaves open closed, so whatever is appended after it is not code. */
export function withFencesClosed(text: string): string {
  const open = fenceAfter(`${text}\n`);
  return open ? text + fenceCloser(text, open) : text;
}

/**
 * Two parts of one answer that was split across messages, as one text again: a code block the
 * split closed at the end of `head` and reopened at the start of `tail` is one block again.
 */
export function joinSplitParts(head: string, tail: string): string {
  const closer = /\n {0,3}(`{3,}|~{3,})[ \t]*$/.exec(head);
  if (closer) {
    const body = head.slice(0, closer.index);
    const open = fenceAfter(`${body}\n`);
    const reopener = open && fenceReopener(open);
    if (reopener && tail.startsWith(reopener)) {
      const rest = tail.slice(reopener.length);
      // A table's header rows the split repeated in the tail are in the head already.
      const header = tableHeaderAt(`${body}\n`, open, rest.split('\n').slice(2).join('\n'));
      return `${body}\n${header && rest.startsWith(header) ? rest.slice(header.length) : rest}`;
    }
  }
  return `${head}\n\n${tail}`;
}
