import { quoteCaller } from '../citations.js';
import type { Answer, Citation } from '../types.js';
import { eventQuestion } from './event-questions.js';

// A question of several parts: a report follow-up split into the questions it asks, and answers
// given apart joined into one, each under its question.

/** Parts answered apart, one after the other under their own question, their sources numbered on. */
export function joinParts(parts: { question: string; text: string; citations: readonly Citation[]; error: string | null }[]): Answer {
  const citations: Citation[] = [];
  // A note two parts both end with ("Prices are the mid of…") is said once, after the last of them.
  const paragraphs = parts.map((p) => (p.error ? [] : p.text.trim().split(/\n{2,}/)));
  const lastWith = new Map<string, number>();
  paragraphs.forEach((ps, i) => ps.forEach((para) => !/\[\d+\]/.test(para) && lastWith.set(para, i)));
  // A source two parts both cite (the same filing page, the same event) keeps one number.
  const numbered = new Map<string, number>();
  const sections = parts.map((p, i) => {
    const orders = new Map<number, number>();
    for (const c of p.citations) {
      const key = `${c.name}\u0000${c.url}`;
      if (!numbered.has(key)) {
        numbered.set(key, citations.length + 1);
        citations.push({ ...c, order: citations.length + 1 });
      }
      orders.set(c.order, numbered.get(key)!);
    }
    const own = paragraphs[i]!.filter((para) => (lastWith.get(para) ?? i) === i).join('\n\n') || paragraphs[i]!.join('\n\n');
    const body = p.error ? `This part could not be answered: ${quoteCaller(p.error)}` : own.replace(/\[(\d+)\]/g, (m, n: string) => (orders.has(Number(n)) ? `[${orders.get(Number(n))}]` : m));
    // A heading reads as one: "### What are the Fed odds", not the lowercase of a chat message (an address stays as written).
    const heading = quoteCaller(p.question.replace(/\s+/g, ' ').trim()).replace(/^(?:and|also|plus|so|ok|okay),?\s+(?=\S)/i, '').replace(/^tl;?\s?dr\b/i, 'TL;DR');
    return `### ${/^https?:/i.test(heading) ? heading : heading.charAt(0).toUpperCase() + heading.slice(1)}\n\n${body}`;
  });
  return { text: `${sections.join('\n\n')}\n`, citations };
}

/**
 * The questions a follow-up about a report asks, when it asks several of different kinds ("58% =
 * what fractional odds? and what would 100 yes contracts cost me"); one question otherwise.
 */
export function questionsOfReport(asked: string): string[] {
  const pieces = asked
    .split(/(?<=\?)\s+|,?\s+(?:and|also|plus)\s+(?=(?:what|what's|whats|how|which|when|is|are|can|could|would|should|where)\b|(?:its|the|their) (?:spread|price|odds|volume|bid|ask|payout|cost|ev|close|closing time|rules|resolution source|open interest)\b)/i)
    .map((p) => p.trim())
    .filter((p) => /[a-z]/i.test(p));
  // Kinds of one family answer together ("should I buy 48-51 at the ask? what's my EV?" is one trade).
  // (The model against the market is a question of its own beside a trade's: "model vs market on 3.2, and its spread?".)
  const family = (kind: string | null) => (kind === 'model_favourite' || kind === 'gap' ? 'model' : kind && TRADING_KINDS.has(kind) ? 'trading' : kind);
  const kinds = pieces.map((p) => family(eventQuestion(p)));
  // Each a question of its own ("58% = what fractional odds?"), not a remark before one ("hike never resolved yes but it's priced 51%?? why …").
  // (A short piece asked as such, "bills ML in american odds?", is one too.)
  const asks = pieces.every((p) => (/[^?]\?$/.test(p) && p.split(/\s+/).length <= 8) || (p.split(/\s+/).length <= 8 && /^(?:the |its )?model\b|\bmodel vs\.? (?:the )?market\b/i.test(p)) || /\b(?:what|what's|whats|how|which|when|where|who|whos|who's)\b|^(?:and |also |plus |so |ok )?(?:is|are|can|could|would|should|do|does|did|will|convert|give|show|tell)\b|^(?:and |also |plus |so |ok )?(?:tl;?\s?dr|summary|summari[sz]e|recap|eli5|bottom line|quick take)\b/i.test(p) || /^(?:and |also |plus |so |ok )?(?:the |its )?(?:price|prices|odds|spread|bid|ask|volume|open interest|chances?|probability|payout|cost|ev|expected value|resolution source|source|rules|close|closing time)\s+(?:on|of|for|at)\b/i.test(p));
  return asks && pieces.length > 1 && pieces.length <= 3 && kinds.every(Boolean) && new Set(kinds).size === pieces.length ? pieces : [asked];
}

const TRADING_KINDS = new Set(['quote', 'best_trade', 'gap', 'arbitrage', 'model_favourite', 'outcome']);

/** One answer after another, as one: the second's sources numbered on after the first's; `lead` opens the second. */
export function followedBy(first: Answer, second: Answer, lead = ''): Answer {
  const offset = first.citations.length;
  const text = second.text.replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + offset}]`);
  return { text: `${first.text.trimEnd()}\n\n${lead}${text}`, citations: [...first.citations, ...second.citations.map((c) => ({ ...c, order: c.order + offset }))] };
}
