import type { Agent, AgentEvent, AgentRequest, Citation } from '../types.js';
import { ground } from './grounding.js';
import { LlmError, type Llm } from './llm.js';

const SYSTEM = [
  'You are svc, a financial research assistant answering in Markdown.',
  'Rewrite the draft answer so it reads well for the question asked, keeping every fact, figure, period and unit exactly as the draft states them.',
  'Use only the draft and the numbered sources: add no facts, numbers or links of your own.',
  'Cite with the sources\' numbers in square brackets, like [1]; every figure keeps its citation.',
  'Keep tables as tables. Do not list the sources at the end; they are shown separately.',
].join(' ');

function prompt(question: string, draft: string, sources: readonly Citation[]): string {
  return [`Question: ${question}`, '', 'Draft answer (its facts and citations are correct):', draft, '', 'Sources:', ...sources.map((s) => `[${s.order}] ${s.name} <${s.url}>`)].join('\n');
}

/** A text without its citation markers and links, whose numbers are not figures. */
const withoutMarkers = (text: string) => text.replace(/\[\d+(?:\s*[,;]\s*\d+)*\]/g, ' ').replace(/\bhttps?:\/\/\S+/g, ' ');
/** A number as written, without grouping: 85,777 → 85777. */
const ungrouped = (n: string) => n.replace(/,(?=\d{3})/g, '').replace(/,+$/, '');

/** The numbers of a text, markers and links left out. */
function numbersIn(text: string): string[] {
  return [...withoutMarkers(text).matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => ungrouped(m[0]));
}

const SCALES: Record<string, string> = { thousand: 'thousand', k: 'thousand', million: 'million', mn: 'million', m: 'million', billion: 'billion', bn: 'billion', b: 'billion', trillion: 'trillion', tn: 'trillion', '%': '%', percent: '%', 'per cent': '%', bps: 'bps', 'basis points': 'bps' };

/** A number as written with what gives it its size and sign: "-$4,980 million" is negative, money, 4980, million. */
interface Figure {
  /** Said as a fall ("-", "–", "(…)", "a decline of"), as a rise ("+", "up", "growth of"), or neither. */
  sign: 'negative' | 'positive' | null;
  money: boolean;
  n: string;
  scale: string | null;
}

/** Words that make the figure after them a fall, or a rise ("a decline of 5.1%", "up 5.1%"). */
const FALL = /\b(?:declin(?:e|ed|ing)|decreas(?:e|ed|ing)|down|fell|fall(?:ing|en)?|drop(?:ped|ping)?|lower|shr[ai]nk(?:ing)?|shrunk|contract(?:ed|ion)|loss(?:es)?|lost|negative|minus)\s+(?:of\s+|by\s+)?(?:about\s+|roughly\s+|some\s+|nearly\s+|almost\s+)?$/i;
const RISE = /\b(?:increas(?:e|ed|ing)|grow(?:th|ing)?|grew|ris(?:e|ing|en)|rose|up|gain(?:ed|ing)?|higher|positive|plus)\s+(?:of\s+|by\s+)?(?:about\s+|roughly\s+|some\s+|nearly\s+|almost\s+)?$/i;

function figuresIn(text: string): Figure[] {
  const plain = withoutMarkers(text);
  const pattern = /([-−–+]\s*)?(\()?(\$)?(\d[\d,]*(?:\.\d+)?)(?:\s*(thousand|million|billion|trillion|basis points|per cent|percent|bps|bn|mn|tn|%|k|m|b)\b|\s*(%))?(\))?/gi;
  return [...plain.matchAll(pattern)].map((m) => {
    const before = plain.slice(Math.max(0, m.index! - 40), m.index!);
    const mark = m[1]?.trim();
    // Accounting's brackets are for amounts: "(6.2%)" beside a rise is an aside, "($4,606 million)" a fall.
    const parenthesised = Boolean(m[2] && m[7] && m[3]);
    const sign = mark === '+' ? 'positive' : mark || parenthesised || FALL.test(before) ? 'negative' : RISE.test(before) ? 'positive' : null;
    return { sign, money: Boolean(m[3]), n: ungrouped(m[4]!), scale: SCALES[(m[5] ?? m[6] ?? '').toLowerCase()] ?? null };
  });
}

/** A number written in words with its size ("ninety-nine billion", "twelve percent"): no check could compare it with the draft's. */
const NUMBER_IN_WORDS =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)(?:[\s-]+(?:and|one|two|three|four|five|six|seven|eight|nine|hundred))*\s+(?:thousand|million|billion|trillion|percent|per\s+cent|dollars|basis\s+points)\b/i;

