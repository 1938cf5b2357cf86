import type { Report } from '../../reports/store.js';
import type { Answer, Turn } from '../types.js';
import { KALSHI_URL, eventsAddressed, eventsOf, routedText } from './classify.js';
import { outcomesNamed } from './event-questions.js';
import { fromReport, readOf, seriesNames, threadEventsNamed } from './follow-gaps.js';
import { outcomeOf, readReport, rowLine } from './report-rows.js';
import { SYNONYMS } from '../markets-search/search.js';

// Follow-ups that carry the question before over to something else the thread holds: another
// reported event named alone ("whats the shutdown edge?", then "and payrolls?"), or "that one",
// the thing the answer before was about ("and that one?").

/** Words that leave a follow-up saying nothing but the event it names ("and payrolls?", "what about the payrolls one", "is payrolls any better?"). */
const FILLER = new Set(['and', 'ok', 'okay', 'so', 'but', 'now', 'then', 'what', 'whats', "what's", 'about', 'how', 'same', 'for', 'with', 'on', 'the', 'thing', 'question', 'one', 'market', 'markets', 'event', 'report', 'too', 'also', 'any', 'better', 'worse', 'instead', 'is', 'are', 'it', 'of', 'in', 'please', 'pls', 'plz', 'do', 'ditto', 'there', 'that', 'over']);

/** "That one", "this one" alone ("the other one" is another: see THE_OTHER in event-questions) ("and that one?", "what about that one"). */
export const THAT_ONE = /^\W*(?:(?:and|ok|okay|so|but|what about|how about|now)\W+)*(?:that|this|dat) one\W*$/i;

/** The words a report's event is named by in a question: its title's and series' words, and their usual short forms. */
function eventWords(r: Report): Set<string> {
  const own = (`${r.title} ${r.seriesTicker.replace(/^KX/, '')}`.toLowerCase().match(/[a-z]{3,}/g) ?? []);
  // (And the series ticker's own names: "ai" of AIMODEL, "boxoffice" said as "box office".)
  const words = new Set([...own, ...seriesNames(r)]);
  // ("nfp" of payrolls, "eth" of Ethereum: a short form whose synonyms include a word of the title.)
  for (const [short, longs] of Object.entries(SYNONYMS)) if (longs.some((l) => words.has(l))) words.add(short);
  return words;
}

