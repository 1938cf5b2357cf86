/** Server-sent-event framing. Responses streams name each event; chat streams never do. */
export const responsesFrame = (event: { type: string }): string => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

export const chatFrame = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

export const CHAT_DONE = 'data: [DONE]\n\n';

/** An SSE comment: ignored by every client, keeps proxies from closing an idle stream. */
export const commentFrame = (text: string): string => `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
