import { TextMemo } from '../text-memo.js';

// Long answers recur (stored reports served again and again). Escaping and encoding them is
// the largest cost of a response body, so their JSON form is remembered as bytes, bounded in
// size. (A Buffer body also spares the HTTP layer a byte-length scan and a UTF-8 encode.)
const MIN_LENGTH = 1024;
const encoded = new TextMemo<Buffer>({ maxBytes: 64 * 1024 * 1024, size: (b) => b.length });
const encode = (text: string) => Buffer.from(JSON.stringify(text));

/** `JSON.stringify(text)` as UTF-8 bytes, remembered for long texts. */
export function jsonStringBytes(text: string): Buffer {
  return text.length < MIN_LENGTH ? encode(text) : encoded.get(text, encode);
}

const SENTINEL = '\u0000svc-text\u0000';
const SENTINEL_JSON = JSON.stringify(SENTINEL);

/**
 * The bytes of `JSON.stringify(build(SENTINEL))` with the sentinel replaced by `text`: the
 * small skeleton is serialised per request, the long text is escaped and encoded once.
 */
export function jsonBytesWithText(text: string, build: (placeholder: string) => unknown): Buffer {
  const skeleton = JSON.stringify(build(SENTINEL));
  const at = skeleton.indexOf(SENTINEL_JSON);
  if (at === -1) return Buffer.from(skeleton);
  return Buffer.concat([Buffer.from(skeleton.slice(0, at)), jsonStringBytes(text), Buffer.from(skeleton.slice(at + SENTINEL_JSON.length))]);
}
