import { jsonWithText } from './json.js';
import { itemJson, responseJson } from './response-json.js';

type Json = Record<string, any>;

/**
 * The events that repeat the answer's whole text: their frames splice in the text escaped once
 * (wire/json.ts) instead of escaping it four times, and those carrying a whole Response or
 * message item are written from their known shape (wire/response-json.ts).
 */
const FULL_TEXT: Record<string, { text(e: Json): unknown; with(e: Json, placeholder: string): Json }> = {
  'response.output_text.done': { text: (e) => e.text, with: (e, p) => ({ ...e, text: p }) },
  'response.content_part.done': { text: (e) => e.part?.text, with: (e, p) => ({ ...e, part: { ...e.part, text: p } }) },
};
const WITH_RESPONSE = new Set(['response.created', 'response.in_progress', 'response.completed', 'response.failed']);

function eventJson(event: Json): string {
  if (WITH_RESPONSE.has(event.type)) {
    return `{"type":${JSON.stringify(event.type)},"sequence_number":${JSON.stringify(event.sequence_number)},"response":${responseJson(event.response)}}`;
  }
  if (event.type === 'response.output_item.done') {
    return `{"type":"response.output_item.done","sequence_number":${JSON.stringify(event.sequence_number)},"output_index":${JSON.stringify(event.output_index)},"item":${itemJson(event.item)}}`;
  }
  const place = FULL_TEXT[event.type];
  const text = place?.text(event);
  return place && typeof text === 'string' ? jsonWithText(text, (p) => place.with(event, p)) : JSON.stringify(event);
}

/** Server-sent-event framing. Responses streams name each event; chat streams never do. */
export const responsesFrame = (event: { type: string }): string => `event: ${event.type}\ndata: ${eventJson(event)}\n\n`;

export const chatFrame = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

export const CHAT_DONE = 'data: [DONE]\n\n';

/** An SSE comment: ignored by every client, keeps proxies from closing an idle stream. */
export const commentFrame = (text: string): string => `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
