import { TextMemo } from '../text-memo.js';

// Long answers recur: a stored report is served again and again, and a streamed answer's full
// text appears in four of its events. Escaping a long text costs about 4 µs per KB, so the
// JSON form of long texts is remembered, bounded in size.
export const MIN_LENGTH = 1024;

interface Escaped {
  json: string;
  /** Its UTF-8 bytes, made the first time a body is sent as bytes. */
  bytes: Buffer | null;
}

const escaped = new TextMemo<Escaped>({ maxBytes: 64 * 1024 * 1024, size: (e) => 5 * e.json.length }); // 2 bytes a character for the string, up to 3 for its UTF-8
const escape = (text: string): Escaped => ({ json: JSON.stringify(text), bytes: null });

/** `JSON.stringify(text)`, remembered for long texts. */
export function jsonString(text: string): string {
  return text.length < MIN_LENGTH ? JSON.stringify(text) : escaped.get(text, escape).json;
}

/** The UTF-8 bytes of `JSON.stringify(text)`, remembered for long texts. */
export function jsonStringBytes(text: string): Buffer {
  if (text.length < MIN_LENGTH) return Buffer.from(JSON.stringify(text));
  const e = escaped.get(text, escape);
  return (e.bytes ??= Buffer.from(e.json));
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
