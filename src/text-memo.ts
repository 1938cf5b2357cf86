const SAMPLES = 48;

/** A text given whole, or as the pieces it will be joined from (an answer's deltas). */
export type TextParts = string | readonly string[];

const lengthOf = (parts: TextParts): number => {
  if (typeof parts === 'string') return parts.length;
  let n = 0;
  for (const p of parts) n += p.length;
  return n;
};

const joined = (parts: TextParts): string => (typeof parts === 'string' ? parts : parts.length === 1 ? parts[0]! : parts.join(''));

/**
 * A short stand-in for a long text: its length and a hash of characters sampled across it.
 * Two texts with the same fingerprint are very likely equal, and TextMemo checks that they are.
 * Pieces are read where they lie, so a text need not be joined to be looked up.
 */
export function fingerprint(parts: TextParts): string {
  const n = lengthOf(parts);
  if (n <= SAMPLES * 2) return joined(parts);
  const pieces = typeof parts === 'string' ? [parts] : parts;
  let h = 0;
  let piece = 0;
  let start = 0; // offset of pieces[piece] in the whole text
  const sample = (at: number) => {
    while (at >= start + pieces[piece]!.length) start += pieces[piece++]!.length;
    h = (Math.imul(h, 31) + pieces[piece]!.charCodeAt(at - start)) | 0;
  };
  const step = n / SAMPLES;
  for (let i = 0; i < SAMPLES; i++) sample(Math.floor(i * step));
  for (let at = n - 8; at < n; at++) sample(at);
  return `${n}:${h >>> 0}`;
}

/** Whether `text` is exactly the concatenation of `parts`, compared without joining them. */
function sameText(text: string, parts: TextParts): boolean {
  if (typeof parts === 'string') return text === parts;
  let at = 0;
  for (const p of parts) {
    // A slice shares the text's characters, and === compares them as memory (startsWith(p, at) is far slower).
    if (text.slice(at, at + p.length) !== p) return false;
    at += p.length;
  }
  return at === text.length;
}

interface Entry<V> {
  text: string;
  value: V;
  bytes: number;
}

/**
 * Values computed from long texts (token counts, encodings), remembered and bounded in bytes,
 * least recently used first out. Keying a Map by the text itself would hash every character of
 * it on each lookup, which for texts of several KB costs more than a cheap computation; the
 * fingerprint keeps lookups short, and a full comparison on a hit keeps them exact (texts
 * sharing a fingerprint take turns in one slot).
 */
export class TextMemo<V> {
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used first.
  readonly #entries = new Map<string, Entry<V>>();
  readonly #maxBytes: number;
  readonly #size: (value: V) => number;
  #bytes = 0;
  #last: Entry<V> | null = null;
  /** The entry at the recent end of the map. */
  #newest: Entry<V> | null = null;

  constructor(options: { maxBytes: number; size?: (value: V) => number }) {
    this.#maxBytes = options.maxBytes;
    this.#size = options.size ?? (() => 16);
  }

  /** The value for the text `parts` make up, computed (from the joined text) only when not remembered. */
  get(parts: TextParts, compute: (text: string) => V): V {
    return this.#lookup(parts, compute).value;
  }

  /** The remembered copy of the text, so equal texts are one string (see internText). */
  text(parts: TextParts, compute: (text: string) => V): string {
    return this.#lookup(parts, compute).text;
  }

  #lookup(parts: TextParts, compute: (text: string) => V): Entry<V> {
    // The same text is often looked up several times in a row (one answer: its token count, its
    // escaped form, ...), as the same string: one comparison, by identity, settles that.
    const last = this.#last;
    if (last && typeof parts === 'string' && parts === last.text) return last;
    const entry = this.#find(parts, compute);
    // Only a long text is worth remembering as the last one: a short text is its own key (no
    // fingerprint to skip), and remembering it pushed out the long one looked up right after it
    // (a run's usage asks for the prompt's count, then the answer's).
    // A text too large to remember is not kept as the last one either (that bypassed the bound).
    if (entry.text.length > SAMPLES * 2 && entry.bytes <= this.#maxBytes) this.#last = entry;
    return entry;
  }

  #find(parts: TextParts, compute: (text: string) => V): Entry<V> {
    const key = fingerprint(parts);
    const hit = this.#entries.get(key);
    if (hit && sameText(hit.text, parts)) {
      // Moved to the recent end unless it is there already: re-inserting stored this lookup's
      // key string in the map and churned its table on every hit of a text served repeatedly.
      if (hit !== this.#newest) {
        this.#entries.delete(key);
        this.#entries.set(key, hit);
        this.#newest = hit;
      }
      return hit;
    }
    const text = joined(parts);
    const value = compute(text);
    const entry = { text, value, bytes: 2 * (text.length + key.length) + this.#size(value) };
    if (hit) this.#remove(key, hit);
    if (entry.bytes > this.#maxBytes) return entry;
    this.#entries.set(key, entry);
    this.#newest = entry;
    this.#bytes += entry.bytes;
    for (const [oldest, e] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#remove(oldest, e);
    }
    return entry;
  }

  #remove(key: string, entry: Entry<V>): void {
    if (this.#newest === entry) this.#newest = null;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

const MIN_INTERNED = 1024;
const interned = new TextMemo<null>({ maxBytes: 64 * 1024 * 1024, size: () => 0 });

/**
 * The text the pieces make up, as the very string returned last time for the same text.
 * Answers recur (a stored report served again and again): joining their deltas anew each time
 * makes garbage, and every memo keyed by the text would compare it character by character,
 * where one string compares by identity.
 */
export function internText(parts: readonly string[]): string {
  const length = lengthOf(parts);
  if (length < MIN_INTERNED) return joined(parts);
  // An answer's text is asked for by each layer it passes (the run's usage, the encoder) with
  // the very same delta strings: comparing those by identity skips fingerprint and lookup.
  if (lastParts && sameStrings(lastParts, parts)) return lastText;
  const text = interned.text(parts, () => null);
  lastParts = parts.slice();
  lastText = text;
  return text;
}

let lastParts: readonly string[] | null = null;
let lastText = '';

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
