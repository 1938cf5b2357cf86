import { LRUCache } from 'lru-cache';

const SAMPLES = 48;

/**
 * A short stand-in for a long text: its length and characters sampled across it. Two texts
 * with the same fingerprint are very likely equal, and TextMemo checks that they are.
 */
export function fingerprint(text: string): string {
  const n = text.length;
  if (n <= SAMPLES * 2) return text;
  let out = `${n}:`;
  const step = n / SAMPLES;
  for (let i = 0; i < SAMPLES; i++) out += text[Math.floor(i * step)];
  return out + text.slice(-8);
}

/**
 * Values computed from long texts (token counts, encodings), remembered and bounded in bytes.
 * Keying a Map by the text itself would hash every character of it on each lookup, which for
 * texts of several KB costs more than a cheap computation; the fingerprint keeps lookups short,
 * and a full comparison on a hit keeps them exact (texts sharing a fingerprint take turns in one slot).
 */
export class TextMemo<V> {
  readonly #entries: LRUCache<string, { text: string; value: V }>;

  constructor(options: { maxBytes: number; size?: (value: V) => number }) {
    const size = options.size ?? (() => 16);
    this.#entries = new LRUCache({ maxSize: options.maxBytes, sizeCalculation: (e, k) => 2 * (e.text.length + k.length) + size(e.value) });
  }

  get(text: string, compute: (text: string) => V): V {
    const key = fingerprint(text);
    const hit = this.#entries.get(key);
    if (hit && hit.text === text) return hit.value;
    const value = compute(text);
    this.#entries.set(key, { text, value });
    return value;
  }
}
