import type { Citation } from '../agents/types.js';
import { BodyTemplates, RememberedLists, n, q, sameList, slot, textJson, type Splices } from './body-template.js';
import type { ChatAnnotation, ChatCompletion, ChatUsage } from './chat.js';

// A non-streamed chat completion written from its known shape, the same bytes as
// `JSON.stringify(completion)` (a test compares them), and from a template when its answer
// recurs (see body-template.ts).

const annotationJson = (a: ChatAnnotation): string =>
  `{"type":${q(a.type)},"url_citation":{"url":${q(a.url_citation.url)},"title":${q(a.url_citation.title)},"start_index":${n(a.url_citation.start_index)},` +
  `"end_index":${n(a.url_citation.end_index)}},"order":${n(a.order)},"name":${q(a.name)},"url":${q(a.url)}}`;

const citationJson = (c: Citation): string => `{"order":${n(c.order)},"name":${q(c.name)},"url":${q(c.url)}}`;

const usageJson = (u: ChatUsage): string =>
  `{"prompt_tokens":${n(u.prompt_tokens)},"completion_tokens":${n(u.completion_tokens)},"total_tokens":${n(u.total_tokens)},` +
  `"prompt_tokens_details":{"cached_tokens":${n(u.prompt_tokens_details.cached_tokens)}},"completion_tokens_details":{"reasoning_tokens":${n(u.completion_tokens_details.reasoning_tokens)}}}`;

const annotationLists = new RememberedLists();
const citationLists = new RememberedLists();

/** Where a value that differs in every completion goes in a body template (see `slotValues`). */
const Slot = { Id: 0, Created: 1 } as const;

function writeCompletion(c: ChatCompletion, splices: Splices, slotted: boolean): string {
  const choice = c.choices[0]!;
  const { message } = choice;
  const text = message.content;
  const id = slotted ? slot(splices, Slot.Id) : q(c.id);
  const created = slotted ? slot(splices, Slot.Created) : n(c.created);
  // Splices are put back in the order they were collected: the text first, then the lists in body order.
  const content = textJson(text, splices);
  const annotations = annotationLists.json(text, message.annotations, annotationJson, splices);
  const choiceCitations = citationLists.json(text, choice.citations, citationJson, splices);
  const citations = citationLists.json(text, c.citations, citationJson, splices);
  return (
    `{"id":${id},"object":${q(c.object)},"created":${created},"model":${q(c.model)},"choices":[{"index":${n(choice.index)},` +
    `"message":{"role":${q(message.role)},"content":${content},"refusal":${q(message.refusal)},"annotations":${annotations}},` +
    `"logprobs":null,"finish_reason":${q(choice.finish_reason)},"citations":${choiceCitations}}],"usage":${usageJson(c.usage)},"citations":${citations}}`
  );
}

function sameUsage(a: ChatUsage, b: ChatUsage): boolean {
  return (
    a.prompt_tokens === b.prompt_tokens &&
    a.completion_tokens === b.completion_tokens &&
    a.total_tokens === b.total_tokens &&
    a.prompt_tokens_details.cached_tokens === b.prompt_tokens_details.cached_tokens &&
    a.completion_tokens_details.reasoning_tokens === b.completion_tokens_details.reasoning_tokens
  );
}

/** Whether `a` and `b` write the same JSON apart from their id and creation time. */
function sameApartFromSlots(a: ChatCompletion, b: ChatCompletion): boolean {
  const ca = a.choices[0]!;
  const cb = b.choices[0]!;
  return (
    a.object === b.object &&
    a.model === b.model &&
    ca.index === cb.index &&
    ca.message.role === cb.message.role &&
    ca.message.content === cb.message.content &&
    ca.message.refusal === cb.message.refusal &&
    ca.finish_reason === cb.finish_reason &&
    // Annotations nest their span: compared through it, not by the nested object's identity.
    sameAnnotations(ca.message.annotations, cb.message.annotations) &&
    sameList(ca.citations, cb.citations) &&
    sameList(a.citations, b.citations) &&
    sameUsage(a.usage, b.usage)
  );
}

function sameAnnotations(a: readonly ChatAnnotation[], b: readonly ChatAnnotation[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.type !== y.type || x.order !== y.order || x.name !== y.name || x.url !== y.url) return false;
    const sx = x.url_citation;
    const sy = y.url_citation;
    if (sx.url !== sy.url || sx.title !== sy.title || sx.start_index !== sy.start_index || sx.end_index !== sy.end_index) return false;
  }
  return true;
}

const templates = new BodyTemplates<ChatCompletion>({ write: writeCompletion, slotValues: (c) => [q(c.id), n(c.created)], sameApartFromSlots }, { maxBytes: 32 * 1024 * 1024 });

/** Exactly `JSON.stringify(c)`. */
export function completionJson(c: ChatCompletion): string {
  return writeCompletion(c, undefined, false);
}

/** `JSON.stringify(c)` as UTF-8 bytes; a recurring long answer's body comes from its template. */
export function completionBody(c: ChatCompletion): Buffer {
  return templates.body(c.choices[0]!.message.content, c);
}
