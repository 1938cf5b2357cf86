import type { AgentRequest } from '../types.js';

/**
 * "Show me where it says that", "where in the 10-Q is EPS?", "where can I check this?", "point me to
 * the page": where the answer's figures are printed, that is the filing pages it cites, not a figure
 * called "says" nor the same table again.
 */
export const WHERE_SAID =
  /\bshow me where\b|\bwhere (?:does|did|do) (?:it|that|this|they|the (?:filing|10-?[kq]|report|statements?)) (?:say|show|state|list|report|put|give)|\bwhere (?:in|on) (?:the|its|their|a|apple's|microsoft's|alphabet's) (?:filings?|10-?[kq]|annual report|quarterly report|income statement|balance sheet|cash[- ]flow statement|statements?|pdf)\b|\bpoint me to\b|\bwhere (?:can|do|could|would) i (?:see|find|check|verify|read|look)\b|\bwhere (?:is|are|was|were) (?:that|this|it|those|these)(?: (?:figures?|numbers?|data))? (?:in|on|from)\b/i;

export const whereSaid = (asked: string) => WHERE_SAID.test(asked);

/** The conversation as it stood at the question before this one: its answer is the one whose pages are asked for. */
export function askedBefore(request: AgentRequest): AgentRequest {
  const earlier = request.messages.slice(0, -1);
  const at = earlier.findLastIndex((m) => m.role === 'user' && !whereSaid(m.content));
  return at >= 0 ? { ...request, messages: earlier.slice(0, at + 1) } : request;
}
