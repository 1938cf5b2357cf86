import { jsonWithText } from './json.js';
import { withItemText, withOutputText } from './responses.js';

type Json = Record<string, any>;

/**
 * The events that repeat the answer's whole text, and where it sits in each: their frames
 * splice in the text escaped once (wire/json.ts) instead of escaping it four times.
 */
const FULL_TEXT: Record<string, { text(e: Json): unknown; with(e: Json, placeholder: string): Json }> = {
  'response.output_text.done': { text: (e) => e.text, with: (e, p) => ({ ...e, text: p }) },
  'response.content_part.done': { text: (e) => e.part?.text, with: (e, p) => ({ ...e, part: { ...e.part, text: p } }) },
  'response.output_item.done': { text: (e) => e.item?.content?.[0]?.text, with: (e, p) => ({ ...e, item: withItemText(e.item, p) }) },
  'response.completed': {
    text: (e) => e.response?.output?.[0]?.content?.[0]?.text,
    with: (e, p) => ({ ...e, response: withOutputText(e.response, p) }),
  },
};

function eventJson(event: Json): string {
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
