import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
let key: string;
let revokedKey: string;

beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'), [{ name: 'cache', description: 'cached' }])] });
  key = (await svc.account()).apiKey;
  const other = await svc.account();
  const created = await fetch(`${svc.url}/v1/admin/accounts/${other.id}/keys`, { method: 'POST', headers: { authorization: `Bearer ${svc.adminKey}` } });
  const k = (await created.json()) as { id: string; api_key: string };
  await fetch(`${svc.url}/v1/admin/keys/${k.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${svc.adminKey}` } });
  revokedKey = k.api_key;
  await fetch(`${svc.url}/v1/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'taken@example.com' }),
  });
});

afterAll(() => svc.close());

interface Case {
  name: string;
  method?: string;
  path?: string;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  auth?: 'key' | 'admin' | 'none' | 'revoked' | string;
  status: number;
  code: string;
  param?: string | null;
}

const R = '/v1/responses';
const C = '/v1/chat/completions';
const A = '/v1/admin/accounts';
const user = (content: unknown) => ({ role: 'user', content });
const resp = (extra: Record<string, unknown>) => ({ model: 'svc-test', input: 'hi', ...extra });
const chat = (extra: Record<string, unknown>) => ({ model: 'svc-test', messages: [user('hi')], ...extra });

const CASES: Case[] = [
  // Body and framing
  { name: 'malformed JSON', body: '{"model":', status: 400, code: 'invalid_json', param: null },
  { name: 'JSON array body', body: '[]', status: 400, code: 'invalid_body', param: null },
  { name: 'JSON string body', body: '"hello"', status: 400, code: 'invalid_body', param: null },
  { name: 'JSON null body', body: 'null', status: 400, code: 'missing_body', param: null },
  { name: 'empty body with JSON content type', body: '', status: 400, code: 'missing_body', param: null },
  { name: 'text/plain body', body: 'hi', headers: { 'content-type': 'text/plain' }, status: 415, code: 'unsupported_media_type' },
  { name: 'form-encoded body', body: 'model=svc-test', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'unsupported_media_type' },
  { name: 'prototype pollution attempt', body: '{"model":"svc-test","input":"hi","__proto__":{"x":1}}', status: 400, code: 'forbidden_json_key', param: null },
  { name: '__proto__ as a metadata key', body: '{"model":"svc-test","input":"hi","metadata":{"__proto__":"x"}}', status: 400, code: 'forbidden_json_key', param: null },
  { name: 'constructor.prototype key', body: '{"model":"svc-test","input":"hi","metadata":{"constructor":{"prototype":{"x":1}}}}', status: 400, code: 'forbidden_json_key', param: null },
  { name: 'body over 1 MiB', body: { model: 'svc-test', input: 'x'.repeat(1_100_000) }, status: 413, code: 'request_too_large' },
  // Responses: model
  { name: 'missing model', body: { input: 'hi' }, status: 400, code: 'missing_required_parameter', param: 'model' },
  { name: 'model is a number', body: resp({ model: 42 }), status: 400, code: 'invalid_type', param: 'model' },
  { name: 'model is empty', body: resp({ model: '  ' }), status: 400, code: 'empty_value', param: 'model' },
  { name: 'unknown model', body: resp({ model: 'gpt-4o' }), status: 404, code: 'model_not_found', param: 'model' },
  { name: 'unknown variant', body: resp({ model: 'svc-test:refresh' }), status: 404, code: 'model_not_found', param: 'model' },
  // Responses: input
  { name: 'missing input', body: { model: 'svc-test' }, status: 400, code: 'missing_required_parameter', param: 'input' },
  { name: 'empty input string', body: resp({ input: '' }), status: 400, code: 'empty_input', param: 'input' },
  { name: 'whitespace input', body: resp({ input: ' \n\t ' }), status: 400, code: 'empty_input', param: 'input' },
  { name: 'input is a number', body: resp({ input: 7 }), status: 400, code: 'invalid_type', param: 'input' },
  { name: 'input is an object', body: resp({ input: { role: 'user' } }), status: 400, code: 'invalid_type', param: 'input' },
  { name: 'input is an empty array', body: resp({ input: [] }), status: 400, code: 'empty_input', param: 'input' },
  { name: 'input item is a number', body: resp({ input: [42] }), status: 400, code: 'invalid_type', param: 'input[0]' },
  { name: 'input role tool', body: resp({ input: [{ role: 'tool', content: 'x' }] }), status: 400, code: 'invalid_value', param: 'input[0].role' },
  { name: 'input item without role', body: resp({ input: [{ content: 'x' }] }), status: 400, code: 'missing_required_parameter', param: 'input[0].role' },
  { name: 'input item without content', body: resp({ input: [{ role: 'user' }] }), status: 400, code: 'missing_required_parameter', param: 'input[0].content' },
  { name: 'input content is a number', body: resp({ input: [user(5)] }), status: 400, code: 'invalid_type', param: 'input[0].content' },
  {
    name: 'input image part',
    body: resp({ input: [user([{ type: 'input_image', image_url: 'https://x/y.png' }])] }),
    status: 400,
    code: 'unsupported_content_type',
    param: 'input[0].content[0].type',
  },
  { name: 'input text part without text', body: resp({ input: [user([{ type: 'input_text' }])] }), status: 400, code: 'missing_required_parameter', param: 'input[0].content[0].text' },
  {
    name: 'input ends with a function call output',
    body: resp({ input: [user('q'), { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c', output: 'x' }] }),
    status: 400,
    code: 'invalid_value',
    param: 'input[2]',
  },
  { name: 'input item of an unknown type', body: resp({ input: [{ type: 'banana', text: 'x' }, user('q')] }), status: 400, code: 'unsupported_input_item', param: 'input[0].type' },
  { name: 'input ends with assistant', body: resp({ input: [user('q'), { role: 'assistant', content: 'a' }] }), status: 400, code: 'invalid_value', param: 'input[1]' },
  { name: 'input has only a system message', body: resp({ input: [{ role: 'system', content: 'be brief' }] }), status: 400, code: 'empty_input', param: 'input' },
  { name: 'last user message is empty', body: resp({ input: [user('')] }), status: 400, code: 'empty_input', param: 'input[0]' },
  { name: 'unknown item_reference', body: resp({ input: [{ type: 'item_reference', id: 'msg_nope' }, user('and then?')] }), status: 400, code: 'item_not_found', param: 'input' },
  // Responses: other fields
  { name: 'stream is a string', body: resp({ stream: 'yes' }), status: 400, code: 'invalid_type', param: 'stream' },
  { name: 'store is a number', body: resp({ store: 1 }), status: 400, code: 'invalid_type', param: 'store' },
  { name: 'instructions is a number', body: resp({ instructions: 5 }), status: 400, code: 'invalid_type', param: 'instructions' },
  { name: 'unknown previous_response_id', body: resp({ previous_response_id: 'resp_missing' }), status: 404, code: 'previous_response_not_found', param: 'previous_response_id' },
  { name: 'previous_response_id is a number', body: resp({ previous_response_id: 5 }), status: 400, code: 'invalid_type', param: 'previous_response_id' },
  { name: 'metadata is a string', body: resp({ metadata: 'x' }), status: 400, code: 'invalid_type', param: 'metadata' },
  { name: 'metadata value is a number', body: resp({ metadata: { a: 1 } }), status: 400, code: 'invalid_type', param: 'metadata.a' },
  { name: 'user longer than 256 characters (as safety_identifier)', body: resp({ user: 'u'.repeat(257) }), status: 400, code: 'invalid_value', param: 'user' },
  { name: 'temperature out of range', body: resp({ temperature: 5 }), status: 400, code: 'invalid_value', param: 'temperature' },
  { name: 'temperature is a string', body: resp({ temperature: 'hot' }), status: 400, code: 'invalid_type', param: 'temperature' },
  { name: 'temperature overflows to Infinity', body: '{"model":"svc-test","input":"hi","temperature":1e400}', status: 400, code: 'invalid_value', param: 'temperature' },
  { name: 'chat max_tokens overflows to Infinity', path: '/v1/chat/completions', body: '{"model":"svc-test","messages":[{"role":"user","content":"hi"}],"max_tokens":1e400}', status: 400, code: 'invalid_value', param: 'max_tokens' },
  { name: 'tools not an array', body: resp({ tools: { type: 'function' } }), status: 400, code: 'invalid_type', param: 'tools' },
  { name: 'a tool without a type', body: resp({ tools: [{ name: 'f' }] }), status: 400, code: 'missing_required_parameter', param: 'tools[0].type' },
  { name: 'tool_choice not a known choice', body: resp({ tool_choice: 'always' }), status: 400, code: 'invalid_value', param: 'tool_choice' },
  { name: 'tool_choice a number', body: resp({ tool_choice: 1 }), status: 400, code: 'invalid_type', param: 'tool_choice' },
  { name: 'truncation not auto or disabled', body: resp({ truncation: 'sometimes' }), status: 400, code: 'invalid_value', param: 'truncation' },
  { name: 'parallel_tool_calls a string', body: resp({ parallel_tool_calls: 'yes' }), status: 400, code: 'invalid_type', param: 'parallel_tool_calls' },
  { name: 'reasoning effort a number', body: resp({ reasoning: { effort: 3 } }), status: 400, code: 'invalid_type', param: 'reasoning.effort' },
  { name: 'reasoning effort not one of OpenAI\'s', body: resp({ reasoning: { effort: 'extreme' } }), status: 400, code: 'invalid_value', param: 'reasoning.effort' },
  { name: 'reasoning summary not one of OpenAI\'s', body: resp({ reasoning: { summary: 'bogus' } }), status: 400, code: 'invalid_value', param: 'reasoning.summary' },
  { name: 'text verbosity not one of low, medium, high', body: resp({ text: { verbosity: 'verbose' } }), status: 400, code: 'invalid_value', param: 'text.verbosity' },
  { name: 'structured output asked for (json_schema)', body: resp({ text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' } } } }), status: 400, code: 'invalid_value', param: 'text.format' },
  { name: 'chat: JSON mode asked for', path: '/v1/chat/completions', body: chat({ response_format: { type: 'json_object' } }), status: 400, code: 'invalid_value', param: 'response_format' },
  { name: 'gzip-compressed body', body: '\u001f\u008b', headers: { 'content-encoding': 'gzip' }, status: 415, code: 'unsupported_media_type' },
  { name: 'top_p above 1', body: resp({ top_p: 2 }), status: 400, code: 'invalid_value', param: 'top_p' },
  { name: 'max_output_tokens fractional', body: resp({ max_output_tokens: 1.5 }), status: 400, code: 'invalid_type', param: 'max_output_tokens' },
  // Chat
  { name: 'chat: missing messages', path: C, body: { model: 'svc-test' }, status: 400, code: 'missing_required_parameter', param: 'messages' },
  { name: 'chat: messages is a string', path: C, body: chat({ messages: 'hi' }), status: 400, code: 'invalid_type', param: 'messages' },
  { name: 'chat: messages is empty', path: C, body: chat({ messages: [] }), status: 400, code: 'empty_array', param: 'messages' },
  { name: 'chat: message without role', path: C, body: chat({ messages: [{ content: 'x' }] }), status: 400, code: 'missing_required_parameter', param: 'messages[0].role' },
  { name: 'chat: ends with a tool result', path: C, body: chat({ messages: [{ role: 'user', content: 'q' }, { role: 'tool', content: 'x', tool_call_id: 'c' }] }), status: 400, code: 'invalid_value', param: 'messages[1]' },
  { name: 'chat: unknown role', path: C, body: chat({ messages: [{ role: 'robot', content: 'x' }] }), status: 400, code: 'invalid_value', param: 'messages[0].role' },
  { name: 'chat: only a function result', path: C, body: chat({ messages: [{ role: 'function', content: 'x', name: 'f' }] }), status: 400, code: 'invalid_value', param: 'messages[0]' },
  { name: 'chat: message without content', path: C, body: chat({ messages: [{ role: 'user' }] }), status: 400, code: 'missing_required_parameter', param: 'messages[0].content' },
  { name: 'chat: assistant message without content or tool calls', path: C, body: chat({ messages: [user('q'), { role: 'assistant' }, user('q')] }), status: 400, code: 'missing_required_parameter', param: 'messages[1].content' },
  {
    name: 'chat: ends with a tool result after a tool call without content',
    path: C,
    body: chat({ messages: [user('q'), { role: 'assistant', tool_calls: [{ id: '1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: '1', content: 'ok' }] }),
    status: 400,
    code: 'invalid_value',
    param: 'messages[2]',
  },
  { name: 'chat: content is a number', path: C, body: chat({ messages: [user(42)] }), status: 400, code: 'invalid_type', param: 'messages[0].content' },
  {
    name: 'chat: image_url part',
    path: C,
    body: chat({ messages: [user([{ type: 'image_url', image_url: { url: 'https://x' } }])] }),
    status: 400,
    code: 'unsupported_content_type',
    param: 'messages[0].content[0].type',
  },
  { name: 'chat: ends with assistant', path: C, body: chat({ messages: [user('q'), { role: 'assistant', content: 'a' }] }), status: 400, code: 'invalid_value', param: 'messages[1]' },
  { name: 'chat: empty user message', path: C, body: chat({ messages: [user('   ')] }), status: 400, code: 'empty_input', param: 'messages[0]' },
  { name: 'chat: only a system message', path: C, body: chat({ messages: [{ role: 'system', content: 'x' }] }), status: 400, code: 'empty_input', param: 'messages' },
  { name: 'chat: n = 2', path: C, body: chat({ n: 2 }), status: 400, code: 'invalid_value', param: 'n' },
  { name: 'chat: stream_options is a string', path: C, body: chat({ stream_options: 'x' }), status: 400, code: 'invalid_type', param: 'stream_options' },
  { name: 'chat: include_usage is a string', path: C, body: chat({ stream: true, stream_options: { include_usage: 'yes' } }), status: 400, code: 'invalid_type', param: 'stream_options.include_usage' },
  { name: 'chat: stream_options without stream', path: C, body: chat({ stream_options: { include_usage: true } }), status: 400, code: 'invalid_value', param: 'stream_options' },
  { name: 'responses: stream_options without stream', path: R, body: resp({ stream_options: { include_obfuscation: false } }), status: 400, code: 'invalid_value', param: 'stream_options' },
  { name: "chat: tool_choice 'required'", path: C, body: chat({ tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' }), status: 400, code: 'invalid_value', param: 'tool_choice' },
  { name: 'chat: tool_choice naming a function', path: C, body: chat({ tool_choice: { type: 'function', function: { name: 'f' } } }), status: 400, code: 'invalid_value', param: 'tool_choice' },
  { name: "responses: tool_choice 'required'", path: R, body: resp({ tool_choice: 'required' }), status: 400, code: 'invalid_value', param: 'tool_choice' },
  { name: 'responses: tool_choice naming a tool', path: R, body: resp({ tool_choice: { type: 'function', name: 'lookup' } }), status: 400, code: 'invalid_value', param: 'tool_choice' },
  { name: 'chat: legacy function_call naming a function', path: C, body: chat({ function_call: { name: 'f' } }), status: 400, code: 'invalid_value', param: 'function_call' },
  { name: 'chat: tool_choice not a choice', path: C, body: chat({ tool_choice: 'sometimes' }), status: 400, code: 'invalid_value', param: 'tool_choice' },
  { name: 'chat: tools is a string', path: C, body: chat({ tools: 'x' }), status: 400, code: 'invalid_type', param: 'tools' },
  { name: 'chat: metadata value is a number', path: C, body: chat({ metadata: { k: 1 } }), status: 400, code: 'invalid_type', param: 'metadata.k' },
  { name: 'chat: unknown reasoning_effort', path: C, body: chat({ reasoning_effort: 'max' }), status: 400, code: 'invalid_value', param: 'reasoning_effort' },
  { name: 'chat: unknown verbosity', path: C, body: chat({ verbosity: 'loud' }), status: 400, code: 'invalid_value', param: 'verbosity' },
  { name: 'chat: max_tokens past a 32-bit integer', path: C, body: chat({ max_tokens: 1e20 }), status: 400, code: 'invalid_value', param: 'max_tokens' },
  { name: 'responses: max_output_tokens of 1e300', path: R, body: resp({ max_output_tokens: 1e300 }), status: 400, code: 'invalid_value', param: 'max_output_tokens' },
  { name: 'chat: negative max_tokens', path: C, body: chat({ max_tokens: -1 }), status: 400, code: 'invalid_value', param: 'max_tokens' },
  { name: 'chat: unknown model', path: C, body: chat({ model: 'svc-nope' }), status: 404, code: 'model_not_found', param: 'model' },
  { name: 'chat: malformed JSON', path: C, body: '{"messages": [}', status: 400, code: 'invalid_json', param: null },
  // Authentication
  { name: 'no Authorization header', body: resp({}), auth: 'none', status: 401, code: 'invalid_api_key' },
  { name: 'Basic authorization', body: resp({}), auth: 'Basic dXNlcjpwYXNz', status: 401, code: 'invalid_api_key' },
  { name: 'Bearer without a token', body: resp({}), auth: 'Bearer ', status: 401, code: 'invalid_api_key' },
  { name: 'unknown key', body: resp({}), auth: 'Bearer sk-svc-0000000000000000000000000000000000000000', status: 401, code: 'invalid_api_key' },
  { name: 'revoked key', body: resp({}), auth: 'revoked', status: 401, code: 'invalid_api_key' },
  { name: 'admin route with a user key', path: A, body: { email: 'a@b.co' }, auth: 'key', status: 401, code: 'invalid_admin_key' },
  { name: 'admin route without an Authorization header', path: A, body: { email: 'a@b.co' }, auth: 'none', status: 401, code: 'invalid_admin_key' },
  { name: 'ledger cursor given twice', method: 'GET', path: '/v1/account/ledger?after=a&after=b', status: 400, code: 'invalid_type', param: 'after' },
  { name: 'admin key on a user route', body: resp({}), auth: 'admin', status: 401, code: 'invalid_api_key' },
  // Retrieval and routing
  { name: 'unknown route', method: 'GET', path: '/v1/nothing', status: 404, code: 'unknown_url' },
  { name: 'wrong method', method: 'PUT', path: R, body: resp({}), status: 405, code: 'method_not_allowed', param: null },
  { name: 'empty response id before input_items', method: 'GET', path: '/v1/responses//input_items', status: 404, code: 'unknown_url', param: null },
  { name: 'empty response id before cancel', method: 'POST', path: '/v1/responses//cancel', status: 404, code: 'unknown_url', param: null },
  { name: 'unknown response id', method: 'GET', path: '/v1/responses/resp_nope', status: 404, code: 'response_not_found', param: 'id' },
  { name: 'bad stream query flag', method: 'GET', path: '/v1/responses/resp_nope?stream=maybe', status: 400, code: 'invalid_type', param: 'stream' },
  { name: 'unknown model id', method: 'GET', path: '/v1/models/nope', status: 404, code: 'model_not_found', param: 'model' },
  { name: "model id that is a lone '%'", method: 'GET', path: '/v1/models/%25', status: 404, code: 'model_not_found', param: 'model' },
  { name: "model id with '%' and hex-less digits", method: 'GET', path: '/v1/models/%25ZZ', status: 404, code: 'model_not_found', param: 'model' },
  { name: 'model id percent-encoded twice is not decoded twice', method: 'GET', path: '/v1/models/svc-test%253Acache', status: 404, code: 'model_not_found', param: 'model' },
  { name: 'malformed percent-encoding in the path', method: 'GET', path: '/v1/responses/%E0%A4%A', status: 400, code: 'invalid_url', param: null },
  { name: 'path segment over 100 characters', method: 'GET', path: `/v1/responses/resp_${'x'.repeat(120)}`, status: 400, code: 'invalid_url', param: null },
  { name: 'over-long id on an admin route', method: 'DELETE', path: `/v1/admin/keys/key_${'x'.repeat(120)}`, auth: 'admin', status: 400, code: 'invalid_url', param: null },
  { name: 'delete unknown response', method: 'DELETE', path: '/v1/responses/resp_nope', status: 404, code: 'response_not_found', param: 'id' },
  // The NUL character: Postgres cannot store it in text, so it is refused everywhere alike.
  { name: 'NUL in the input', body: resp({ input: 'a\u0000b' }), status: 400, code: 'invalid_value', param: 'input' },
  // Deep nesting overflowed the stack of the body checks (a 500): refused, naming where the 64th level is.
  { name: 'body nested 10,000 deep', body: `{"model":"svc-test","input":"hi","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, status: 400, code: 'invalid_value', param: `x${'[0]'.repeat(63)}` },
  { name: 'empty body with an Idempotency-Key', body: '', headers: { 'idempotency-key': 'empty-1' }, status: 400, code: 'missing_body', param: null },
  { name: 'chat: no body or content type, with an Idempotency-Key', path: '/v1/chat/completions', body: undefined, headers: { 'idempotency-key': 'empty-2' }, status: 400, code: 'missing_body', param: null },
  { name: 'whitespace body with JSON content type', body: ' \n', status: 400, code: 'missing_body', param: null },
  { name: 'body nested 10,000 deep, with an Idempotency-Key', body: `{"model":"svc-test","input":"hi","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, headers: { 'idempotency-key': 'deep-1' }, status: 400, code: 'invalid_value', param: `x${'[0]'.repeat(63)}` },
  { name: 'chat: messages nested 10,000 deep', path: C, body: `{"model":"svc-test","messages":[{"role":"user","content":"hi","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}]}`, status: 400, code: 'invalid_value', param: `messages[0].x${'.a'.repeat(61)}` },
  { name: 'NUL in a message', path: C, body: chat({ messages: [user('hi'), { role: 'assistant', content: 'x' }, user('q\u0000')] }), status: 400, code: 'invalid_value', param: 'messages[2].content' },
  { name: 'NUL in a metadata key', body: resp({ metadata: { 'k\u0000': 'v' } }), status: 400, code: 'invalid_value', param: 'metadata.k\u0000' },
  { name: 'NUL in previous_response_id', body: resp({ previous_response_id: 'resp_\u0000' }), status: 400, code: 'invalid_value', param: 'previous_response_id' },
  // A lone surrogate is no character: stored, it would come back changed.
  { name: 'lone surrogate in the input', body: '{"model":"svc-test","input":"odds \\ud800 of a cut"}', status: 400, code: 'invalid_value', param: 'input' },
  { name: 'lone low surrogate in a message', path: C, body: '{"model":"svc-test","messages":[{"role":"user","content":"q \\udc00"}]}', status: 400, code: 'invalid_value', param: 'messages[0].content' },
  // JSON is UTF-8: another charset, or bytes that are not UTF-8, would reach the agents as U+FFFD.
  { name: 'a Latin-1 body', body: Buffer.from('{"model":"svc-test","input":"caf\xe9"}', 'latin1'), status: 400, code: 'invalid_json', param: null },
  { name: 'charset other than UTF-8', body: resp({ input: 'q' }), headers: { 'content-type': 'application/json; charset=iso-8859-1' }, status: 415, code: 'unsupported_media_type', param: null },
  { name: 'NUL in a path id', method: 'GET', path: '/v1/responses/resp_%00', status: 400, code: 'invalid_url', param: null },
  { name: 'NUL in a query value', method: 'GET', path: '/v1/account/ledger?after=led_%00', status: 400, code: 'invalid_url', param: null },
  { name: 'admin: NUL in an email', path: A, auth: 'admin', body: { email: 'a\u0000b@example.com' }, status: 400, code: 'invalid_value', param: 'email' },
  // Admin
  { name: 'admin: missing email', path: A, auth: 'admin', body: { plan: 'pro' }, status: 400, code: 'missing_required_parameter', param: 'email' },
  { name: 'admin: bad email', path: A, auth: 'admin', body: { email: 'not-an-email' }, status: 400, code: 'invalid_value', param: 'email' },
  { name: 'admin: markup as an email', path: A, auth: 'admin', body: { email: '<script>alert(1)</script>@x.com' }, status: 400, code: 'invalid_value', param: 'email' },
  { name: 'admin: email with a space', path: A, auth: 'admin', body: { email: 'ana lopez@example.com' }, status: 400, code: 'invalid_value', param: 'email' },
  { name: 'admin: email with a one-letter top-level name', path: A, auth: 'admin', body: { email: 'ana@example.c' }, status: 400, code: 'invalid_value', param: 'email' },
  { name: 'admin: unknown plan', path: A, auth: 'admin', body: { email: 'p@example.com', plan: 'gold' }, status: 400, code: 'invalid_value', param: 'plan' },
  { name: 'admin: negative credits', path: A, auth: 'admin', body: { email: 'c@example.com', credits: -1 }, status: 400, code: 'invalid_value', param: 'credits' },
  { name: 'admin: fractional credits', path: A, auth: 'admin', body: { email: 'd@example.com', credits: 1.5 }, status: 400, code: 'invalid_type', param: 'credits' },
  { name: 'admin: duplicate email', path: A, auth: 'admin', body: { email: 'taken@example.com' }, status: 409, code: 'account_exists', param: 'email' },
  { name: 'admin: the same email in other letter case', path: A, auth: 'admin', body: { email: '  Taken@EXAMPLE.com ' }, status: 409, code: 'account_exists', param: 'email' },
  { name: 'new key: the body is an array', path: '/v1/account/keys', body: [1], status: 400, code: 'invalid_body', param: null },
  { name: 'new key: the body is a string', path: '/v1/account/keys', body: '"abc"', status: 400, code: 'invalid_body', param: null },
  { name: 'admin: email is a number', path: A, auth: 'admin', body: { email: 123 }, status: 400, code: 'invalid_type', param: 'email' },
  { name: 'admin: key for unknown account', path: `${A}/acct_nope/keys`, auth: 'admin', status: 404, code: 'account_not_found' },
  { name: 'admin: revoke unknown key', method: 'DELETE', path: '/v1/admin/keys/key_nope', auth: 'admin', status: 404, code: 'key_not_found' },
];

describe('bad input gets a clear OpenAI-style error', () => {
  it('covers at least 40 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(40));

  it('answers that succeed are labelled nosniff too, an event stream included', async () => {
    const models = await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${key}` } });
    expect([models.status, models.headers.get('x-content-type-options')]).toEqual([200, 'nosniff']);
    const stream = await fetch(`${svc.baseURL}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'svc-test', messages: [{ role: 'user', content: 'hi' }], stream: true }) });
    expect([stream.status, stream.headers.get('content-type'), stream.headers.get('x-content-type-options')]).toEqual([200, 'text/event-stream; charset=utf-8', 'nosniff']);
    await stream.text();
  });

  it('a body far over the limit, still being sent when refused, gets its 413 every time, not a reset; the connection carries on', async () => {
    const body = JSON.stringify({ model: 'svc-test', input: 'x'.repeat(5_000_000) });
    const outcomes: (number | string)[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${svc.baseURL}/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body }).catch((e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message);
      if (typeof res === 'string') outcomes.push(res);
      else {
        outcomes.push(res.status);
        expect(res.headers.get('connection')).not.toBe('close');
        expect(((await res.json()) as any).error.code).toBe('request_too_large');
      }
    }
    expect(outcomes).toEqual(Array(8).fill(413));
    // Malformed JSON is read whole: no reason to close the connection either.
    const bad = await fetch(`${svc.baseURL}/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"model":' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('connection')).not.toBe('close');
  });

  it('headers too large for the server get 431 in the same error format, not the framework\'s', async () => {
    const res = await fetch(`${svc.baseURL}/responses`, { method: 'POST', headers: { authorization: `Bearer ${'x'.repeat(20_000)}`, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Refused before fastify saw it, it still has an id (also in its log line).
    expect(res.headers.get('x-request-id')).toMatch(/^req_\w+$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(((await res.json()) as any).error).toEqual({ message: expect.stringContaining('headers are larger'), type: 'invalid_request_error', param: null, code: 'request_headers_too_large' });
  });

  it.each(CASES)('$name → $status $code', async (c) => {
    const headers: Record<string, string> = {};
    const auth = c.auth ?? 'key';
    if (auth === 'key') headers.authorization = `Bearer ${key}`;
    else if (auth === 'admin') headers.authorization = `Bearer ${svc.adminKey}`;
    else if (auth === 'revoked') headers.authorization = `Bearer ${revokedKey}`;
    else if (auth !== 'none') headers.authorization = auth;
    let body: string | Uint8Array | undefined;
    if (c.body !== undefined) {
      body = typeof c.body === 'string' || c.body instanceof Uint8Array ? c.body : JSON.stringify(c.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, c.headers);
    const res = await fetch(`${svc.url}${c.path ?? R}`, { method: c.method ?? 'POST', headers, body: body as BodyInit | undefined });
    const text = await res.text();
    expect(res.status, text).toBe(c.status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    // Labelled JSON, never to be sniffed as something else (an error quoting input included).
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const json = JSON.parse(text) as { error: Record<string, unknown> };
    expect(Object.keys(json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(json.error.code).toBe(c.code);
    expect(typeof json.error.message).toBe('string');
    expect((json.error.message as string).length).toBeGreaterThan(10);
    expect(typeof json.error.type).toBe('string');
    if (c.param !== undefined) expect(json.error.param).toBe(c.param);
    expect(text).not.toMatch(/at .*\.(ts|js):\d+/); // no stack traces
  });
});
