import { jsonWithText } from './json.js';

type Json = Record<string, any>;
type MessageItem = { content: Json[] };

const withText = (item: MessageItem, text: string): MessageItem => ({ ...item, content: [{ ...item.content[0], text }, ...item.content.slice(1)] });

/**
 * The events that repeat the answer's whole text, and where it sits in each: their frames
 * splice in the text escaped once (wire/json.ts) instead of escaping it four times.
 */
const FULL_TEXT: Record<string, { text(e: Json): unknown; with(e: Json, placeholder: string): Json }> = {
  'response.output_text.done': { text: (e) => e.text, with: (e, p) => ({ ...e, text: p }) },
  'response.content_part.done': { text: (e) => e.part?.text, with: (e, p) => ({ ...e, part: { ...e.part, text: p } }) },
  'response.output_item.done': { text: (e) => e.item?.content?.[0]?.text, with: (e, p) => ({ ...e, item: withText(e.item, p) }) },
  'response.completed': {
    text: (e) => e.response?.output?.[0]?.content?.[0]?.text,
    with: (e, p) => ({ ...e, response: { ...e.response, output: [withText(e.response.output[0], p), ...e.response.output.slice(1)] } }),
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
