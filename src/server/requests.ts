import type { InputTurn, Turn } from '../agents/types.js';
import type { StoredChatMessage } from '../chat-completions/store.js';
import type { ItemRole } from '../conversations/store.js';
import { invalidRequest } from '../errors.js';
import type { RequestEcho } from '../wire/responses.js';
import { Fields, bodyObject, invalidValue, isObject, missing, wrongType } from './validate.js';

/** A turn of the request, or a reference to a stored output message to be resolved. */
export type InputItem = (InputTurn & { param: string }) | { ref: string; param: string };

export interface ResponsesRequest {
  model: string;
  /** In order, system and developer messages included (the agent is told them as instructions). */
  items: InputItem[];
  /** The request's own `instructions` field, echoed in the response object as OpenAI does. */
  instructionsField: string | null;
  stream: boolean;
  store: boolean;
  background: boolean;
  previousResponseId: string | null;
  /** `conversation` (an id, or `{id}`): its items come first, and it is extended once this completes. */
  conversationId: string | null;
  metadata: Record<string, string>;
  temperature: number | null;
  topP: number | null;
  maxOutputTokens: number | null;
  /** `text.verbosity`, echoed back (the agents write one length of answer). */
  verbosity: Verbosity | null;
  user: string | null;
  /** Tool and routing fields, echoed in the Response object; null when none was sent. */
  echo: RequestEcho | null;
}

export type Verbosity = 'low' | 'medium' | 'high';
const VERBOSITIES: readonly string[] = ['low', 'medium', 'high'];

export interface ChatRequest {
  model: string;
  messages: Turn[];
  instructions: string | null;
  stream: boolean;
  includeUsage: boolean;
  /** `store: true` (false when absent, as OpenAI's default): kept for the stored-completion endpoints. */
  store: boolean;
  metadata: Record<string, string>;
  /** The messages as sent, for `GET /v1/chat/completions/{id}/messages`; empty unless stored. */
  storedMessages: StoredChatMessage[];
  /** `max_completion_tokens`, else the older `max_tokens`: the answer is cut there (`finish_reason: "length"`). */
  maxOutputTokens: number | null;
  /** `stop`: up to 4 sequences the answer ends before (null when none was sent). */
  stop: string[] | null;
}

const TEXT_PARTS = new Set(['input_text', 'output_text', 'text', 'refusal']);
const MODEL_HINT = 'Pass an agent id such as "svc-agent"; GET /v1/models lists them.';

function readModel(f: Fields): string {
  return f.requiredString('model', { nonEmpty: true, maxLength: 256, hint: MODEL_HINT });
}

/** Text of a message `content`: a string, or an array of text parts joined in order. */
function contentText(content: unknown, param: string, partTypes: Set<string>): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw wrongType(param, 'a string or an array of text parts', content);
  const texts: string[] = [];
  content.forEach((part, j) => {
    const p = `${param}[${j}]`;
    if (!isObject(part)) throw wrongType(p, 'an object', part);
    const pf = new Fields(part, p);
    const type = pf.requiredString('type');
    if (!partTypes.has(type)) {
      throw invalidRequest(
        'unsupported_content_type',
        `Unsupported content part type '${type}' at '${p}.type': these agents read text only (${[...partTypes].join(', ')}).`,
        `${p}.type`,
      );
    }
    const text = part.text ?? (type === 'refusal' ? part.refusal : undefined);
    if (typeof text !== 'string') throw text === undefined ? missing(`${p}.text`) : wrongType(`${p}.text`, 'a string', text);
    texts.push(text);
  });
  return texts.join('\n');
}

export function joinInstructions(parts: (string | undefined | null)[]): string | null {
  const kept = parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return kept.length ? kept.join('\n\n') : null;
}

