import { formInstructed, type FormInstructed } from '../instructions.js';
import { WORD_LIMIT_WORDS } from '../word-limit.js';
import type { Answer } from '../types.js';
import { formAsked } from '../sec/restate.js';
import { periodsInForm } from '../periods-form.js';
import { answerFromReport, type ReportRead } from './event-questions.js';
import { oddsInForm } from './instructed-odds.js';
import { cited } from './report-rows.js';
import { notesUnder, periodsInOneSentence, plainClaims, restateAsked, restated } from './restate.js';

/**
 * The router's answers (and the search's and the report agent's) in a form the instructions ask:
 * a stored report by its own brief forms, any other answer restated from its own text as "explain
 * that simply" or "in one sentence" restates it. Null, the answer as it is, when the question
 * itself asks a form (that one wins), the answer is already in the form, or this form is not one
 * the answer can be said in (just the number or a table of anything but outcomes' odds: the SEC
 * agent says its figures so itself; a whole report keeps its own tables).
 */
export function restatedAsInstructed(answer: Answer, asked: FormInstructed, question: string): Answer | null {
  if (restateAsked(question) || formAsked(question)) return null;
  const body = bodyOf(answer.text);
  // (An answer with no sources is a fixed text, help or a refusal, that says what it must whole.)
  if (!body.length || !answer.citations.length) return null;
  // A list asked as a number of bullets: its first that many items (none: the list as it is).
  // (In plain words, "explain like I'm 12, in 2 bullets": its claims in plain words, below, when it has any.)
  const fewer = asked.form === 'bullets' && asked.count && !reportOf(answer) && !(asked.plain && plainClaims(answer.text).length) ? listInBullets(answer, asked.count) : null;
  if (fewer) return fewer;
  if (already(body, asked) && !(asked.plain && asked.form === 'bullets' && !reportOf(answer) && body.some((l) => l.includes('**')))) return null;
  const report = reportOf(answer);
  if (report) {
    // (Bullets in plain words, "explain like I'm 12, in 2 bullets": its plain-words summary, a sentence a bullet.)
    const brief = asked.form === 'sentence' || asked.form === 'line' ? 'in one sentence' : asked.form === 'simple' || (asked.form === 'bullets' && asked.plain) ? 'in plain words' : asked.form === 'bullets' ? 'key points' : null;
    const said = brief ? answerFromReport(brief, report, []) : null;
    if (!said?.text.trim()) return null;
    // Bullet points: each sentence of its key points a line of its own, the note under them kept.
    return asked.form === 'bullets' ? cited(said.text.replace(/^[^\n]+/, (lead) => lead.split(/(?<=[.!?](?:\s*\[\d+\])*)\s+(?=[A-Z*“"])/).slice(0, asked.count).map((x) => `- ${x}`).join('\n')), said.citations) : said;
  }
  // A table of figures or a company's figures come from the filings agents, who say them in any form they can themselves,
  // but for a table of periods in one sentence (or line): its first figures from the first period to the latest.
  if (body.some((l) => l.startsWith('|')) || /^\*\*[^*]+\([A-Z.-]{1,6}\)\*\*:/.test(body[0]!)) return periodsInstructed(answer, asked, question);
  switch (asked.form) {
    case 'sentence':
    case 'line':
      return restated(answer, 'sentence', asked.words);
    case 'simple':
      return restated(answer, 'simple');
    case 'bullets': {
      const claims = plainClaims(answer.text);
      return claims.length ? cited(`${claims.slice(0, asked.count ?? 6).map((c) => `- ${c}`).join('\n')}\n${notesUnder(answer.text)}`, answer.citations) : null;
    }
    // Just the number, a table: the odds of Kalshi outcomes have both (the price asked, a row an outcome).
    default:
      return oddsInForm(answer, asked);
  }
}

/**
 * A filings agent's table of periods in the one sentence (or line) the instructions ask, which it
 * does not say so itself; null for any other answer or form, or a form the question asks itself.
 */
export function periodsInstructed(answer: Answer, asked: FormInstructed, question: string): Answer | null {
  if (restateAsked(question) || formAsked(question)) return null;
  // Just the number, plain words, bullet points: the latest period's figure, a few short sentences, a period a line.
  if (asked.form !== 'sentence' && asked.form !== 'line') return periodsInForm(answer, asked);
  return periodsInOneSentence(answer);
}

/**
 * Just the number, plain words, bullet points, one sentence or one line asked in the question itself
 * ("Apple revenue for the last 4 quarters, just the number", "Microsoft revenue by quarter in one
 * sentence"), of an answer that is a table of periods: said so, as
 * instructions asking it would have it (the filings agents say single figures in any form
 * themselves, but keep a table of periods a table).
 */
export function periodsFormAsked(question: string, plainAsked = false): { form: FormInstructed; restate: (answer: Answer) => Answer | null } | null {
  const asked = formAsked(question);
  // One sentence or line with the figures asked ("Microsoft revenue by quarter in one sentence", "…, tl;dr"): its first figures from the first period to the latest, as instructions asking it have it.
  // (Asked alone of the table before, "tl;dr", the filings agents say its change and its highest and lowest periods themselves.)
  if (asked?.rest && (asked.form === 'sentence' || asked.form === 'line' || asked.form === 'tweet')) return { form: { form: asked.form === 'line' ? 'line' : 'sentence', one: false }, restate: (answer) => periodsInOneSentence(answer) };
  if (!asked || (asked.form !== 'number' && asked.form !== 'simple' && asked.form !== 'bullets')) return null;
  const form: FormInstructed = { form: asked.form, one: asked.one, ...(asked.count ? { count: asked.count } : {}), ...(asked.plain || (plainAsked && asked.form === 'bullets') ? { plain: true } : {}) };
  return { form, restate: (answer) => periodsInForm(answer, form) };
}

/** A listing of events with their prices ("1. **Fed decision …** (KXFEDDECISION-26DEC, Economics) [1]: …"), or an event's live prices given alone. */
const LISTED = /^(?:\d+\.\s+\*\*.+?\*\*\s+\([^)]*\)\s*(?:\[\d+\])+:|On its live prices\b)/m;

/**
 * One sentence or line, plain words or bullet points (or bullets in plain words) asked in a question
 * that asks something else too ("What is Kalshi's Fed decision market saying? Explain like I'm 12,
 * in 2 bullets"), of the router's answers that say no form themselves (a listing of events' odds,
 * a whole stored report): said so, as instructions asking it would have them. Read
 * as instructions are (formInstructed), so "headline CPI" or "a summary of" ask no form; a
 * word limit alone is word-limit.ts's. Null when the question asks none of these, or only that
 * the answer before be restated (the router does that itself).
 */
export function shapeFormAsked(question: string, plainAsked = false): { form: FormInstructed; restate: (answer: Answer) => Answer | null } | null {
  const read = formInstructed(question.replace(WORD_LIMIT_WORDS, ' '));
  if (!read || (read.form !== 'sentence' && read.form !== 'line' && read.form !== 'simple' && read.form !== 'bullets') || !formAsked(question)?.rest) return null;
  const { words: _words, ...read2 } = read;
  const form: FormInstructed = plainAsked && read.form !== 'simple' ? { ...read2, plain: true } : read2;
  // (A company's figures come from the filings agents, who say them in the form asked themselves.)
  // Only a whole stored report or a listing of events' prices: the router's other answers (a report's
  // follow-ups, "tl;dr", "in two sentences for a lay reader") read the form themselves, and a
  // company's figures come from the filings agents, who say them in the form asked.
  const shapeless = (answer: Answer) => Boolean(reportOf(answer)) || LISTED.test(answer.text);
  return { form, restate: (answer) => (shapeless(answer) ? restatedAsInstructed(answer, form, '') : null) };
}

/**
 * Just the number or a table asked in the question itself ("what are the odds of a hike? just the
 * number", "odds of each outcome as a table"): the router's odds answers said so, as instructions
 * asking it would have them; the other forms the router applies itself, and the filings agents say
 * their figures in any form.
 */
export function oddsFormAsked(question: string): { form: FormInstructed; restate: (answer: Answer) => Answer | null } | null {
  const asked = formAsked(question);
  if (!asked || (asked.form !== 'number' && asked.form !== 'table') || !asked.rest) return null;
  const form: FormInstructed = { form: asked.form, one: asked.one };
  return { form, restate: (answer) => (!answer.citations.length ? null : (form.form === 'table' ? outcomesTable(answer) : null) ?? oddsInForm(answer, form)) };
}

/**
 * A form asked in the question of a whole stored report ("<event address> tl;dr", "… in 3 bullets",
 * "… explain like I'm 12"): the report said in it, as instructions asking it would have it (its own
 * one-sentence or plain-words summary, its key points a line each). Any other answer is left as it is.
 */
export function reportFormAsked(question: string, plainAsked = false): { form: FormInstructed; restate: (answer: Answer) => Answer | null } | null {
  const asked = formAsked(question);
  const as: FormInstructed['form'] | null = !asked ? null : asked.form === 'bullets' || asked.form === 'simple' || asked.form === 'line' ? asked.form : asked.form === 'sentence' || asked.form === 'tweet' || asked.form === 'headline' ? 'sentence' : null;
  if (!as) return null;
  const form: FormInstructed = { form: as, one: false, ...(asked!.count ? { count: asked!.count } : {}), ...(asked!.plain || (plainAsked && as !== 'simple') ? { plain: true } : {}) };
  return { form, restate: (answer) => (reportOf(answer) ? restatedAsInstructed(answer, form, '') : null) };
}

/** A whole report asked as a table ("odds of each outcome? as a table"): its outcome table alone, with the report's as-of line. */
function outcomesTable(answer: Answer): Answer | null {
  const section = answer.text.split(/\n(?=## )/).find((part) => part.startsWith('## Outcomes: model vs market'));
  const table = section?.split('\n').filter((l) => l.startsWith('|'));
  if (!table?.length) return null;
  const title = /^# (.+)$/m.exec(answer.text)?.[1];
  const asOf = /\*\*As of:\*\* ([^\n]+?)\s*$/m.exec(answer.text)?.[1];
  const note = title ? `\n\n_From the report on **${title.replace(/[*_]/g, '')}**${asOf ? `, as of ${asOf}` : ''}._` : '';
  return cited(`${table.join('\n')}${note}\n`, answer.citations);
}

const LIST_ITEM = /^(?:[-*•]|\d+\.)\s+/;

/**
 * A list answer in the number of bullets asked: the line leading into it, its first that many
 * items as the answer ordered them, then a line naming those left out ("_2 more not shown: Volume
 * surge, Cut 25bps; Could flip the outcome._"), the notes under it kept; its citations those the
 * items kept cite. Null when the answer is no list longer than that.
 */
function listInBullets(answer: Answer, count: number): Answer | null {
  const lines = answer.text.split('\n');
  const items = lines.flatMap((l, i) => (LIST_ITEM.test(l.trim()) ? [i] : []));
  if (items.length <= count) return null;
  const left = items.slice(count).map((i) => /^(?:[-*•]|\d+\.)\s+\*\*(.+?):?\*\*/.exec(lines[i]!.trim())?.[1]?.replace(/:$/, ''));
  const named = left.every(Boolean) ? `: ${left.join('; ')}` : '';
  const kept = lines.filter((_, i) => !items.slice(count).includes(i));
  const after = kept.indexOf(lines[items[count - 1]!]!) + 1;
  kept.splice(after, 0, `\n_${left.length} more not shown${named}._`);
  return cited(`${kept.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`, answer.citations);
}

/** An answer's lines that say something: not blank, not the italic note on the data under it. */
const bodyOf = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l && !/^_[^_].*_$/.test(l));

/** Whether an answer is in the form asked already (a filings answer said in it by its own agent). */
function already(body: string[], asked: FormInstructed): boolean {
  switch (asked.form) {
    case 'sentence':
    case 'line':
      return body.length === 1 && !/^(?:[|#]|[-*•]\s|\d+\.\s)/.test(body[0]!) && sentences(body[0]!) === 1;
    case 'bullets':
      return body.every((l) => /^[-*•]\s/.test(l));
    case 'simple':
      return !body.some((l) => /^(?:[|#>]|[-*]\s|\d+\.\s)/.test(l) || l.includes('**'));
    default:
      return false;
  }
}

/** How many sentences a line says ("Apple Inc.", "vs." and "e.g." end none). */
const sentences = (line: string) => line.split(/(?<!\b(?:Inc|Corp|Co|Ltd|vs|No|e\.g|i\.e|approx|est))[.!?](?:\s*(?:\[\d+\])+)?\s+(?=[A-Z“"(*])/).length;

/** A stored report given whole (its title and time come with it), which has brief forms of its own. */
function reportOf(answer: Answer): ReportRead | null {
  const r = answer as Partial<ReportRead> & Answer;
  return typeof r.title === 'string' && typeof r.asOf === 'string' && /^#\s/.test(answer.text.trimStart()) ? (r as ReportRead) : null;
}
