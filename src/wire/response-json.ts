import { randomToken } from '../ids.js';
import { TextMemo } from '../text-memo.js';
import { MIN_LENGTH, jsonString, jsonStringBytes } from './json.js';

// `JSON.stringify(response)` walks some forty keys generically, which on the non-streaming path
// cost about as much as everything else the encoder does. This writes the same bytes (a test
// compares them for every status and parameter) from the known shape, and takes the answer's
// text from the escaped-text memo (wire/json.ts) instead of escaping it again.

interface Annotation {
  type: string;
  url: string;
  title: string;
  start_index: number;
  end_index: number;
  order: number;
  name: string;
}

interface OutputTextPart {
  type: string;
  text: string;
  annotations: Annotation[];
  logprobs: unknown[];
}

interface UsageObject {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

interface OutputItem {
  id: string;
  type: string;
  status: string;
  role: string;
  content: OutputTextPart[];
}

/** The fields of a Responses API object, in the order the encoder builds them. */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: string;
  background: boolean;
  error: { code: string; message: string } | null;
  incomplete_details: null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: null;
  model: string;
  output: OutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  prompt_cache_key: null;
  reasoning: null;
  safety_identifier: null;
  service_tier: string;
  store: boolean;
  temperature: number;
  text: { format: { type: string }; verbosity: string };
  tool_choice: string;
  tools: unknown[];
  top_logprobs: number;
  top_p: number;
  truncation: string;
  usage: UsageObject | null;
  user: string | null;
  metadata: Record<string, string>;
  completed_at: number | null;
  presence_penalty: number;
  frequency_penalty: number;
  citations?: { order: number; name: string; url: string }[];
}

// Characters JSON.stringify would escape: quote, backslash, controls, and (lone) surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const q = (s: string | null): string => (s === null ? 'null' : NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);
const n = (x: number | null): string => (x === null || !Number.isFinite(x) ? 'null' : String(x));
// JSON.stringify has a fixed cost of about half a microsecond per object in Node 20's V8, more
// than writing a small known object by hand; it is kept for values of open shape.
const ANY = (v: unknown): string => JSON.stringify(v);
const EMPTY_LIST = '[]';

function list<T>(items: readonly T[], one: (item: T) => string): string {
  let out = '';
  for (const item of items) out += (out ? ',' : '') + one(item);
  return `[${out}]`;
}

const annotationJson = (a: Annotation): string =>
  `{"type":${q(a.type)},"url":${q(a.url)},"title":${q(a.title)},"start_index":${n(a.start_index)},"end_index":${n(a.end_index)},"order":${n(a.order)},"name":${q(a.name)}}`;

const citationJson = (c: { order: number; name: string; url: string }): string => `{"order":${n(c.order)},"name":${q(c.name)},"url":${q(c.url)}}`;

const usageJson = (u: UsageObject): string =>
  `{"input_tokens":${n(u.input_tokens)},"input_tokens_details":{"cached_tokens":${n(u.input_tokens_details.cached_tokens)}},` +
  `"output_tokens":${n(u.output_tokens)},"output_tokens_details":{"reasoning_tokens":${n(u.output_tokens_details.reasoning_tokens)}},"total_tokens":${n(u.total_tokens)}}`;

function metadataJson(m: Record<string, string>): string {
  let out = '';
  for (const key in m) if (Object.hasOwn(m, key)) out += `${out ? ',' : ''}${q(key)}:${q(m[key]!)}`;
  return `{${out}}`;
}

/** Whether two lists hold records with the same fields (strings compared by identity first, as === does). */
function sameRecords<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    for (const key in x) if (x[key] !== y[key]) return false;
  }
  return true;
}

interface ListJson {
  items: readonly object[] | null;
  json: string;
  /** Its UTF-8 bytes, made the first time a body is sent as bytes. */
  bytes: Buffer | null;
}

// A stored report is served with the same citations every time: per answer text, the last list
// written is kept with its JSON, and the next one is compared with it instead of written again.
const listMemo = () => new TextMemo<ListJson>({ maxBytes: 16 * 1024 * 1024, size: (l) => 4 * l.json.length + 64 * (l.items?.length ?? 0) });
const annotationLists = listMemo();
const citationLists = listMemo();
const emptyList = (): ListJson => ({ items: null, json: '', bytes: null });

/** Where a value that differs in every response (ids, times) goes in a body template. */
const Slot = { Id: 0, CreatedAt: 1, MessageId: 2, CompletedAt: 3 } as const;
type Slot = (typeof Slot)[keyof typeof Slot];

/**
 * Collects the long parts of a body as bytes while its JSON is written: each leaves SPLICE in the
 * string, and `responseBody` puts the bytes back in order. Without one, everything stays a string.
 * A template also collects slots (see `bodyTemplate`).
 */
type Splices = (Buffer | Slot)[] | undefined;

// Stands for a spliced part in the serialised object until its bytes are put in; random per
// process, so no caller-supplied field can contain it.
const SPLICE = `"svc-splice-${randomToken(22)}"`;

