import type { ResponseParams } from '../../src/wire/responses.js';

/** What a Responses encoder echoes, with fixed ids and time: a stored request with every parameter left to its default. */
export const responseParams: ResponseParams = Object.freeze({
  id: 'resp_1',
  messageId: 'msg_1',
  model: 'svc-test',
  createdAt: 1_700_000_000,
  instructions: null,
  previousResponseId: null,
  metadata: {},
  store: true,
  temperature: null,
  topP: null,
  maxOutputTokens: null,
  user: null,
});
