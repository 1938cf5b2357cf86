import { randomToken } from '../ids.js';
import { TextMemo } from '../text-memo.js';
import { MIN_LENGTH, jsonString, jsonStringBytes } from './json.js';

// Hand-written JSON bodies (Responses objects, chat completions) as bytes, and templates of them.
// `JSON.stringify` walks every key generically; the writers using these helpers write the same
// bytes from the known shape (their tests compare them), splice in the remembered UTF-8 bytes of
// long parts, and for a recurring answer reuse the whole previous body with only its ids and times
// written anew.

// Characters JSON.stringify would escape: quote, backslash, controls, and (lone) surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** `JSON.stringify` of a string or null. */
export const q = (s: string | null): string => (s === null ? 'null' : NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);
/** `JSON.stringify` of a number or null. */
export const n = (x: number | null): string => (x === null || !Number.isFinite(x) ? 'null' : String(x));

export function list<T>(items: readonly T[], one: (item: T) => string): string {
  let out = '';
  for (const item of items) out += (out ? ',' : '') + one(item);
  return `[${out}]`;
}

/** Whether two lists hold records with the same fields (strings compared by identity first, as === does). */
export function sameRecords<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    for (const key in x) if (x[key] !== y[key]) return false;
  }
  return true;
}

/** Whether two optional lists hold the same records: the same list, or both present and equal by `sameRecords`. */
export const sameList = <T extends object>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && sameRecords(a, b));

/**
 * Collects the long parts of a body as bytes while its JSON is written: each leaves SPLICE in the
 * string, and `splitParts` puts the bytes back in order. Without one, everything stays a string.
 * A template also collects slots: numbers, each standing for a value that differs per response.
 */
export type Splices = (Buffer | number)[] | undefined;

// Stands for a spliced part in the serialised object until its bytes are put in; random per
// process, so no caller-supplied field can contain it.
const SPLICE = `"svc-splice-${randomToken(22)}"`;

/** Leaves a template slot where the per-response value number `which` goes. */
export function slot(splices: Splices, which: number): string {
  splices!.push(which);
  return SPLICE;
}

/** A long answer's JSON string: its remembered bytes spliced in, or the escaped string itself. */
export function textJson(text: string, splices: Splices): string {
  if (!splices || text.length < MIN_LENGTH) return jsonString(text);
  splices.push(jsonStringBytes(text));
  return SPLICE;
}

interface ListJson {
  items: readonly object[] | null;
  json: string;
  /** Its UTF-8 bytes, made the first time a body is sent as bytes. */
  bytes: Buffer | null;
}

const emptyList = (): ListJson => ({ items: null, json: '', bytes: null });

/**
 * A list written once per answer text and reused while it stays the same: a stored report is
 * served with the same citations every time, and comparing them costs less than writing them.
 */
export class RememberedLists {
  readonly #memo = new TextMemo<ListJson>({ maxBytes: 16 * 1024 * 1024, size: (l) => 4 * l.json.length + 64 * (l.items?.length ?? 0) });

  json<T extends object>(answer: string, items: readonly T[], one: (item: T) => string, splices: Splices): string {
    if (items.length < 4 || answer.length < MIN_LENGTH) return list(items, one);
    const last = this.#memo.get(answer, emptyList);
    // The same list object again (a whole answer's placed citations) needs no comparison.
    if (last.items !== items && !(last.items && sameRecords(last.items as readonly T[], items))) {
      last.items = items;
      last.json = list(items, one);
      last.bytes = null;
    }
    if (!splices) return last.json;
    splices.push((last.bytes ??= Buffer.from(last.json)));
    return SPLICE;
  }
}

/** A body in order: JSON text, the remembered UTF-8 bytes of the long parts, and (templates) slots. */
type BodyParts = (string | Buffer | number)[];

/** The JSON a writer produced, cut at its splices. */
function splitParts(json: string, splices: (Buffer | number)[]): BodyParts {
  if (!splices.length) return [json];
  const parts: BodyParts = [];
  let from = 0;
  for (const part of splices) {
    const at = json.indexOf(SPLICE, from);
    parts.push(json.slice(from, at), part);
    from = at + SPLICE.length;
  }
  parts.push(json.slice(from));
  return parts;
}