/** Leaves a template slot where the value goes. */
function slot(splices: Splices, which: Slot): string {
  splices!.push(which);
  return SPLICE;
}

function rememberedList<T extends object>(memo: TextMemo<ListJson>, answer: string, items: readonly T[], one: (item: T) => string, splices: Splices): string {
  if (items.length < 4 || answer.length < MIN_LENGTH) return list(items, one);
  const last = memo.get(answer, emptyList);
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

function textJson(text: string, splices: Splices): string {
  if (!splices || text.length < MIN_LENGTH) return jsonString(text);
  splices.push(jsonStringBytes(text));
  return SPLICE;
}

function partJson(p: OutputTextPart, splices: Splices): string {
  // Splices are put back in the order they were collected: the text comes before its annotations.
  const text = textJson(p.text, splices);
  const annotations = p.annotations.length ? rememberedList(annotationLists, p.text, p.annotations, annotationJson, splices) : EMPTY_LIST;
  const logprobs = p.logprobs.length ? ANY(p.logprobs) : EMPTY_LIST;
  return `{"type":${q(p.type)},"text":${text},"annotations":${annotations},"logprobs":${logprobs}}`;
}

function contentJson(item: OutputItem, splices: Splices, slotted = false): string {
  const id = slotted ? slot(splices, Slot.MessageId) : q(item.id);
  let content = '';
  for (const part of item.content) content += (content ? ',' : '') + partJson(part, splices);
  return `{"id":${id},"type":${q(item.type)},"status":${q(item.status)},"role":${q(item.role)},"content":[${content}]}`;
}

/** A message item: as the Response's output, and inside `response.output_item.done`. */
export function itemJson(item: OutputItem): string {
  return contentJson(item, undefined);
}

/** Exactly `JSON.stringify(r)` for a Response object built by ResponsesEncoder. */
export function responseJson(r: ResponseObject): string {
  return writeResponse(r, undefined);
}

function writeResponse(r: ResponseObject, splices: Splices, slotted = false): string {
  const id = slotted ? slot(splices, Slot.Id) : q(r.id);
  const createdAt = slotted ? slot(splices, Slot.CreatedAt) : n(r.created_at);
  let output = '';
  for (const item of r.output) output += (output ? ',' : '') + contentJson(item, splices, slotted);
  const completedAt = slotted ? slot(splices, Slot.CompletedAt) : n(r.completed_at);
  return (
    `{"id":${id},"object":"response","created_at":${createdAt},"status":${q(r.status)},"background":${r.background},` +
    `"error":${r.error === null ? 'null' : `{"code":${q(r.error.code)},"message":${q(r.error.message)}}`},"incomplete_details":null,"instructions":${q(r.instructions)},` +
    `"max_output_tokens":${n(r.max_output_tokens)},"max_tool_calls":null,"model":${q(r.model)},"output":[${output}],` +
    `"parallel_tool_calls":${r.parallel_tool_calls},"previous_response_id":${q(r.previous_response_id)},"prompt_cache_key":null,` +
    `"reasoning":null,"safety_identifier":null,"service_tier":${q(r.service_tier)},"store":${r.store},"temperature":${n(r.temperature)},` +
    `"text":{"format":{"type":${q(r.text.format.type)}},"verbosity":${q(r.text.verbosity)}},"tool_choice":${q(r.tool_choice)},"tools":${r.tools.length ? ANY(r.tools) : EMPTY_LIST},"top_logprobs":${n(r.top_logprobs)},` +
    `"top_p":${n(r.top_p)},"truncation":${q(r.truncation)},"usage":${r.usage === null ? 'null' : usageJson(r.usage)},"user":${q(r.user)},` +
    `"metadata":${metadataJson(r.metadata)},"completed_at":${completedAt},"presence_penalty":${n(r.presence_penalty)},` +
    `"frequency_penalty":${n(r.frequency_penalty)}${r.citations ? `,"citations":${rememberedList(citationLists, r.output[0]?.content[0]?.text ?? '', r.citations, citationJson, splices)}` : ''}}`
  );
}

/** A body in order: JSON text, the remembered UTF-8 bytes of the long parts, and (templates) slots. */
type BodyParts = (string | Buffer | Slot)[];

/**
 * `responseJson(r)` in parts: a long answer and its remembered citation lists are their remembered
 * UTF-8 bytes (wire/json.ts), the rest short strings. For a recurring answer (a cached report) the
 * long parts are then neither flattened into one long string nor encoded again, only copied.
 */
function responseParts(r: ResponseObject, slotted = false): BodyParts {
  const splices: (Buffer | Slot)[] = [];
  const json = writeResponse(r, splices, slotted);
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

// A stored report is served again and again with the same request shape: its bodies differ only
// in two ids and two times. Per answer text, the last body is kept as a template (bytes with
// slots for those four values) together with the response it was written from; a response that
// matches it in every other field is the template with its own four values put in, which saves
// writing ~40 fields, the escaping checks and the encoding of each request's JSON skeleton.

interface BodyTemplate {
  /** The response the template was written from: everything but the slot values must match it. */
  from: ResponseObject;
  /** Bytes, with a Slot where each per-response value goes. */
  parts: (Buffer | Slot)[];
  fixedBytes: number;
}

interface TemplateHolder {
  template: BodyTemplate | null;
  /** Size estimate for the memo: about the body's bytes, held once more. */
  bytes: number;
}

const templates = new TextMemo<TemplateHolder>({ maxBytes: 32 * 1024 * 1024, size: (h) => h.bytes });

function sameError(a: ResponseObject['error'], b: ResponseObject['error']): boolean {
  return a === b || (a !== null && b !== null && a.code === b.code && a.message === b.message);
}

function sameUsage(a: UsageObject | null, b: UsageObject | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.input_tokens === b.input_tokens &&
    a.output_tokens === b.output_tokens &&
    a.total_tokens === b.total_tokens &&
    a.input_tokens_details.cached_tokens === b.input_tokens_details.cached_tokens &&
    a.output_tokens_details.reasoning_tokens === b.output_tokens_details.reasoning_tokens
  );
}

/** Same keys in the same order with the same values (the order shows in the JSON). */
function sameMetadata(a: Record<string, string>, b: Record<string, string>): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || a[ka[i]!] !== b[kb[i]!]) return false;
  return true;
}

