import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import type { Usage } from '../types.js';

export interface LlmSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export class LlmError extends Error {
  override name = 'LlmError';
}

/**
 * An OpenAI-compatible chat model (OpenAI, vLLM, Ollama, LM Studio) through the Vercel AI SDK.
 * One attempt per call within the timeout: the caller falls back to its own writer on failure.
 */
export class Llm {
  readonly #model;

  constructor(readonly settings: LlmSettings) {
    const provider = createOpenAI({ baseURL: settings.baseUrl.replace(/\/?$/, ''), apiKey: settings.apiKey || 'not-needed', name: 'upstream' });
    this.#model = provider.chat(settings.model);
  }

  /** `maxMs` shortens the configured timeout for a call that should be quick (a one-word classification). */
  async complete(system: string, prompt: string, signal?: AbortSignal, maxMs = Infinity): Promise<{ text: string; usage: Usage }> {
    const ms = Math.min(this.settings.timeoutMs, maxMs);
    const timeout = AbortSignal.timeout(ms);
    try {
      const result = await generateText({
        model: this.#model,
        system,
        prompt,
        maxRetries: 0,
        temperature: 0,
        abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      return { text: result.text, usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 } };
    } catch (err) {
      if (timeout.aborted) throw new LlmError(`it did not answer within ${ms} ms`);
      // The upstream's own words stay in the log: they can hold a masked key or links of its own.
      const status = (err as { statusCode?: unknown }).statusCode;
      throw new LlmError(typeof status === 'number' ? `it failed with HTTP ${status}` : 'it failed', { cause: err });
    }
  }
}

/** The configured upstream, or null when SVC_LLM_BASE_URL or SVC_LLM_MODEL is empty. */
export function llmFrom(settings: LlmSettings): Llm | null {
  return settings.baseUrl && settings.model ? new Llm(settings) : null;
}
