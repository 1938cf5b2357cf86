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
}

// A stored report is served with the same citations every time: per answer text, the last list
// written is kept with its JSON, and the next one is compared with it instead of written again.
const listMemo = () => new TextMemo<ListJson>({ maxBytes: 16 * 1024 * 1024, size: (l) => 2 * l.json.length + 64 * (l.items?.length ?? 0) });
const annotationLists = listMemo();
const citationLists = listMemo();
const emptyList = (): ListJson => ({ items: null, json: '' });

function rememberedList<T extends object>(memo: TextMemo<ListJson>, answer: string, items: readonly T[], one: (item: T) => string): string {
  if (items.length < 4 || answer.length < MIN_LENGTH) return list(items, one);
  const last = memo.get(answer, emptyList);
  if (last.items && sameRecords(last.items as readonly T[], items)) return last.json;
  last.items = items;
  last.json = list(items, one);
  return last.json;
}

function partJson(p: OutputTextPart, textJson?: string): string {
  const annotations = p.annotations.length ? rememberedList(annotationLists, p.text, p.annotations, annotationJson) : EMPTY_LIST;
  const logprobs = p.logprobs.length ? ANY(p.logprobs) : EMPTY_LIST;
  return `{"type":${q(p.type)},"text":${textJson ?? jsonString(p.text)},"annotations":${annotations},"logprobs":${logprobs}}`;
}

/** A message item: as the Response's output, and inside `response.output_item.done`. */
export function itemJson(item: OutputItem, firstTextJson?: string): string {
  let content = '';
  for (const part of item.content) content += content ? `,${partJson(part)}` : partJson(part, firstTextJson);
  return `{"id":${q(item.id)},"type":${q(item.type)},"status":${q(item.status)},"role":${q(item.role)},"content":[${content}]}`;
}

/** Exactly `JSON.stringify(r)` for a Response object built by ResponsesEncoder (with `answerJson` standing for the answer's escaped text). */
export function responseJson(r: ResponseObject, answerJson?: string): string {
  let output = '';
  for (const item of r.output) output += output ? `,${itemJson(item)}` : itemJson(item, answerJson);
  return (
    `{"id":${q(r.id)},"object":"response","created_at":${n(r.created_at)},"status":${q(r.status)},"background":${r.background},` +
    `"error":${r.error === null ? 'null' : `{"code":${q(r.error.code)},"message":${q(r.error.message)}}`},"incomplete_details":null,"instructions":${q(r.instructions)},` +
    `"max_output_tokens":${n(r.max_output_tokens)},"max_tool_calls":null,"model":${q(r.model)},"output":[${output}],` +
    `"parallel_tool_calls":${r.parallel_tool_calls},"previous_response_id":${q(r.previous_response_id)},"prompt_cache_key":null,` +
    `"reasoning":null,"safety_identifier":null,"service_tier":${q(r.service_tier)},"store":${r.store},"temperature":${n(r.temperature)},` +
    `"text":{"format":{"type":${q(r.text.format.type)}},"verbosity":${q(r.text.verbosity)}},"tool_choice":${q(r.tool_choice)},"tools":${r.tools.length ? ANY(r.tools) : EMPTY_LIST},"top_logprobs":${n(r.top_logprobs)},` +
    `"top_p":${n(r.top_p)},"truncation":${q(r.truncation)},"usage":${r.usage === null ? 'null' : usageJson(r.usage)},"user":${q(r.user)},` +
    `"metadata":${metadataJson(r.metadata)},"completed_at":${n(r.completed_at)},"presence_penalty":${n(r.presence_penalty)},` +
    `"frequency_penalty":${n(r.frequency_penalty)}${r.citations ? `,"citations":${rememberedList(citationLists, r.output[0]?.content[0]?.text ?? '', r.citations, citationJson)}` : ''}}`
  );
}

// Stands for the answer in the serialised object until its bytes are put in; random per process,
// so no caller-supplied field can contain it.
const ANSWER = `"svc-answer-${randomToken(22)}"`;

/**
 * `responseJson(r)` as bytes. A long answer goes in as its remembered UTF-8 bytes (wire/json.ts):
 * the body is then neither one long string to flatten nor encoded again, which for a recurring
 * answer (a cached report) was most of the garbage a response made.
 */
export function responseBody(r: ResponseObject): Buffer {
  const text = r.output[0]?.content[0]?.text;
  if (text === undefined || text.length < MIN_LENGTH) return Buffer.from(responseJson(r));
  const json = responseJson(r, ANSWER);
  const at = json.indexOf(ANSWER);
  return Buffer.concat([Buffer.from(json.slice(0, at)), jsonStringBytes(text), Buffer.from(json.slice(at + ANSWER.length))]);
}