function requireLastUser(turns: { role: string; param: string; content?: string }[], param: string): void {
  const last = turns[turns.length - 1];
  if (!last) throw invalidRequest('empty_input', `'${param}' has no user message: send the question as a user message.`, param);
  if (last.role !== 'user') {
    throw invalidRequest('invalid_value', `The last message in '${param}' must come from the user (it is the question the agent answers); got role '${last.role}'.`, last.param);
  }
  if (!last.content?.trim()) throw invalidRequest('empty_input', `The user message '${last.param}' is empty: send the question as its content.`, last.param);
}

const endsWithTool = (p: string, what: string, param: string) =>
  invalidRequest('invalid_value', `The last item of '${param}' is ${what}: svc agents call no tools, so there is nothing to continue. End with a user message holding the question.`, p);

/** Input items of tool use and reasoning (function_call, function_call_output, reasoning, web_search_call, mcp_call, …). */
const TOOL_ITEM = /^(?:reasoning|[a-z_]+_call(?:_output)?|mcp_[a-z_]+)$/;

/** The items of a Responses `input`: a string (one user message) or an array of input items. */
function readInput(input: unknown, items: InputItem[]): void {
  if (input === undefined || input === null) throw missing('input', 'Send the question as a string, or an array of input messages.');
  else if (typeof input === 'string') {
    if (!input.trim()) throw invalidRequest('empty_input', "Invalid 'input': the value must not be empty. Send the question as a string.", 'input');
    items.push({ role: 'user', content: input, param: 'input' });
  } else if (Array.isArray(input)) {
    if (input.length === 0) throw invalidRequest('empty_input', "Invalid 'input': expected a non-empty array of input messages.", 'input');
    input.forEach((item, i) => {
      const p = `input[${i}]`;
      if (!isObject(item)) throw wrongType(p, 'an input message object', item);
      const itf = new Fields(item, p);
      const type = itf.string('type') ?? 'message';
      if (type === 'item_reference') {
        items.push({ ref: itf.requiredString('id', { nonEmpty: true }), param: p });
        return;
      }
      // An agent framework's history: calls of the caller's own tools, their results, reasoning.
      // The agents use no tools, so these are passed over (the turns around them still count).
      if (TOOL_ITEM.test(type)) {
        if (i === input.length - 1) throw endsWithTool(p, `a '${type}' item`, 'input');
        return;
      }
      if (type !== 'message') {
        throw invalidRequest('unsupported_input_item', `Unsupported input item type '${type}' at '${p}.type': send messages with role and content.`, `${p}.type`);
      }
      const role = itf.requiredString('role');
      if (item.content === undefined) throw missing(`${p}.content`);
      const text = item.content === null ? '' : contentText(item.content, `${p}.content`, TEXT_PARTS);
      if (role === 'system' || role === 'developer' || role === 'user' || role === 'assistant') items.push({ role, content: text, param: p });
      else throw invalidValue(`${p}.role`, `'${role}' is not supported. Use 'user', 'assistant', 'system' or 'developer'.`);
    });
  } else {
    throw wrongType('input', 'a string or an array of input messages', input);
  }
}