/**
 * Body parts as one buffer: one allocation, the strings encoded straight into it. (Sending the
 * parts with one writev instead, without joining them, was measured: the per-part stream
 * machinery cost more instructions than the copy it saved.)
 */
function joinParts(parts: BodyParts): Buffer {
  if (parts.length === 1 && typeof parts[0] !== 'number') return typeof parts[0] === 'string' ? Buffer.from(parts[0]) : parts[0]!;
  let length = 0;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : (part as Buffer).length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) at += typeof part === 'string' ? out.write(part, at) : (part as Buffer).copy(out, at);
  return out;
}

/** How one kind of body is written, and what differs between two bodies of one answer. */
export interface BodyWriter<T> {
  /** Exactly `JSON.stringify(body)`; long parts go to `splices`, and with `slotted` the per-response values become slots. */
  write(body: T, splices: Splices, slotted: boolean): string;
  /** The JSON of the per-response values (ids, times), in slot order. */
  slotValues(body: T): string[];
  /** Whether `a` and `b` write the same JSON apart from their slot values. */
  sameApartFromSlots(a: T, b: T): boolean;
}

interface BodyTemplate<T> {
  /** The body the template was written from: everything but the slot values must match it. */
  from: T;
  /** Bytes, with a slot number where each per-response value goes. */
  parts: (Buffer | number)[];
  fixedBytes: number;
}

interface TemplateHolder<T> {
  template: BodyTemplate<T> | null;
  /** Size estimate for the memo: about the body's bytes, held once more. */
  bytes: number;
}

/**
 * Per answer text, the last body written, kept as bytes with slots for its ids and times. A stored
 * report is served again and again with the same request shape: a body that matches the template
 * in every other field is the template with its own values put in, which saves writing some
 * forty fields, the escaping checks and the encoding of each request's JSON skeleton.
 */
export class BodyTemplates<T> {
  readonly #writer: BodyWriter<T>;
  readonly #held: TextMemo<TemplateHolder<T>>;

  constructor(writer: BodyWriter<T>, options: { maxBytes: number }) {
    this.#writer = writer;
    this.#held = new TextMemo<TemplateHolder<T>>({ maxBytes: options.maxBytes, size: (h) => h.bytes });
  }

  /** `JSON.stringify(body)` as UTF-8 bytes, without templates (short or one-off answers). */
  plain(body: T): Buffer {
    const splices: (Buffer | number)[] = [];
    return joinParts(splitParts(this.#writer.write(body, splices, false), splices));
  }

  /** `JSON.stringify(body)` as UTF-8 bytes, from the template kept for `answer` when it matches. */
  body(answer: string, body: T): Buffer {
    if (answer.length < MIN_LENGTH) return this.plain(body);
    const holder = this.#held.get(answer, newHolder);
    if (holder.template && this.#writer.sameApartFromSlots(holder.template.from, body)) return this.#fill(holder.template, body);
    const template = this.#template(body);
    // Kept only within the memo's estimate for it: a body made large by its echoed fields (long
    // instructions, say) is written from the template once and not remembered.
    holder.template = template.fixedBytes <= holder.bytes ? template : null;
    return this.#fill(template, body);
  }

  #template(body: T): BodyTemplate<T> {
    const splices: (Buffer | number)[] = [];
    const parts: (Buffer | number)[] = [];
    let fixedBytes = 0;
    for (const part of splitParts(this.#writer.write(body, splices, true), splices)) {
      if (typeof part === 'number') {
        parts.push(part);
      } else {
        const bytes = typeof part === 'string' ? Buffer.from(part) : part;
        if (bytes.length) parts.push(bytes);
        fixedBytes += bytes.length;
      }
    }
    return { from: body, parts, fixedBytes };
  }

  #fill(t: BodyTemplate<T>, body: T): Buffer {
    const values = this.#writer.slotValues(body);
    let length = t.fixedBytes;
    for (const v of values) length += Buffer.byteLength(v);
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    for (const part of t.parts) at += typeof part === 'number' ? out.write(values[part]!, at) : part.copy(out, at);
    return out;
  }
}

const newHolder = (text: string): TemplateHolder<never> => ({ template: null, bytes: 3 * text.length + 4096 });
