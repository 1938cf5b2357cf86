import { BodyTemplates, RememberedLists, n, q, sameList, slot, textJson, type Splices } from './body-template.js';

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
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  model: string;
  output: OutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  prompt_cache_key: string | null;
  reasoning: { effort: string | null; summary: string | null } | null;
  safety_identifier: string | null;
  service_tier: string;
  store: boolean;
  temperature: number;
  text: { format: { type: string }; verbosity: string };
  tool_choice: string | Record<string, unknown>;
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
  conversation?: { id: string };
  citations?: { order: number; name: string; url: string }[];
}

// JSON.stringify has a fixed cost of about half a microsecond per object in Node 20's V8, more
// than writing a small known object by hand; it is kept for values of open shape.
const ANY = (v: unknown): string => JSON.stringify(v);
const EMPTY_LIST = '[]';

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

const annotationLists = new RememberedLists();
const citationLists = new RememberedLists();

/** Where a value that differs in every response goes in a body template (see `slotValues`). */
const Slot = { Id: 0, CreatedAt: 1, MessageId: 2, CompletedAt: 3 } as const;

function partJson(p: OutputTextPart, splices: Splices): string {
  // Splices are put back in the order they were collected: the text comes before its annotations.
  const text = textJson(p.text, splices);
  const annotations = p.annotations.length ? annotationLists.json(p.text, p.annotations, annotationJson, splices) : EMPTY_LIST;
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
    `"error":${r.error === null ? 'null' : `{"code":${q(r.error.code)},"message":${q(r.error.message)}}`},"incomplete_details":${r.incomplete_details === null ? 'null' : `{"reason":${q(r.incomplete_details.reason)}}`},"instructions":${q(r.instructions)},` +
    `"max_output_tokens":${n(r.max_output_tokens)},"max_tool_calls":${n(r.max_tool_calls)},"model":${q(r.model)},"output":[${output}],` +
    `"parallel_tool_calls":${r.parallel_tool_calls},"previous_response_id":${q(r.previous_response_id)},"prompt_cache_key":${q(r.prompt_cache_key)},` +
    `"reasoning":${r.reasoning === null ? 'null' : ANY(r.reasoning)},"safety_identifier":${q(r.safety_identifier)},"service_tier":${q(r.service_tier)},"store":${r.store},"temperature":${n(r.temperature)},` +
    `"text":{"format":{"type":${q(r.text.format.type)}},"verbosity":${q(r.text.verbosity)}},"tool_choice":${typeof r.tool_choice === 'string' ? q(r.tool_choice) : ANY(r.tool_choice)},"tools":${r.tools.length ? ANY(r.tools) : EMPTY_LIST},"top_logprobs":${n(r.top_logprobs)},` +
    `"top_p":${n(r.top_p)},"truncation":${q(r.truncation)},"usage":${r.usage === null ? 'null' : usageJson(r.usage)},"user":${q(r.user)},` +
    `"metadata":${metadataJson(r.metadata)},"completed_at":${completedAt},"presence_penalty":${n(r.presence_penalty)},` +
    `"frequency_penalty":${n(r.frequency_penalty)}${r.conversation ? `,"conversation":{"id":${q(r.conversation.id)}}` : ''}${r.citations ? `,"citations":${citationLists.json(r.output[0]?.content[0]?.text ?? '', r.citations, citationJson, splices)}` : ''}}`
  );
}

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
    a.max_tool_calls === b.max_tool_calls &&
    a.parallel_tool_calls === b.parallel_tool_calls &&
    a.previous_response_id === b.previous_response_id &&
    a.service_tier === b.service_tier &&
    a.store === b.store &&
    a.temperature === b.temperature &&
    a.text.format.type === b.text.format.type &&
    a.text.verbosity === b.text.verbosity &&
    a.tool_choice === b.tool_choice &&
    (a.tools === b.tools || (!a.tools.length && !b.tools.length)) &&
    a.reasoning === b.reasoning &&
    a.prompt_cache_key === b.prompt_cache_key &&
    a.safety_identifier === b.safety_identifier &&
    a.top_logprobs === b.top_logprobs &&
    a.top_p === b.top_p &&
    a.truncation === b.truncation &&
    a.user === b.user &&
    a.presence_penalty === b.presence_penalty &&
    a.conversation?.id === b.conversation?.id &&
    a.frequency_penalty === b.frequency_penalty &&
    sameMetadata(a.metadata, b.metadata)
  );
}

const templates = new BodyTemplates<ResponseObject>(
  {
    write: writeResponse,
    slotValues: (r) => [q(r.id), n(r.created_at), q(r.output[0]!.id), n(r.completed_at)],
    sameApartFromSlots,
  },
  { maxBytes: 32 * 1024 * 1024 },
);

/** `responseJson(r)` as UTF-8 bytes. */
export function responseBody(r: ResponseObject): Buffer {
  const part = r.output.length === 1 && r.output[0]!.content.length === 1 ? r.output[0]!.content[0]! : null;
  // Only completed long answers recur; anything else is written directly.
  if (!part || r.status !== 'completed') return templates.plain(r);
  return templates.body(part.text, r);
}