const wordsOf = (text: string) => text.toLowerCase().match(/[a-z0-9$.%'’]+/g) ?? [];

/** A follow-up that only names one reported event of the thread: that report. */
function eventAlone(question: string, reports: readonly Report[]): Report | null {
  const q = routedText(question).trim();
  if (KALSHI_URL.test(q) || q.split(/\s+/).length > 8) return null;
  const named = threadEventsNamed(q, reports);
  if (named.length !== 1) return null;
  const own = eventWords(named[0]!);
  const words = wordsOf(q);
  // (Two words said for one run together, "box office", are each of the event's name.)
  const paired = (i: number) => own.has(`${words[i - 1] ?? ''}${words[i]}`) || own.has(`${words[i]}${words[i + 1] ?? ''}`);
  return words.every((w, i) => FILLER.has(w.replace(/[’']/g, "'")) || own.has(w.replace(/['’]s$/, '')) || paired(i)) ? named[0]! : null;
}

/** The report an answer was drawn from (its foot or header), of those the thread holds. */
function reportOfAnswer(answer: string, reports: readonly Report[]): Report | null {
  const [ticker] = eventsOf(answer);
  return (ticker && reports.find((r) => r.eventTicker.toUpperCase() === ticker.toUpperCase())) || null;
}

/**
 * The question before that asked something of its own (back past follow-ups that only pointed or
 * named an event, and addresses), with the report its answer came from.
 */
function questionBefore(history: readonly Turn[], reports: readonly Report[]): { question: string; report: Report } | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const t = history[i]!;
    if (t.role !== 'user') continue;
    const q = routedText(t.content).trim();
    // (Past an address pasted, whose answer was its report, and past follow-ups that only pointed.)
    if (KALSHI_URL.test(q) || eventsAddressed(q).length || THAT_ONE.test(q) || eventAlone(q, reports)) continue;
    const answer = history.slice(i + 1).find((x) => x.role === 'assistant')?.content ?? '';
    const report = reportOfAnswer(answer, reports);
    return report ? { question: q, report } : null;
  }
  return null;
}

/** A question with the words naming its own event taken out ("whats the shutdown edge?" is "whats the edge?"). */
function withoutEvent(question: string, r: Report): string {
  const own = eventWords(r);
  return question
    .replace(/[A-Za-z][A-Za-z'’]*/g, (w) => (own.has(w.toLowerCase().replace(/['’]s$/, '')) ? '' : w))
    .replace(/\s+([?!.,])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * "And payrolls?" after "whats the shutdown edge?" in a thread of both reports: the question before,
 * asked of the event named now. Null when the follow-up says more than an event, names none or the
 * one already discussed, or the question before named an outcome of its own event (those are
 * carried over outcome by outcome, see ellipsisAsked).
 */
export function eventCarried(history: readonly Turn[], question: string, reports: readonly Report[]): { report: Report; question: string } | null {
  if (reports.length < 2) return null;
  const target = eventAlone(question, reports);
  if (!target) return null;
  const before = questionBefore(history, reports);
  // (Not the event the answer before was on: "and payrolls?" right after payrolls' edge is no ellipsis.)
  const last = reportOfAnswer([...history].reverse().find((t) => t.role === 'assistant')?.content ?? '', reports);
  if (!before || (last ?? before.report) === target) return null;
  const { rows } = readReport(before.report.text);
  const named = outcomesNamed(before.question, readOf(before.report));
  if (named.length && named.length < rows.length) return null;
  const asked = withoutEvent(before.question, before.report);
  return asked.replace(/\W/g, '').length ? { report: target, question: asked } : null;
}

/**
 * "And that one?": what the answer before was about. The outcomes it named in bold, each with the
 * market's and the model's figures; after a whole report, the question before asked of that
 * report; otherwise, that "that one" is not clear, with what it could be. Null when the answer
 * before was drawn from no report of the thread.
 */
export function thatOne(history: readonly Turn[], question: string, reports: readonly Report[]): { answer: Answer } | { report: Report; question: string } | null {
  if (!THAT_ONE.test(routedText(question).trim())) return null;
  const last = [...history].reverse().find((t) => t.role === 'assistant')?.content ?? '';
  const report = reportOfAnswer(last, reports);
  if (!report) return null;
  const { rows } = readReport(report.text);
  // A whole report just given: the question before, of it.
  if (/^# /.test(last.trimStart())) {
    const before = questionBefore(history, reports);
    if (before && before.report !== report) {
      const asked = withoutEvent(before.question, before.report);
      if (asked.replace(/\W/g, '').length) return { report, question: asked };
    }
  }
  const bold = new Set([...last.matchAll(/\*\*(?:(?:YES|NO) on )?([^*\n]+)\*\*/g)].map((m) => m[1]!));
  const meant = rows.filter((r) => bold.has(outcomeOf(r.outcome).name));
  if (meant.length && meant.length < rows.length && !/^# /.test(last.trimStart())) {
    const lead = meant.length > 1 ? `The answer before named ${meant.length} outcomes; each, market against model:\n\n` : '';
    return { answer: fromReport(report, `${lead}${meant.map(rowLine).join('\n')}`) };
  }
  const title = report.title.replace(/[*_]/g, '');
  return { answer: fromReport(report, `“That one” is not clear from the answer before, which was about **${title}** as a whole. Name the outcome you mean; the report's outcomes, market against model:\n\n${rows.map(rowLine).join('\n')}`) };
}

/** "Why is that?", "why so?", "whys that": the answer before asked why, in words no rule of the report reads. */
const WHY_THAT = /^\W*(?:(?:and|ok|okay|so|but|hmm)\W+)?(?:why(?:'s| is|s)? (?:that|this)|why so)\W*$/i;

/**
 * "Why is that?" right after an answer about one outcome of a report ("The market's favourite is
 * **2 or fewer** …"): why that outcome is priced where it is, from the report. Null otherwise.
 */
export function whyThat(history: readonly Turn[], question: string, reports: readonly Report[]): { report: Report; question: string } | null {
  if (!WHY_THAT.test(routedText(question).trim())) return null;
  const last = [...history].reverse().find((t) => t.role === 'assistant')?.content ?? '';
  const report = reportOfAnswer(last, reports);
  if (!report || /^# /.test(last.trimStart())) return null;
  const names = new Set(readReport(report.text).rows.map((r) => outcomeOf(r.outcome).name));
  // (The first outcome the answer names in bold: the one it is about.)
  // (Not a trade the answer led with, "**NO on Hold**": why it is worth buying is the trade's own question.)
  const first = [...last.matchAll(/\*\*([^*\n]+)\*\*/g)].map((m) => m[1]!).find((n) => names.has(n) || /^(?:YES|NO) on /.test(n));
  if (!first || !names.has(first)) return null;
  return { report, question: `why is ${first} priced there?` };
}