export function parseResponsesRequest(raw: unknown): ResponsesRequest {
  const f = new Fields(bodyObject(raw));
  const model = readModel(f);
  const items: InputItem[] = [];
  const input = f.obj.input;
  // With a conversation, the question may be its last message already: no input of its own.
  const conversationId = readConversation(f);
  // (Its last message is checked to be a question once it is read.)
  const fromConversation = conversationId !== null && (input === undefined || input === null || (Array.isArray(input) && input.length === 0));
  if (!fromConversation) readInput(input, items);
  // The question: the last message that is not an instruction.
  const lastTurn = items.findLast((item) => !('role' in item) || (item.role !== 'system' && item.role !== 'developer'));
  if (!lastTurn && !fromConversation) throw invalidRequest('empty_input', "'input' has no user message: send the question as a user message.", 'input');
  // A reference last is checked once it is looked up: it may name a stored user message.
  if (lastTurn && !('ref' in lastTurn)) requireLastUser([lastTurn], 'input');

  readInclude(f);
  const text = f.object('text');
  refuseStructuredOutput(text?.object('format'), 'text.format');
  const verbosity = text?.string('verbosity');
  if (verbosity !== undefined && !VERBOSITIES.includes(verbosity)) throw invalidValue('text.verbosity', `'${verbosity}' is not one of 'low', 'medium', 'high'.`);
  const instructions = f.string('instructions');
  const store = f.boolean('store') ?? true;
  const background = f.boolean('background') ?? false;
  if (background && !store) throw invalidValue('background', "a background response must be stored: drop 'store': false (it is fetched later with GET /v1/responses/{id}).");
  const previousResponseId = f.string('previous_response_id', { nonEmpty: true }) ?? null;
  if (conversationId && previousResponseId) {
    throw invalidValue('conversation', "'conversation' and 'previous_response_id' cannot be used together: a conversation already holds the earlier turns.");
  }
  return {
    model,
    items,
    instructionsField: instructions ?? null,
    stream: f.boolean('stream') ?? false,
    store,
    background,
    previousResponseId,
    conversationId,
    metadata: f.metadata('metadata') ?? {},
    temperature: f.number('temperature', { min: 0, max: 2 }) ?? null,
    topP: f.number('top_p', { min: 0, max: 1 }) ?? null,
    maxOutputTokens: f.number('max_output_tokens', { min: 1, max: MAX_TOKENS, integer: true }) ?? null,
    verbosity: (verbosity as Verbosity | undefined) ?? null,
    user: f.string('user', { maxLength: 256 }) ?? null,
    echo: readEcho(f),
  };
}

/**
 * What `include` may ask of a response, as OpenAI defines it (openai-node's `ResponseIncludable`).
 * The agents search no files or web, run no code, read no images, compute no logprobs and do no
 * reasoning, so each is accepted and there is nothing to add; any other value is a 400 naming
 * `include`, as OpenAI answers it.
 */
const INCLUDABLE: readonly string[] = [
  'code_interpreter_call.outputs',
  'computer_call_output.output.image_url',
  'file_search_call.results',
  'message.input_image.image_url',
  'message.output_text.logprobs',
  'reasoning.encrypted_content',
  'web_search_call.action.sources',
  'web_search_call.results',
];

/** `include`: an array of OpenAI's includable values. */
function readInclude(f: Fields): void {
  f.array('include')?.forEach((v, i) => {
    if (typeof v !== 'string') throw wrongType(`include[${i}]`, 'a string', v);
    if (!INCLUDABLE.includes(v)) throw invalidValue('include', `'${v.slice(0, 100)}' is not one of ${INCLUDABLE.map((x) => `'${x}'`).join(', ')}.`);
  });
}

/** `conversation`: a conversation id, or `{"id": …}`. */
function readConversation(f: Fields): string | null {
  const v = f.obj.conversation;
  if (v === undefined || v === null) return null;
  if (isObject(v)) {
    const other = Object.keys(v).find((k) => k !== 'id');
    if (other !== undefined) throw invalidRequest('unknown_parameter', `Unknown parameter: 'conversation.${other}'. A conversation is named by its 'id' alone.`, `conversation.${other}`);
    return new Fields(v, 'conversation').requiredString('id', { nonEmpty: true, maxLength: 256 });
  }
  if (typeof v !== 'string') throw wrongType('conversation', "a conversation id (or an object with its 'id')", v);
  if (!v.trim()) throw invalidRequest('empty_value', "Invalid 'conversation': the value must not be empty.", 'conversation');
  if (v.length > 256) throw invalidValue('conversation', `string too long: ${v.length} characters, the maximum is 256.`);
  return v;
}

/** Items a request may add to a conversation at once, as OpenAI allows. */
export const MAX_NEW_CONVERSATION_ITEMS = 20;

/**
 * Items for a conversation (`POST /v1/conversations`, `…/items`): messages, written as Responses
 * input messages. Items of tool use are refused: svc agents call no tools, so a conversation here
 * holds what was said.
 */
