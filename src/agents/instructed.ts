import { answerFirstInstructed, englishOnlyNote, formInstructed, languageInstructed, plainInstructed, summaryFirstInstructed, type FormInstructed } from './instructions.js';
import type { Agent, AgentEvent, AgentRequest, Answer, Citation } from './types.js';
import { LINES_FROM, WORD_LIMIT_WORDS, linesWithin, withinWords, wordLimitAsked } from './word-limit.js';
import { JSON_WORDS, PLAIN_WORDS, jsonAsked, jsonNote, plainTextAsked, withoutMarkdown } from './plain-text.js';
import { ONE_WORD, YES_NO_WORDS, isYesNoQuestion, yesNoAsked, yesNoSaid, yesNoThen } from './yes-no.js';
import { cited } from './citations.js';
import { formWordsOut } from './form-words.js';
import { FORM_WORDS, formAsked } from './sec/restate.js';

/**
 * Restates a whole answer in the form the instructions ask; null when it cannot (the answer is then
 * given as it is). `question` is the user's last turn.
 */
export type FormRestater = (answer: Answer, form: FormInstructed, question: string) => Answer | null | Promise<Answer | null>;

/** The form a question asks of its own answer, and what says an answer in it; null when it asks none the agent leaves to the wrapper. */
export type QuestionForm = (question: string, plain?: boolean) => { form: FormInstructed; restate: FormRestater } | null;

/** The requests callers sent, as opposed to those an agent makes of another (or of itself) to answer a part or an earlier turn. */
const ASKED = new WeakSet<AgentRequest>();

/**
 * Whether a request is the caller's own: the form its instructions ask is for its answer, not for
 * an earlier turn answered again (to restate it, to show its working) or a side of a question.
 */
export const askedByCaller = (request: AgentRequest) => ASKED.has(request);

/** `derived`, a copy of `original` with its turns read otherwise, asked by the caller if `original` was. */
export function askedAlike(derived: AgentRequest, original: AgentRequest): AgentRequest {
  if (ASKED.has(original)) ASKED.add(derived);
  return derived;
}

/**
 * An agent that follows what its instructions ask of an answer's form and language (see
 * instructions.ts): a language other than English gets the answer in English, opened by one line
 * saying so; a form is applied by `restate` to the whole answer (agents that apply it themselves,
 * as the SEC agent does, pass none); a summary asked first ("Start with a one-sentence summary.")
 * is `summarise`'s one sentence over the whole answer. Requests whose instructions ask none of
 * these run as they are.
 */
