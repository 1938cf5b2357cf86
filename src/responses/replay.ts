import { ResponsesEncoder } from '../wire/responses.js';
import type { StoredResponse, WireEvent } from './store.js';
import { transcriptEvents } from './transcript.js';

/** Rebuilds a stored response's stream events and final object from its transcript. */
export function rebuild(stored: StoredResponse, options: { events: boolean }): { events: WireEvent[]; response: ReturnType<ResponsesEncoder['response']> } {
  const encoder = new ResponsesEncoder(stored.params, { emit: options.events });
  const events: WireEvent[] = options.events ? encoder.begin() : [];
  for (const { event, at } of transcriptEvents(stored.transcript)) {
    const out = event ? encoder.push(event, at) : encoder.cancel(at);
    for (const e of out) events.push(e);
  }
  return { events, response: encoder.response() };
}