export function parseConversationItems(raw: unknown, param: string): { role: ItemRole; parts: string[] }[] {
  if (!Array.isArray(raw)) throw wrongType(param, 'an array of message items', raw);
  if (raw.length > MAX_NEW_CONVERSATION_ITEMS) throw invalidValue(param, `at most ${MAX_NEW_CONVERSATION_ITEMS} items can be added at once, got ${raw.length}.`);
  return raw.map((item, i) => {
    const p = `${param}[${i}]`;
    if (!isObject(item)) throw wrongType(p, 'a message item object', item);
    const itf = new Fields(item, p);
    const type = itf.string('type') ?? 'message';
    if (type !== 'message') {
      throw invalidRequest('unsupported_item', `Unsupported item type '${type}' at '${p}.type': conversations here hold messages (svc agents call no tools); send {"role": …, "content": …}.`, `${p}.type`);
    }
    const role = itf.requiredString('role');
    if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'developer') throw invalidValue(`${p}.role`, `'${role}' is not supported. Use 'user', 'assistant', 'system' or 'developer'.`);
    if (item.content === undefined || item.content === null) throw missing(`${p}.content`);
    // Checked as input content is; each part kept as sent.
    const text = contentText(item.content, `${p}.content`, TEXT_PARTS);
    return { role, parts: Array.isArray(item.content) ? item.content.map((c) => String((c as { text?: unknown; refusal?: unknown }).text ?? (c as { refusal?: unknown }).refusal)) : [text] };
  });
}

const TOOL_CHOICES: readonly string[] = ['none', 'auto', 'required'];
/** A token limit past any model's (a 32-bit integer): larger values are mistakes, and would be echoed back beyond what typed clients decode. */
const MAX_TOKENS = 2_147_483_647;

/**
 * `tool_choice` checked: the agents call no tools, so one that forces a call ('required', a named
 * tool, allowed tools in 'required' mode) cannot be honoured, and an SDK would reject the text
 * answer only after it was paid for. 'auto' and 'none' are what the agents do anyway.
 */
function readToolChoice(f: Fields): unknown {
  const choice = f.obj.tool_choice;
  if (choice === undefined || choice === null) return undefined;
  const forced = "svc agents call no tools, so a tool call cannot be forced: leave 'tool_choice' out, or use 'auto' or 'none'.";
  if (typeof choice === 'string') {
    if (!TOOL_CHOICES.includes(choice)) throw invalidValue('tool_choice', `'${choice}' is not one of 'none', 'auto', 'required' (or an object naming a tool).`);
    if (choice === 'required') throw invalidValue('tool_choice', `'required' cannot be honoured: ${forced}`);
    return choice;
  }
  if (!isObject(choice)) throw wrongType('tool_choice', "a string ('none', 'auto', 'required') or an object", choice);
  const type = new Fields(choice, 'tool_choice').requiredString('type', { nonEmpty: true });
  if (type === 'allowed_tools' && choice.mode !== 'required') return choice;
  throw invalidValue('tool_choice', `A tool choice of type '${type}'${type === 'allowed_tools' ? " in 'required' mode" : ''} cannot be honoured: ${forced}`);
}

/** `stream_options` only goes with `stream: true`, as OpenAI has it. */
function checkStreamOptions(f: Fields): Fields | undefined {
  const options = f.object('stream_options');
  if (options && f.obj.stream !== true) throw invalidValue('stream_options', "'stream_options' is only allowed when 'stream' is true.");
  return options;
}

/**
 * The fields a Response object repeats from its request, checked for their types: the agents
 * call no tools and do no reasoning, but a client reading its request back finds what it sent.
 */
