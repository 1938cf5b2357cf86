import type { Answer, Citation } from '../agents/types.js';

export interface PlacedCitation extends Citation {
  /** JS string offsets of the `[n]` marker; a citation never referenced gets a zero-width span at the end. */
  start: number;
  end: number;
}

/** Places each citation on the first `[order]` marker in the final text, in `order` order. */
export function placeCitations(text: string, citations: readonly Citation[]): PlacedCitation[] {
  return [...citations]
    .sort((a, b) => a.order - b.order)
    .map((c) => {
      const marker = `[${c.order}]`;
      const at = text.indexOf(marker);
      const start = at === -1 ? text.length : at;
      return { order: c.order, name: c.name, url: c.url, start, end: at === -1 ? start : start + marker.length };
    });
}

export const bareCitation = (c: Citation): Citation => ({ order: c.order, name: c.name, url: c.url });

/** Responses API shape: OpenAI's url_citation plus our {order, name}. */
export function responsesAnnotation(c: PlacedCitation) {
  return { type: 'url_citation' as const, url: c.url, title: c.name, start_index: c.start, end_index: c.end, order: c.order, name: c.name };
}

/** Chat Completions shape: OpenAI's nested url_citation plus our {order, name, url}. */
export function chatAnnotation(c: PlacedCitation) {
  return {
    type: 'url_citation' as const,
    url_citation: { url: c.url, title: c.name, start_index: c.start, end_index: c.end },
    order: c.order,
    name: c.name,
    url: c.url,
  };
}

/** A whole answer's citations placed in its text, in both wire shapes. Shared across requests: frozen. */
export interface AnswerCitations {
  responses: ReturnType<typeof responsesAnnotation>[];
  chat: ReturnType<typeof chatAnnotation>[];
  bare: Citation[];
}

const placedAnswers = new WeakMap<Answer, AnswerCitations>();
const frozen = <T extends object>(items: T[]): T[] => Object.freeze(items.map((i) => Object.freeze(i))) as T[];

/** `placeCitations` for a whole answer, done once per answer object (a stored report is served again and again). */
export function answerCitations(answer: Answer): AnswerCitations {
  let placed = placedAnswers.get(answer);
  if (!placed) {
    const at = placeCitations(answer.text, answer.citations);
    placed = { responses: frozen(at.map(responsesAnnotation)), chat: frozen(at.map(chatAnnotation)), bare: frozen(at.map(bareCitation)) };
    placedAnswers.set(answer, placed);
  }
  return placed;
}
