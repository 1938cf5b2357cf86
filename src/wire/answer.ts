import type { Answer } from '../agents/types.js';

/** Splits a long text into chunks at paragraph boundaries, so a whole answer streams in pieces. */
export function chunksOf(text: string, size = 1200): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const cut = rest.lastIndexOf('\n\n', size);
    const at = cut > size / 3 ? cut + 2 : size;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest) out.push(rest);
  return out;
}

// A whole answer (a stored report) is served again and again: split it once.
const chunked = new WeakMap<Answer, readonly string[]>();

/** The text deltas a streamed answer is sent as. */
export function answerChunks(answer: Answer): readonly string[] {
  let chunks = chunked.get(answer);
  if (!chunks) chunked.set(answer, (chunks = Object.freeze(chunksOf(answer.text))));
  return chunks;
}