function readEcho(f: Fields): RequestEcho | null {
  const echo: RequestEcho = {};
  const tools = readTools(f);
  if (tools?.length) echo.tools = tools;
  const choice = readToolChoice(f);
  if (choice !== undefined) echo.toolChoice = choice as RequestEcho['toolChoice'];
  checkStreamOptions(f);
  const parallel = f.boolean('parallel_tool_calls');
  if (parallel !== undefined) echo.parallelToolCalls = parallel;
  const truncation = f.string('truncation');
  if (truncation !== undefined) {
    if (truncation !== 'auto' && truncation !== 'disabled') throw invalidValue('truncation', `'${truncation}' is not one of 'auto', 'disabled'.`);
    echo.truncation = truncation;
  }
  const reasoning = f.object('reasoning');
  if (reasoning) {
    const choice = (key: string, values: readonly string[]) => {
      const v = reasoning.string(key, { maxLength: 32 });
      if (v !== undefined && !values.includes(v)) throw invalidValue(`reasoning.${key}`, `'${v}' is not one of ${values.map((x) => `'${x}'`).join(', ')}.`);
      return v ?? null;
    };
    echo.reasoning = { effort: choice('effort', REASONING_EFFORTS), summary: choice('summary', REASONING_SUMMARIES) };
  }
  const { cacheKey, safety, topLogprobs } = readSharedFields(f);
  if (cacheKey !== undefined) echo.promptCacheKey = cacheKey;
  if (safety !== undefined) echo.safetyIdentifier = safety;
  if (topLogprobs !== undefined) echo.topLogprobs = topLogprobs;
  const maxToolCalls = f.number('max_tool_calls', { integer: true, min: 0, max: MAX_TOKENS });
  if (maxToolCalls !== undefined) echo.maxToolCalls = maxToolCalls;
  return Object.keys(echo).length ? echo : null;
}

/** OpenAI's values for `service_tier` (the answer is always processed at 'default', as the Response object says). */
const SERVICE_TIERS: readonly string[] = ['auto', 'default', 'flex', 'scale', 'priority'];
/** The most `top_logprobs` OpenAI accepts, on both endpoints. */
const MAX_TOP_LOGPROBS = 20;

/**
 * Fields both endpoints take alike and check alike, though the agents use none of them: a wrong
 * type or value is the same 400 naming it on Chat as on Responses, as OpenAI answers both.
 */
function readSharedFields(f: Fields): { cacheKey?: string; safety?: string; topLogprobs?: number } {
  f.string('user', { maxLength: 256 });
  f.boolean('parallel_tool_calls');
  const tier = f.string('service_tier');
  if (tier !== undefined && !SERVICE_TIERS.includes(tier)) throw invalidValue('service_tier', `'${tier}' is not one of ${SERVICE_TIERS.map((x) => `'${x}'`).join(', ')}.`);
  return {
    cacheKey: f.string('prompt_cache_key', { maxLength: 256 }),
    safety: f.string('safety_identifier', { maxLength: 256 }),
    topLogprobs: f.number('top_logprobs', { integer: true, min: 0, max: MAX_TOP_LOGPROBS }),
  };
}

/** `tools`, each an object with a type (the agents call none of them). */
function readTools(f: Fields): unknown[] | undefined {
  const tools = f.array('tools');
  tools?.forEach((tool, i) => {
    if (!isObject(tool)) throw wrongType(`tools[${i}]`, 'a tool object', tool);
    new Fields(tool, `tools[${i}]`).requiredString('type', { nonEmpty: true });
  });
  return tools;
}

/** OpenAI's values for `reasoning.effort` and `reasoning.summary`, echoed as sent (the agents do not reason by tokens). */
const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
const REASONING_SUMMARIES = ['auto', 'concise', 'detailed'] as const;

/**
 * The agents answer in Markdown with numbered citations: JSON output ("json_schema",
 * "json_object") is refused, as OpenAI refuses it for a model without structured outputs,
 * rather than answered with text the SDK's `parse()` helpers would fail on.
 */
function refuseStructuredOutput(format: Fields | undefined, param: string): void {
  const type = format?.string('type');
  if (type !== undefined && type !== 'text') {
    throw invalidValue(param, `'${type}' output is not supported: svc agents answer in Markdown text with numbered citations. Leave '${param}' out, or set its type to 'text'.`);
  }
}

