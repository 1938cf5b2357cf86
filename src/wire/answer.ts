import type { Answer } from '../agents/types.js';

/** Splits a long text into chunks at paragraph boundaries, so a whole answer streams in pieces. */
export function chunksOf(text: string, size = 1200): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const cut = rest.lastIndexOf('\n\n', size);
    let at = cut > size / 3 ? cut + 2 : size;
    // A delta must be valid text on its own: never end one on the first half of a surrogate pair.
    if (at === size && isHighSurrogate(rest.charCodeAt(at - 1))) at -= 1;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest) out.push(rest);
  return out;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

// A whole answer (a stored report) is served again and again: split it once.
const chunked = new WeakMap<Answer, readonly string[]>();

/** The text deltas a streamed answer is sent as. */
export function answerChunks(answer: Answer): readonly string[] {
  let chunks = chunked.get(answer);
  if (!chunks) chunked.set(answer, (chunks = Object.freeze(chunksOf(answer.text))));
  return chunks;
}
