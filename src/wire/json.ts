import { TextMemo } from '../text-memo.js';

// Long answers recur: a stored report is served again and again, and a streamed answer's full
// text appears in four of its events. Escaping a long text costs about 4 µs per KB, so the
// JSON form of long texts is remembered, bounded in size.
const MIN_LENGTH = 1024;
const escaped = new TextMemo<string>({ maxBytes: 64 * 1024 * 1024, size: (s) => 2 * s.length });

/** `JSON.stringify(text)`, remembered for long texts. */
export function jsonString(text: string): string {
  return text.length < MIN_LENGTH ? JSON.stringify(text) : escaped.get(text, JSON.stringify);
}

const SENTINEL = '\u0000svc-text\u0000';
const SENTINEL_JSON = JSON.stringify(SENTINEL);

/**
 * `JSON.stringify(build(SENTINEL))` with the sentinel replaced by `text`: the small skeleton is
 * serialised each time, the long text is escaped once.
 */
export function jsonWithText(text: string, build: (placeholder: string) => unknown): string {
  const skeleton = JSON.stringify(build(SENTINEL));
  const at = skeleton.indexOf(SENTINEL_JSON);
  if (at === -1) return skeleton;
  return skeleton.slice(0, at) + jsonString(text) + skeleton.slice(at + SENTINEL_JSON.length);
}
