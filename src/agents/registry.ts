import { invalidRequest, isSvcError, notFound } from '../errors.js';
import type { Agent, ModelRef } from './types.js';

export interface ModelInfo {
  id: string;
  description: string;
}

/** The agents this server runs, addressed by model id (`agent` or `agent:variant`). */
export class AgentRegistry {
  readonly #agents = new Map<string, Agent>();

  /** Adds an agent; with `replace`, one already registered under the same id gives way. */
  register(agent: Agent, options: { replace?: boolean } = {}): this {
    if (this.#agents.has(agent.id) && !options.replace) throw new Error(`agent ${agent.id} registered twice`);
    this.#agents.set(agent.id, agent);
    return this;
  }

  /** Every addressable model id: each agent, then each of its variants. */
  models(): ModelInfo[] {
    const out: ModelInfo[] = [];
    for (const agent of this.#agents.values()) {
      out.push({ id: agent.id, description: agent.description });
      for (const v of agent.variants ?? []) out.push({ id: `${agent.id}:${v.name}`, description: v.description });
    }
    return out;
  }

  /**
   * " Did you mean 'svc-agent'?" for a model id that is a known one in another case or with spaces
   * around it ('SVC-AGENT', 'Svc-Agent '): ids are matched exactly, as OpenAI's are. Else "".
   */
  meant(id: string): string {
    const key = id.trim().toLowerCase();
    const found = this.models().find((m) => m.id.toLowerCase() === key);
    return found && found.id !== id ? ` Did you mean '${found.id}'?` : '';
  }

  model(id: string): ModelInfo | undefined {
    return this.models().find((m) => m.id === id);
  }

  /**
   * Parses a request, saying in the agent's own terms when its question is empty (a report agent
   * asks for an event address, not "a question").
   */
  parseFor<T>(body: unknown, parse: (body: unknown) => T): T {
    try {
      return parse(body);
    } catch (err) {
      const model = (body as { model?: unknown } | null)?.model;
      const agent = isSvcError(err) && err.code === 'empty_input' && typeof model === 'string' ? this.#agents.get(parseModelId(model).agent) : undefined;
      if (!agent?.emptyInput || !isSvcError(err)) throw err;
      throw invalidRequest(agent.emptyInput.code, `${err.message.replace(/ Send the question[^.]*\.$/, '')} ${agent.emptyInput.hint}`, err.param);
    }
  }

  /** Parses a model id and finds its agent; an unknown agent or variant is a 404 model_not_found. */
  resolve(modelId: string): { agent: Agent; ref: ModelRef } {
    const ref = parseModelId(modelId);
    const agent = this.#agents.get(ref.agent);
    const variantKnown = ref.variant === null || (agent?.variants ?? []).some((v) => v.name === ref.variant);
    if (!agent || !variantKnown) {
      throw notFound(
        'model_not_found',
        `The model '${modelId}' does not exist.${this.meant(modelId)} GET /v1/models lists the available models: ${this.models()
          .map((m) => m.id)
          .join(', ')}.`,
        'model',
      );
    }
    return { agent, ref };
  }
}

/** The one place a model id is split: `name[:variant]`. Whitespace and case are kept as sent. */
export function parseModelId(id: string): ModelRef {
  const colon = id.indexOf(':');
  if (colon === -1) return { id, agent: id, variant: null };
  return { id, agent: id.slice(0, colon), variant: id.slice(colon + 1) };
}