export function parseChatRequest(raw: unknown): ChatRequest {
  const f = new Fields(bodyObject(raw));
  const model = readModel(f);
  const list = f.array('messages', { required: true, nonEmpty: true, hint: 'Send the conversation as [{"role":"user","content":"…"}].' })!;
  const system: string[] = [];
  const turns: (Turn & { param: string })[] = [];
  list.forEach((m, i) => {
    const p = `messages[${i}]`;
    if (!isObject(m)) throw wrongType(p, 'a message object', m);
    const mf = new Fields(m, p);
    const role = mf.requiredString('role');
    // The result of a tool the caller's earlier assistant turn called (`function` is its old
    // name): the agents use no tools, so it is passed over like that call.
    if (role === 'tool' || role === 'function') {
      if (i === list.length - 1) throw endsWithTool(p, `a '${role}' message`, 'messages');
      return;
    }
    if (!['system', 'developer', 'user', 'assistant'].includes(role)) {
      throw invalidValue(`${p}.role`, `'${role}' is not supported. Use 'system', 'developer', 'user' or 'assistant' ('tool' results are passed over).`);
    }
    // An assistant turn with null content (or none, beside its tool calls, as OpenAI allows) only
    // called tools (nothing to pass on) or refused (the refusal is what it said).
    const called = role === 'assistant' && (m.tool_calls !== undefined || m.function_call !== undefined || m.refusal !== undefined);
    if (m.content === undefined && !called) throw missing(`${p}.content`);
    const refusal = role === 'assistant' ? mf.string('refusal') : undefined;
    const text =
      (m.content === null || m.content === undefined) && role === 'assistant' ? (refusal ?? '') : contentText(m.content, `${p}.content`, new Set(['text', ...(role === 'assistant' ? ['refusal'] : [])]));
    if (role === 'system' || role === 'developer') system.push(text);
    else turns.push({ role: role as Turn['role'], content: text, param: p });
  });
  requireLastUser(turns, 'messages');
  const n = f.number('n', { integer: true, min: 1 });
  if (n !== undefined && n !== 1) throw invalidValue('n', 'these agents return one choice; use n = 1.');
  f.number('temperature', { min: 0, max: 2 });
  f.number('top_p', { min: 0, max: 1 });
  const maxTokens = f.number('max_tokens', { integer: true, min: 1, max: MAX_TOKENS });
  const maxCompletionTokens = f.number('max_completion_tokens', { integer: true, min: 1, max: MAX_TOKENS });
  refuseStructuredOutput(f.object('response_format'), 'response_format');
  // Checked as the Responses route checks them, though the agents use none of them.
  const metadata = f.metadata('metadata') ?? {};
  readTools(f);
  readToolChoice(f);
  const call = f.obj.function_call;
  if (isObject(call)) throw invalidValue('function_call', "A named function call cannot be honoured: svc agents call no functions. Leave 'function_call' out, or use 'auto' or 'none'.");
  if (call !== undefined && call !== null && call !== 'auto' && call !== 'none') throw invalidValue('function_call', "Expected 'auto', 'none' or an object naming a function.");
  const effort = f.string('reasoning_effort', { maxLength: 32 });
  if (effort !== undefined && !(REASONING_EFFORTS as readonly string[]).includes(effort)) throw invalidValue('reasoning_effort', `'${effort}' is not one of ${REASONING_EFFORTS.map((x) => `'${x}'`).join(', ')}.`);
  const verbosity = f.string('verbosity');
  if (verbosity !== undefined && !VERBOSITIES.includes(verbosity)) throw invalidValue('verbosity', `'${verbosity}' is not one of 'low', 'medium', 'high'.`);
  const { topLogprobs } = readSharedFields(f);
  // (OpenAI refuses `top_logprobs` unless `logprobs` is true: there are no logprobs to list the top ones of.)
  if (f.boolean('logprobs') !== true && topLogprobs !== undefined) throw invalidValue('top_logprobs', "'top_logprobs' is only allowed when 'logprobs' is true.");
  checkSamplingFields(f);
  const streamOptions = checkStreamOptions(f);
  const includeUsage = streamOptions?.boolean('include_usage') ?? false;
  const store = f.boolean('store') ?? false;
  return {
    model,
    messages: turns.map(({ role, content }) => ({ role, content })),
    instructions: joinInstructions(system),
    stream: f.boolean('stream') ?? false,
    includeUsage,
    store,
    metadata,
    storedMessages: store ? list.map(storedMessage) : [],
    maxOutputTokens: maxCompletionTokens ?? maxTokens ?? null,
    stop: readStop(f),
  };
}

