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

/**
 * Collects the long parts of a body as bytes while its JSON is written: each leaves SPLICE in the
 * string, and `responseBody` puts the bytes back in order. Without one, everything stays a string.
 */
type Splices = Buffer[] | undefined;

// Stands for a spliced part in the serialised object until its bytes are put in; random per
// process, so no caller-supplied field can contain it.
const SPLICE = `"svc-splice-${randomToken(22)}"`;

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

function contentJson(item: OutputItem, splices: Splices): string {
  let content = '';
  for (const part of item.content) content += (content ? ',' : '') + partJson(part, splices);
  return `{"id":${q(item.id)},"type":${q(item.type)},"status":${q(item.status)},"role":${q(item.role)},"content":[${content}]}`;
}

/** A message item: as the Response's output, and inside `response.output_item.done`. */
export function itemJson(item: OutputItem): string {
  return contentJson(item, undefined);
}

/** Exactly `JSON.stringify(r)` for a Response object built by ResponsesEncoder. */
export function responseJson(r: ResponseObject): string {
  return writeResponse(r, undefined);
}

function writeResponse(r: ResponseObject, splices: Splices): string {
  let output = '';
  for (const item of r.output) output += (output ? ',' : '') + contentJson(item, splices);
  return (
    `{"id":${q(r.id)},"object":"response","created_at":${n(r.created_at)},"status":${q(r.status)},"background":${r.background},` +
    `"error":${r.error === null ? 'null' : `{"code":${q(r.error.code)},"message":${q(r.error.message)}}`},"incomplete_details":null,"instructions":${q(r.instructions)},` +
    `"max_output_tokens":${n(r.max_output_tokens)},"max_tool_calls":null,"model":${q(r.model)},"output":[${output}],` +
    `"parallel_tool_calls":${r.parallel_tool_calls},"previous_response_id":${q(r.previous_response_id)},"prompt_cache_key":null,` +
    `"reasoning":null,"safety_identifier":null,"service_tier":${q(r.service_tier)},"store":${r.store},"temperature":${n(r.temperature)},` +
    `"text":{"format":{"type":${q(r.text.format.type)}},"verbosity":${q(r.text.verbosity)}},"tool_choice":${q(r.tool_choice)},"tools":${r.tools.length ? ANY(r.tools) : EMPTY_LIST},"top_logprobs":${n(r.top_logprobs)},` +
    `"top_p":${n(r.top_p)},"truncation":${q(r.truncation)},"usage":${r.usage === null ? 'null' : usageJson(r.usage)},"user":${q(r.user)},` +
    `"metadata":${metadataJson(r.metadata)},"completed_at":${n(r.completed_at)},"presence_penalty":${n(r.presence_penalty)},` +
    `"frequency_penalty":${n(r.frequency_penalty)}${r.citations ? `,"citations":${rememberedList(citationLists, r.output[0]?.content[0]?.text ?? '', r.citations, citationJson, splices)}` : ''}}`
  );
}

/** A body in order: JSON text, and the remembered UTF-8 bytes of the long parts. */
type BodyParts = (string | Buffer)[];

/**
 * `responseJson(r)` in parts: a long answer and its remembered citation lists are their remembered
 * UTF-8 bytes (wire/json.ts), the rest short strings. For a recurring answer (a cached report) the
 * long parts are then neither flattened into one long string nor encoded again, only copied.
 */
function responseParts(r: ResponseObject): BodyParts {
  const splices: Buffer[] = [];
  const json = writeResponse(r, splices);
  if (!splices.length) return [json];
  const parts: BodyParts = [];
  let from = 0;
  for (const bytes of splices) {
    const at = json.indexOf(SPLICE, from);
    parts.push(json.slice(from, at), bytes);
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
  if (parts.length === 1) return typeof parts[0] === 'string' ? Buffer.from(parts[0]) : parts[0]!;
  let length = 0;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) at += typeof part === 'string' ? out.write(part, at) : part.copy(out, at);
  return out;
}

/** `responseJson(r)` as UTF-8 bytes. */
export const responseBody = (r: ResponseObject): Buffer => joinParts(responseParts(r));