const sameList = <T extends object>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && sameRecords(a, b));

/** Whether `a` and `b` write the same JSON apart from the slot values (id, created_at, message id, completed_at). */
function sameApartFromSlots(a: ResponseObject, b: ResponseObject): boolean {
  const pa = a.output[0]!.content[0]!;
  const pb = b.output[0]!.content[0]!;
  const ia = a.output[0]!;
  const ib = b.output[0]!;
  return (
    a.status === b.status &&
    a.model === b.model &&
    a.completed_at !== null &&
    b.completed_at !== null &&
    pa.text === pb.text &&
    sameList(pa.annotations, pb.annotations) &&
    !pa.logprobs.length &&
    !pb.logprobs.length &&
    pa.type === pb.type &&
    ia.type === ib.type &&
    ia.status === ib.status &&
    ia.role === ib.role &&
    sameList(a.citations, b.citations) &&
    sameUsage(a.usage, b.usage) &&
    sameError(a.error, b.error) &&
    a.background === b.background &&
    a.instructions === b.instructions &&
    a.max_output_tokens === b.max_output_tokens &&
    a.parallel_tool_calls === b.parallel_tool_calls &&
    a.previous_response_id === b.previous_response_id &&
    a.service_tier === b.service_tier &&
    a.store === b.store &&
    a.temperature === b.temperature &&
    a.text.format.type === b.text.format.type &&
    a.text.verbosity === b.text.verbosity &&
    a.tool_choice === b.tool_choice &&
    !a.tools.length &&
    !b.tools.length &&
    a.top_logprobs === b.top_logprobs &&
    a.top_p === b.top_p &&
    a.truncation === b.truncation &&
    a.user === b.user &&
    a.presence_penalty === b.presence_penalty &&
    a.frequency_penalty === b.frequency_penalty &&
    sameMetadata(a.metadata, b.metadata)
  );
}

function bodyTemplate(r: ResponseObject): BodyTemplate {
  const parts: (Buffer | Slot)[] = [];
  let fixedBytes = 0;
  for (const part of responseParts(r, true)) {
    if (typeof part === 'number') {
      parts.push(part);
    } else {
      const bytes = typeof part === 'string' ? Buffer.from(part) : part;
      if (bytes.length) parts.push(bytes);
      fixedBytes += bytes.length;
    }
  }
  return { from: r, parts, fixedBytes };
}

function fromTemplate(t: BodyTemplate, r: ResponseObject): Buffer {
  const values = [q(r.id), n(r.created_at), q(r.output[0]!.id), n(r.completed_at)];
  let length = t.fixedBytes;
  for (const v of values) length += Buffer.byteLength(v);
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of t.parts) at += typeof part === 'number' ? out.write(values[part]!, at) : part.copy(out, at);
  return out;
}

const newHolder = (text: string): TemplateHolder => ({ template: null, bytes: 3 * text.length + 4096 });

/** `responseJson(r)` as UTF-8 bytes. */
export function responseBody(r: ResponseObject): Buffer {
  const part = r.output.length === 1 && r.output[0]!.content.length === 1 ? r.output[0]!.content[0]! : null;
  // Only completed long answers recur; anything else is written directly.
  if (!part || part.text.length < MIN_LENGTH || r.status !== 'completed') return joinParts(responseParts(r));
  const holder = templates.get(part.text, newHolder);
  if (holder.template && sameApartFromSlots(holder.template.from, r)) return fromTemplate(holder.template, r);
  const template = bodyTemplate(r);
  // Kept only within the memo's estimate for it: a body made large by its echoed fields (long
  // instructions, say) is written from the template once and not remembered.
  holder.template = template.fixedBytes <= holder.bytes ? template : null;
  return fromTemplate(template, r);
}