export function withInstructions(agent: Agent, restate?: FormRestater, summarise: FormRestater | undefined = restate, askedInQuestion?: QuestionForm): Agent {
  return {
    ...agent,
    run(asked) {
      let request = asked;
      ASKED.add(request);
      const language = languageInstructed(request.instructions);
      const form = restate ? formInstructed(request.instructions) : null;
      // "Start with a one-sentence summary": that sentence, then the whole answer (not with a form asked too: the form is the answer's shape).
      const lead = summarise && !formInstructed(request.instructions) && summaryFirstInstructed(request.instructions);
      // A form the question asks itself, of an answer the agent does not say in it ("odds of a hike? just the number").
      // (It wins over a form the instructions ask: "just the number" asked of odds under instructions asking bullets.)
      // (Plain words the instructions ask go with a shape the question asks: "Explain like I'm 12." and "… in 2 bullets".)
      const own = askedInQuestion ? askedInQuestion([...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '', plainInstructed(request.instructions)) : null;
      const question = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      // "Just yes or no" (in the instructions or the question): the verdict alone, whatever else is asked ("yes or no, in 3 bullets": the question is asked without its other form's words).
      const yesNo = Boolean(summarise) && (yesNoAsked(request.instructions) || yesNoAsked(question) || (ONE_WORD.test(`${request.instructions ?? ''}\n${question}`) && isYesNoQuestion(question)));
      // "In 20 words or fewer": whatever form the answer is said in, cut to that many words.
      const words = yesNo ? null : (wordLimitAsked(request.instructions) ?? wordLimitAsked(question));
      // "No markdown", "plain text": the answer's Markdown taken out, whatever its form. JSON asked: said not to be given.
      const plain = plainTextAsked(request.instructions) || plainTextAsked(question);
      const json = jsonAsked(request.instructions) || jsonAsked(question);
      if (!language && !form && !lead && !own && !yesNo && !words && !plain && !json) return agent.run(request);
      // (The question without the words asking the form, "… just yes or no", "… in 20 words or fewer": the agent reads no company or figure in them.)
      // ("… yes or no, then explain in one sentence": the form after the verdict is the wrapper's, so the question ends before it.)
      // (What only joined those words to the question goes with them: "…, no markdown please?" asks "…?"; see form-words.ts.)
      const bare = formWordsOut(yesNo && yesNoThen(question) ? question.slice(0, question.search(YES_NO_WORDS)) : question, [YES_NO_WORDS, ...(yesNo ? [ONE_WORD, ...FORM_WORDS] : []), WORD_LIMIT_WORDS, JSON_WORDS, PLAIN_WORDS]);
      if (bare !== question.trim() && /\p{L}{2}/u.test(bare)) {
        const at = request.messages.findLastIndex((m) => m.role === 'user');
        request = { ...request, messages: request.messages.map((m, i) => (i === at ? { ...m, content: bare } : m)) };
        ASKED.add(request);
      }
      const events = yesNo ? asYesOrNo(agent.run(request), request, summarise!, yesNoThen(request.instructions) || yesNoThen(question)) : own ? inForm(agent.run(request), request, own.form, own.restate) : form ? inForm(agent.run(request), request, form, restate!) : lead ? ledBy(agent.run(request), request, summarise, answerFirstInstructed(request.instructions)) : agent.run(request);
      // (Over the limit, an answer not said in a form yet is first said in one sentence, then cut to whole sentences, clauses or words.)
      // (A table asked with it, "in under 50 words, as a table": the table whole, said to be over the limit, rather than no table.)
      const tabled = (own?.form ?? form)?.form === 'table' || formAsked(question)?.form === 'table';
      const limited = words ? inForm(events, request, { form: 'sentence', one: false, words }, (answer, asked, q) => ((tabled ? tableOverWords(answer, words) : null) ?? inWords(answer, asked, q, words, form || own ? undefined : summarise))) : events;
      const unmarked = plain ? inPlainText(limited) : limited;
      const notes = [language ? englishOnlyNote(language) : '', json ? jsonNote : ''].filter(Boolean);
      return notes.length ? noted(unmarked, notes.join('\n')) : unmarked;
    },
  };
}

const ONE_SENTENCE: FormInstructed = { form: 'sentence', one: false };

/** A run held back until its end: its events, its answer (whole when it came at once), whether it failed, the question. */
interface HeldRun {
  held: AgentEvent[];
  text: string;
  citations: Citation[];
  /** (A whole answer known at once, a stored report, is handed over as it is: a restater may read more of it than its text.) */
  answer: Answer;
  failed: boolean;
  question: string;
}

/** Runs `events` to their end, passing progress and run meta on as they come and holding the rest. */
async function* heldRun(events: AsyncIterable<AgentEvent>, request: AgentRequest): AsyncGenerator<AgentEvent, HeldRun> {
  const held: AgentEvent[] = [];
  let text = '';
  const citations: Citation[] = [];
  let whole: Answer | null = null;
  let parts = 0;
  for await (const e of events) {
    if (e.type === 'meta' || e.type === 'progress') {
      yield e;
      continue;
    }
    held.push(e);
    if (e.type === 'text') (text += e.delta), parts++;
    else if (e.type === 'citation') citations.push(e.citation);
    else if (e.type === 'answer') (text += e.answer.text), citations.push(...e.answer.citations), (whole = e.answer), parts++;
  }
  return {
    held,
    text,
    citations,
    answer: parts === 1 && whole ? whole : { text, citations },
    failed: held.some((e) => e.type === 'failed' || (e.type === 'done' && e.incomplete)),
    question: [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '',
  };
}

/**
 * The run's answer under a first line that sums it up, "In short: …", said by `summarise` as one
 * sentence, its markers numbered as the answer's own sources (the answer itself unchanged). An
 * answer that is one sentence already, or that cannot be summed up (help, a refusal), is given as
 * it came.
 */
async function* ledBy(events: AsyncIterable<AgentEvent>, request: AgentRequest, summarise: FormRestater, answerFirst = false): AsyncGenerator<AgentEvent> {
  const { held, text, citations, answer, failed, question } = yield* heldRun(events, request);
  // ("Start with the answer" of an answer that opens with its cited answer, "**Apple Inc. (AAPL)**: net income … was …[1].": as it is.)
  const first = text.trim().split('\n')[0]!;
  if (answerFirst && /\[\d+\]/.test(first) && !/^(?:[#|>]|[-*•]\s|\d+\.\s)/.test(first) && !/:\s*$/.test(first)) return yield* held;
  // (An answer with no sources is a fixed text, help or a refusal, said whole.)
  const said = failed || !text.trim() || !citations.length ? null : await summarise(answer, ONE_SENTENCE, question);
  // Its first paragraph (the notes under it stay with the answer), its sources renumbered as the answer numbers them.
  const line = said?.text.split(/\n\s*\n/)[0]!.trim().replace(/\[(\d+)\]/g, (m, n: string) => {
    const source = said.citations.find((c) => c.order === Number(n));
    const own = source && citations.find((c) => c.url === source.url && c.name === source.name);
    return own ? `[${own.order}]` : '';
  });
  if (!line || line.includes('\n') || text.trim().startsWith(line)) return yield* held;
  yield { type: 'text', delta: `In short: ${line.replace(/ +([.,;])/g, '$1')}\n\n` };
  yield* held;
}

/**
 * A table asked within a word limit: as it is when it fits; over it, the table whole under a note
 * saying so ("_A table was asked: it is given whole, over the 50 words asked._"), since a table cut
 * to some of its rows would read as all there is, and one cut to prose is no table. Null (the
 * usual cut) for an answer with no table.
 */
function tableOverWords(answer: Answer, words: number): Answer | null {
  if (!/^\s*\|/m.test(answer.text) || !withinWords(answer, words)) return null;
  return { text: `${answer.text.trimEnd()}\n\n_A table was asked: it is given whole, over the ${words} words asked._\n`, citations: answer.citations };
}

/** An answer in at most `words` words: as it is when it fits; else said in one sentence by `summarise` (when given), then cut (word-limit.ts). */
async function inWords(answer: Answer, asked: FormInstructed, question: string, words: number, summarise?: FormRestater): Promise<Answer | null> {
  if (!withinWords(answer, words)) return null;
  // (A long limit, "under 150 words", keeps the answer's own first lines when they say something cited.)
  const lines = words >= LINES_FROM ? linesWithin(answer, words) : null;
  if (lines) return lines;
  const one = summarise && answer.citations.length ? await summarise(answer, asked, question) : null;
  return (one && withinWords(one, words)) ?? one ?? withinWords(answer, words);
}

/**
 * The run's answer as the bare verdict asked ("Yes [1]."), or, when it gives none, said so with
 * the answer in one sentence (see yes-no.ts); answers with no sources (help, a refusal) as they came.
 */
async function* asYesOrNo(events: AsyncIterable<AgentEvent>, request: AgentRequest, summarise: FormRestater, then: boolean): AsyncGenerator<AgentEvent> {
  const { held, text, answer, failed, question } = yield* heldRun(events, request);
  if (failed || !text.trim() || !answer.citations.length) return yield* held;
  const verdictFirst = /^\W*(?:yes|no)\b(?![-'’])/i.test(text.trimStart()) || /^(?:[-*•]\s+)?\*\*(?:yes|no)\*\*[:.,]/im.test(text);
  const sentence = verdictFirst ? null : await summarise(answer, ONE_SENTENCE, question);
  const said = yesNoSaid(answer, request.messages.filter((m) => m.role === 'user').map((m) => m.content).slice(-4), sentence);
  if (!said) return yield* held;
  // "Yes or no, then one sentence why": the verdict, then the answer in one sentence, its markers numbered as the answer's sources.
  const why = then && /^(?:Yes|No) (?:\[\d+\])?\.\n$/.test(said.text) ? await summarise(answer, ONE_SENTENCE, question) : null;
  const reason = why?.text.split(/\n\s*\n/)[0]!.trim().replace(/\[(\d+)\]/g, (m, n: string) => {
    const source = why.citations.find((c) => c.order === Number(n));
    const own = source && answer.citations.find((c) => c.url === source.url && c.name === source.name);
    return own ? `[${own.order}]` : '';
  });
  if (reason && !reason.includes('\n')) {
    const verdict = said.text.startsWith('Yes') ? 'Yes' : 'No';
    const both = cited(`${verdict}. ${reason.replace(/^(?:yes|no)\b[,:;.]?\s*/i, '').replace(/^./, (c) => c.toUpperCase())}\n`, answer.citations);
    yield { type: 'text', delta: both.text };
    for (const citation of both.citations) yield { type: 'citation', citation };
    return yield held.at(-1)!;
  }
  yield { type: 'text', delta: said.text };
  for (const citation of said.citations) yield { type: 'citation', citation };
  yield held.at(-1)!;
}

/** The run's text without its Markdown (plain-text.ts), its other events as they come. */
async function* inPlainText(events: AsyncIterable<AgentEvent>): AsyncGenerator<AgentEvent> {
  let text = '';
  let last: AgentEvent | null = null;
  const after: AgentEvent[] = [];
  for await (const e of events) {
    if (e.type === 'text') text += e.delta;
    else if (e.type === 'answer') (text += e.answer.text), after.push(...e.answer.citations.map((citation) => ({ type: 'citation' as const, citation })));
    else if (e.type === 'meta' || e.type === 'progress') yield e;
    else if (e.type === 'done' || e.type === 'failed') last = e;
    else after.push(e);
  }
  if (text) yield { type: 'text', delta: withoutMarkdown(text) };
  yield* after;
  if (last) yield last;
}

/**
 * The run's events with `note` as a line of its own before its answer. A run that fails before
 * answering is left as it is (its error keeps its HTTP status).
 */
async function* noted(events: AsyncIterable<AgentEvent>, note: string): AsyncGenerator<AgentEvent> {
  let said = false;
  for await (const e of events) {
    if (!said && (e.type === 'text' || e.type === 'answer')) {
      said = true;
      yield { type: 'text', delta: `${note}\n\n` };
    }
    yield e;
  }
}

/**
 * The run's answer in the form asked, when `restate` can say it so; otherwise its events as they
 * came. Progress and run meta go out as they come; the answer waits for the run's end.
 */
async function* inForm(events: AsyncIterable<AgentEvent>, request: AgentRequest, form: FormInstructed, restate: FormRestater): AsyncGenerator<AgentEvent> {
  const { held, text, answer, failed, question } = yield* heldRun(events, request);
  const shaped = failed || !text.trim() ? null : await restate(answer, form, question);
  if (!shaped) return yield* held;
  yield { type: 'text', delta: shaped.text.endsWith('\n') ? shaped.text : `${shaped.text}\n` };
  for (const citation of shaped.citations) yield { type: 'citation', citation };
  // (Usage is counted again by the runtime, of the text sent.)
  yield held.at(-1)!;
}