/** The amounts the draft states as its answer (in bold, "**$95,359 million**"): a rewrite keeps each, whatever else it says. */
const headline = (draft: string) =>
  draft
    .split('**')
    .filter((part, i) => i % 2 === 1 && /\d/.test(part) && /\$|%|\b(?:thousand|million|billion|trillion)\b/i.test(part))
    .flatMap(numbersIn);

/** Periods a sentence names, in one form: "fiscal Q2 2025", "Q2 FY2025" → q2-2025; "fiscal year 2024", "FY2024" → fy-2024; dates as written. */
function periodsIn(sentence: string): Set<string> {
  const out = new Set<string>();
  const s = sentence.toLowerCase();
  for (const m of s.matchAll(/\bq([1-4])\s*(?:of\s+)?(?:fiscal\s+|fy\s*'?)?((?:19|20)\d\d)\b/g)) out.add(`q${m[1]}-${m[2]}`);
  for (const m of s.matchAll(/\b((?:19|20)\d\d)\s*q([1-4])\b/g)) out.add(`q${m[2]}-${m[1]}`);
  for (const m of s.matchAll(/\b(?:fiscal\s+year|fiscal|fy)\s*'?((?:19|20)\d\d)\b(?!\s*q[1-4])/g)) if (!/q[1-4]\s*(?:of\s+)?$/.test(s.slice(0, m.index))) out.add(`fy-${m[1]}`);
  for (const m of s.matchAll(/\b((?:19|20)\d\d-\d\d-\d\d)\b/g)) out.add(m[1]!);
  return out;
}

const sentences = (text: string) => withoutMarkers(text).split(/(?<=[.!?])\s+|\n+/);

/**
 * A headline figure the rewrite puts in a sentence about another period ("Q2 2024 revenue was
 * $95,359 million" when that is Q2 2025's): each bold amount of the draft goes with the periods
 * its own sentence names, and a rewrite sentence holding it and naming periods must name one of those.
 */
function movedPeriod(text: string, draft: string): string | null {
  const allowed = new Map<string, Set<string>>();
  const bold = new Set(headline(draft));
  for (const sentence of sentences(draft)) {
    const periods = periodsIn(sentence);
    for (const n of numbersIn(sentence)) if (bold.has(n) && periods.size) allowed.set(n, new Set([...(allowed.get(n) ?? []), ...periods]));
  }
  for (const sentence of sentences(text)) {
    const periods = periodsIn(sentence);
    if (!periods.size) continue;
    for (const n of numbersIn(sentence)) {
      const own = allowed.get(n);
      if (own && ![...periods].some((p) => own.has(p))) return `it gave ${n} for another period than the draft's (${[...periods].join(', ')})`;
    }
  }
  return null;
}

/**
 * Why the model's rewrite could not be used, or null when it can. Every number it writes must be
 * one the draft or the question has, with the same size word or percent sign (and money the
 * draft sizes keeps its size), never turned from a rise into a fall or back, and none written in
 * words; the draft's answer figures are all kept. A rewrite may rephrase, never change, drop or add a figure.
 */
function unusable(text: string, draft: string, question: string, sources: readonly Citation[], cited: number): string | null {
  if (!text.trim()) return 'it returned an empty answer';
  if (sources.length && !cited) return 'its answer cited none of the sources';
  const known = new Set([...numbersIn(draft), ...numbersIn(question)]);
  const written = numbersIn(text);
  const invented = [...new Set(written.filter((n) => !known.has(n)))];
  if (invented.length) return `it wrote figures the sources do not have: ${invented.slice(0, 3).join(', ')}`;
  const words = NUMBER_IN_WORDS.exec(withoutMarkers(text));
  if (words && !draft.toLowerCase().includes(words[0].toLowerCase())) return `it wrote a figure in words: ${words[0]}`;
  const dropped = [...new Set(headline(draft).filter((n) => !written.includes(n)))];
  if (dropped.length) return `it left out the answer's figures: ${dropped.slice(0, 3).join(', ')}`;
  const moved = movedPeriod(text, draft);
  if (moved) return moved;
  const given = [...figuresIn(draft), ...figuresIn(question)];
  for (const f of figuresIn(text)) {
    const same = given.filter((g) => g.n === f.n);
    if (f.scale && !same.some((g) => g.scale === f.scale)) return `it changed the size of a figure: ${f.n} ${f.scale}`;
    if (f.money && !f.scale && same.length && same.every((g) => g.scale)) return `it dropped the size of a figure: $${f.n}`;
    if (f.sign === 'negative' && !same.some((g) => g.sign === 'negative')) return `it made a figure negative: -${f.n}`;
    if (f.sign === 'positive' && same.length && same.every((g) => g.sign === 'negative')) return `it made a negative figure positive: +${f.n}`;
  }
  return null;
}

/** The draft's data line ("_Data: demo snapshot …_") says what the figures are; a rewrite keeps it. */
const DATA_LINE = /^_Data: .*_$/m;

export async function rewrite(llm: Llm, question: string, draft: { text: string; citations: Citation[] }, signal?: AbortSignal) {
  try {
    const { text, usage } = await llm.complete(SYSTEM, prompt(question, draft.text, draft.citations), signal);
    const grounded = ground(text, draft.citations);
    const why = unusable(grounded.text, draft.text, question, draft.citations, grounded.citations.length);
    if (why) return { ok: false as const, why, usage };
    const dataLine = DATA_LINE.exec(draft.text)?.[0];
    const kept = dataLine && !grounded.text.includes(dataLine) ? `${grounded.text}\n\n${dataLine}` : grounded.text;
    return { ok: true as const, text: `${kept}\n`, citations: grounded.citations, usage };
  } catch (err) {
    return { ok: false as const, why: err instanceof LlmError ? err.message : 'it failed', usage: null };
  }
}

const note = (why: string) => `\n\n_Note: the language model could not write this answer (${why}), so the built-in writer did._\n`;

/**
 * Has the LLM phrase an agent's answer, grounded in that answer's own sources. The agent runs
 * as usual; its text and citations are held back, rewritten, checked (see ground) and then
 * sent. On any upstream failure the agent's own answer is sent, with a note saying so.
 */
export function writtenWithLlm(agent: Agent, llm: Llm): Agent {
  return {
    ...agent,
    async *run(req: AgentRequest): AsyncGenerator<AgentEvent> {
      let text = '';
      const citations: Citation[] = [];
      for await (const event of agent.run(req)) {
        if (event.type === 'text') text += event.delta;
        else if (event.type === 'citation') citations.push(event.citation);
        else if (event.type === 'answer') {
          text += event.answer.text;
          citations.push(...event.answer.citations);
        }
        else if (event.type === 'usage') continue;
        else if (event.type !== 'done') yield event;
        else {
          yield { type: 'progress', message: 'Writing the answer.' };
          const question = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
          const out = await rewrite(llm, question, { text, citations }, req.signal);
          if (out.ok) {
            yield { type: 'text', delta: out.text };
            for (const citation of out.citations) yield { type: 'citation', citation };
            yield { type: 'usage', usage: out.usage };
          } else {
            // The built-in text is what the caller gets; its usage is counted by the tokenizer.
            yield { type: 'text', delta: text.replace(/\n*$/, '') + note(out.why) };
            for (const citation of citations) yield { type: 'citation', citation };
          }
          yield event;
          return;
        }
      }
    },
  };
}

/** The most a classification may take, whatever SVC_LLM_TIMEOUT_MS allows a rewrite. */
export const CLASSIFY_MAX_MS = 5000;

const LABELS = ['kalshi_url', 'odds', 'filings', 'financials', 'help'] as const;

/** Asks the model where a question belongs; null when it fails or answers with no known label. */
export async function classifyWithLlm(llm: Llm, question: string, history: readonly { role: string; content: string }[], signal?: AbortSignal) {
  const system = [
    'Classify the latest user message for a financial research service. Answer with one label only:',
    'odds: chances or prices of future events (Fed decisions, elections, crypto prices, sports, weather), or prediction markets;',
    'filings: a company figure from its financial statements or SEC filings for a period, or a comparison of companies;',
    'financials: the same figures over several periods, as a table or trend;',
    'help: anything else.',
  ].join(' ');
  const context = history.slice(-4).map((t) => `${t.role}: ${t.content.slice(0, 300)}`).join('\n');
  try {
    // One word is quick to write: a slow upstream should not spend the rewrite's time on it too.
    const { text, usage } = await llm.complete(system, `${context ? `Conversation so far:\n${context}\n\n` : ''}Latest message: ${question}`, signal, CLASSIFY_MAX_MS);
    // The label the model answered with is the first one in its reply, whatever it says after.
    const label = LABELS.map((l) => ({ l, at: text.search(new RegExp(`\\b${l}\\b`, 'i')) }))
      .filter((x) => x.at >= 0)
      .sort((a, b) => a.at - b.at)[0]?.l;
    // Without a usable label the call was still made and its tokens spent: they are counted.
    return { kind: label && label !== 'kalshi_url' ? label : null, usage };
  } catch {
    return null;
  }
}
