import type OpenAI from 'openai';

/** Asks `model` each input in turn through /v1/responses, each continuing the one before (previous_response_id); returns every answer. */
export function responsesChain(client: OpenAI, model = 'svc-agent'): (...inputs: string[]) => Promise<string[]> {
  return async (...inputs) => {
    let previous: string | undefined;
    const texts: string[] = [];
    for (const input of inputs) {
      const r = await client.responses.create({ model, input, ...(previous ? { previous_response_id: previous } : {}) });
      previous = r.id;
      texts.push(r.output_text);
    }
    return texts;
  };
}