/** The most stop sequences OpenAI takes. */
const MAX_STOPS = 4;

/** `stop`: a string or up to 4 strings, each a sequence the answer ends before; null or [] is none. */
function readStop(f: Fields): string[] | null {
  const stop = f.obj.stop;
  if (stop === undefined || stop === null) return null;
  const stops = typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop : null;
  if (!stops) throw wrongType('stop', 'a string or an array of strings', stop);
  if (stops.length > MAX_STOPS) throw invalidValue('stop', `at most ${MAX_STOPS} stop sequences are allowed, got ${stops.length}.`);
  stops.forEach((s, i) => {
    const p = typeof stop === 'string' ? 'stop' : `stop[${i}]`;
    if (typeof s !== 'string') throw wrongType(p, 'a string', s);
    if (!s) throw invalidRequest('empty_value', `Invalid '${p}': a stop sequence must not be empty.`, p);
  });
  return stops.length ? (stops as string[]) : null;
}

/**
 * Chat's sampling fields, which the agents (who write no tokens by sampling) leave aside: checked
 * as OpenAI checks them, so a mistake is a 400 naming it rather than passed over. And audio output
 * (`modalities` with "audio") cannot be given: the agents write text.
 */
function checkSamplingFields(f: Fields): void {
  f.number('seed', { integer: true });
  f.number('frequency_penalty', { min: -2, max: 2 });
  f.number('presence_penalty', { min: -2, max: 2 });
  const bias = f.object('logit_bias');
  if (bias) for (const token of Object.keys(bias.obj)) bias.number(token, { min: -100, max: 100 });
  f.array('modalities')?.forEach((m, i) => {
    if (typeof m !== 'string') throw wrongType(`modalities[${i}]`, 'a string', m);
    if (m === 'audio') throw invalidValue('modalities', "'audio' output is not supported: svc agents answer in text. Leave 'modalities' out, or send [\"text\"].");
    if (m !== 'text') throw invalidValue(`modalities[${i}]`, `'${m.slice(0, 50)}' is not one of 'text', 'audio'.`);
  });
}

/** A request message as the stored-completion endpoints list it: its text, and its parts when it was sent in parts. */
function storedMessage(m: unknown): StoredChatMessage {
  const { role, content, name, refusal, tool_calls: toolCalls, function_call: functionCall, tool_call_id: toolCallId } = m as Record<string, unknown>;
  const parts = Array.isArray(content) ? content : null;
  const text = typeof content === 'string' ? content : parts ? parts.flatMap((p) => (isObject(p) && typeof p.text === 'string' && p.type !== 'refusal' ? [p.text] : [])).join('\n') : null;
  const shownParts = parts?.filter((p) => isObject(p) && (p.type === 'text' || p.type === 'image_url')) ?? null;
  const refused = typeof refusal === 'string' ? refusal : parts?.flatMap((p) => (isObject(p) && p.type === 'refusal' && typeof p.refusal === 'string' ? [p.refusal] : [])).join('\n') || undefined;
  return {
    role: String(role),
    content: text,
    name: typeof name === 'string' ? name : null,
    content_parts: shownParts,
    ...(refused !== undefined ? { refusal: refused } : {}),
    ...(Array.isArray(toolCalls) ? { tool_calls: toolCalls } : {}),
    ...(isObject(functionCall) ? { function_call: functionCall } : {}),
    ...(typeof toolCallId === 'string' ? { tool_call_id: toolCallId } : {}),
  };
}
