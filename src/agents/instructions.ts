/**
 * What a caller's instructions (the Responses `instructions` field, system and developer messages)
 * ask of an answer's form or language. The agents write one way, in English, so only a form they
 * can restate an answer in is followed (each agent applies it as if the question had asked it),
 * and a language other than English is answered in English with a line saying so. Everything else
 * in instructions ("You are a helpful assistant", "cite your sources") asks nothing of this kind.
 */

/**
 * A form an answer can be asked in: one sentence, one line, the number alone, a table, bullet
 * points, plain words for a beginner. "Be brief", "be concise" and the like are not one: many
 * clients put them in every system prompt as a style, and read as "one sentence" they cut every
 * report to its summary line.
 */
export type InstructedForm = 'sentence' | 'line' | 'number' | 'table' | 'bullets' | 'simple';

export interface FormInstructed {
  form: InstructedForm;
  /** Only one figure wanted ("reply with a single number"). */
  one: boolean;
  /** How many bullet points were asked ("in 3 bullets", "three bullet points"), when a number was. */
  count?: number;
  /** How many words at most were asked ("under 20 words", "20 words or fewer"), when a number was. */
  words?: number;
  /** Plain words asked beside the shape ("Explain like I'm 12, in 2 bullets"): bullets, a sentence or a line in plain words. */
  plain?: boolean;
}

/** The words an instruction allows at most ("under 20 words", "in 15 words or less", "max 25 words"). */
const WORD_LIMIT = /\b(?:under|fewer\s+than|less\s+than|at\s+most|max(?:imum)?\s+(?:of\s+)?|no\s+more\s+than|up\s+to)\s+(\d{1,2})\s+words\b|\b(\d{1,2})\s+words\s+or\s+(?:fewer|less)\b/i;

const COUNTS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
/** The number of bullet points a clause asks ("in 3 bullets", "three key bullet points", "max 5 bullets"). */
const BULLET_COUNT = /\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:short\s+|key\s+|brief\s+|quick\s+)?bullet/i;

/** The number of bullet points a text asks ("in 3 bullets", "three bullet points"); 0 when it names none. */
export function bulletCount(text: string): number {
  const count = BULLET_COUNT.exec(text)?.[1]?.toLowerCase();
  const n = count ? (COUNTS[count] ?? Number(count)) : 0;
  return n >= 1 ? n : 0;
}

/** Each form by the words that ask it in an instruction; the first that matches a clause wins. */
const FORMS: [InstructedForm, RegExp][] = [
  ['number', /\b(?:just|only|solely)\s+(?:give\s+|state\s+|return\s+|output\s+|say\s+|reply\s+with\s+|respond\s+with\s+|answer\s+with\s+)?(?:me\s+)?(?:the|a|one|a\s+single)\s+(?:number|figure|value|amount|numeric\s+value)s?\b|\b(?:just|only)\s+(?:the\s+)?(?:numbers?|figures?)\b|\b(?:numbers?|figures?|numeric\s+values?)\s+only\b|\b(?:reply|respond|answer)\s+(?:only\s+)?with\s+(?:(?:just|only)\s+)?(?:the|a|one|a\s+single)\s+(?:number|figure|value)\b(?!\s+(?:and|with|plus)\b)|\bnothing\s+but\s+the\s+(?:number|figure|value)\b|\b(?:percent(?:age)?s?|probabilit(?:y|ies))\s+only\b|\b(?:just|only)\s+(?:the\s+)?(?:percent(?:age)?|probability|odds)\b(?!\s+(?:of|for|and|that)\b)|\b(?:in|with|using)\s+(?:one|a\s+single|1|a)\s+word\b|\bone[- ]word\s+(?:answer|reply|response)\b/i],
  ['table', /\b(?:as|in|into|with|using|use)\s+(?:a\s+)?(?:markdown\s+)?tables?\b|\bformat(?:ted)?\s+(?:it\s+|them\s+|answers?\s+|the\s+answers?\s+|your\s+answers?\s+|everything\s+)?(?:as|in(?:to)?)\s+(?:a\s+)?(?:markdown\s+)?tables?\b|\btabulate\b|\btabular(?:\s+form(?:at)?)?\b|\btable\s+(?:form|format)\b/i],
  ['bullets', /\bbullet(?:ed)?[- ]?(?:points?|lists?)?\b|\bbullets\b|\b(?:as|in|with|using|use)\s+(?:a\s+)?(?:short\s+)?(?:list|lists)\b|\blist\s+(?:form|format)\b/i],
  ['simple', /\bexplain\s+(?:(?:it|that|things|everything)\s+)?(?:to\s+me\s+)?(?:like|as\s+if|as\s+though)\s+(?:i'?m|i\s+am|im|to\s+a)\s+(?:a\s+)?\w+(?:[- ]year[- ]old)?|\beli\d+\b|\b(?:in|use|using|with)\s+(?:simple|plain|simpler|plainer|layman'?s?|everyday)\s+(?:words|terms|english|language)\b|\bplain[- ](?:english|language|words)\b|\blayman'?s?\s+terms\b|\bfor\s+(?:a\s+)?(?:kid|child|beginner|novice|layperson|\d+[- ]year[- ]old)s?\b|\bnon-?technical\b|\b(?:no|without|avoid)\s+jargon\b|\bdumb\s+it\s+down\b/i],
  ['line', /\b(?:in\s+|as\s+|to\s+|with\s+|on\s+)?(?:one|a|1|single)\s+(?:single\s+)?line\b|\bone[- ]liners?\b/i],
  ['sentence', /\b(?:in\s+|as\s+|to\s+|with\s+|using\s+|(?:max(?:imum)?|at\s+most|no\s+more\s+than|up\s+to)\s+)?(?:one|a|1|single|two|2|three|3)\s+(?:short\s+|single\s+|brief\s+)?sentences?\b|\bone[- ]sentence\b|\b(?:under|fewer\s+than|less\s+than|at\s+most|max(?:imum)?\s+(?:of\s+)?|no\s+more\s+than|up\s+to)\s+\d{1,2}\s+words\b|\b\d{1,2}\s+words\s+or\s+(?:fewer|less)\b|\btl;?\s?dr\b|\bsummar(?:ize|ise)\s+(?:your|the|each|every)\s+(?:answers?|replies|responses)\b/i],
];

/** A clause that forbids what follows rather than asking it ("don't use bullet points", "never reply with just a number"). */
const NEGATED = /\b(?:do\s*n[o']?t|does\s*n[o']?t|never|avoid|no\s+need\s+to|without|rather\s+than|instead\s+of|not)\b/i;

/** An instruction's clauses: sentences, lines, and parts joined by ";" or ", and". */
const clauses = (text: string) => text.split(/(?<=[.!?])\s+|\n+|;\s+|,\s+(?:and\s+|but\s+)?(?=(?:answer|reply|respond|write|use|keep|be|give|format|explain|only|just)\b)/i).map((c) => c.trim()).filter(Boolean);

/**
 * A summary asked before the answer, not in its place: "Start with a one-sentence summary", "begin
 * with a summary", "lead with the bottom line", "bottom line up front", "TL;DR first". (Read as the
 * form "one sentence", it would cut the answer to its summary.)
 */
const LEAD = /\b(?:start|begin|open|lead|preface|kick\s+off)(?:\s+(?:each|every|your|the)\s+(?:answers?|replies|responses?))?\s+(?:it\s+|them\s+)?(?:with|by(?:\s+giving)?)\s+(?:a|an|the|one)?\s*(?:(?:one|1|single|two|2)[- ](?:sentence|line)\s+|short\s+|brief\s+|quick\s+|concise\s+)*(?:summary|summaries|tl;?\s?dr|bottom\s+line|headline|overview|takeaway|key\s+takeaway|conclusion|gist)\b|\bbottom\s+line\s+(?:up\s+front|first)\b|\bBLUF\b|\b(?:summary|tl;?\s?dr|bottom\s+line)\s+(?:first|at\s+the\s+(?:top|start|beginning))\b/i;

/** Whether instructions ask a summary line before the whole answer ("Start with a one-sentence summary."). */
export function summaryFirstInstructed(instructions: string | null | undefined): boolean {
  if (!instructions?.trim()) return false;
  return clauses(instructions.slice(0, 4000)).some((clause) => {
    const m = LEAD.exec(clause) ?? ANSWER_FIRST.exec(clause);
    return Boolean(m) && !NEGATED.test(clause.slice(0, m!.index + m![0].length));
  });
}

/**
 * The answer asked first, before anything else: "Start with the answer", "lead with the direct
 * answer", "answer first", "get to the point". An answer that opens with its answer already (a
 * company's figure) is given as it is; one that opens otherwise (a listing) gets its one-sentence
 * summary first, as a summary asked first does.
 */
const ANSWER_FIRST = /\b(?:start|begin|open|lead)(?:\s+(?:each|every|your|the)\s+(?:answers?|replies|responses?))?\s+(?:it\s+)?with\s+(?:the|your|a)\s+(?:direct\s+|short\s+|actual\s+|plain\s+)?(?:answer|verdict|number|result)\b|\b(?:the\s+)?(?:direct\s+)?(?:answer|verdict)\s+(?:first|up\s+front|at\s+the\s+(?:top|start))\b|\bget\s+(?:straight\s+)?to\s+the\s+point\b/i;

/** Whether instructions ask the answer itself first ("Start with the answer."), rather than a summary of it. */
export function answerFirstInstructed(instructions: string | null | undefined): boolean {
  if (!instructions?.trim()) return false;
  return clauses(instructions.slice(0, 4000)).some((clause) => {
    const m = ANSWER_FIRST.exec(clause);
    return Boolean(m) && !LEAD.test(clause) && !NEGATED.test(clause.slice(0, m!.index + m![0].length));
  });
}

/** Which part of a clause a place is in, parts being apart at a comma, a colon or "and", "but", "then". */
const partOf = (text: string, at: number) => (text.slice(0, at).match(/[,:]|\b(?:and|but|then)\b/gi) ?? []).length;

/** A sentence or a line asked of each bullet or item ("Use bullets, one line each"), not of the whole answer. */
const EACH = /\b(?:each|every|per)\s+(?:bullet(?:\s+point)?|point|item|row|line|entry)s?\b/i;
const EACH_AFTER = /^\s*(?:each|apiece|per\s+(?:bullet|point|item|row))\b/i;

/**
 * The form instructions ask answers in, or null when they ask none (or only in another language: see languageInstructed).
 * Several forms asked together: plain words ("explain like I'm 12", "no jargon") go with a shape
 * asked beside them (bullets, one sentence, one line), which the answer takes in plain words
 * (`plain`); of shapes that contradict each other ("in 3 bullets, in one sentence"), the one asked
 * last wins; a word limit ("under 50 words") is no shape beside one asked ("in under 50 words, as
 * a table" is a table; the limit is kept apart, see word-limit.ts).
 */
export function formInstructed(instructions: string | null | undefined): FormInstructed | null {
  if (!instructions?.trim()) return null;
  const text = instructions.slice(0, 4000);
  // (A summary asked first is no form of the whole answer: "start with a one-sentence summary" asks no answer of one sentence.)
  const asked: { form: InstructedForm; at: number; clause: string; limit: boolean }[] = [];
  let at = 0;
  for (const clause of clauses(text).map((c) => c.replace(new RegExp(LEAD.source, 'gi'), ' '))) {
    at += 1000;
    const found = FORMS.flatMap(([form, pattern], order) => {
      const m = new RegExp(pattern.source, 'i').exec(clause);
      return m ? [{ form, m, order }] : [];
    }).sort((a, b) => a.m.index - b.m.index);
    let from = 0;
    for (const { form, m, order } of found) {
      const end = m.index + m[0].length;
      // ("Do not use bullet points", "answer in full sentences rather than a table": nothing asked; "no bullets, just one sentence": one sentence.)
      const negated = NEGATED.test(clause.slice(Math.min(from, m.index), end));
      from = Math.max(from, end);
      if (negated) continue;
      // ("Use bullets, one line each": a line of each bullet, no shape of the whole answer.)
      if ((form === 'sentence' || form === 'line') && (EACH.test(clause) || EACH_AFTER.test(clause.slice(end)))) continue;
      // (Parts of a clause are apart at a comma or "and": "a table with one line per company" is one ask, a table.)
      asked.push({ form, at: at + partOf(clause, m.index) * 10 + (FORMS.length - order), clause, limit: form === 'sentence' && WORD_LIMIT.test(m[0]) && !/\bsentences?\b/i.test(m[0]) });
    }
  }
  if (!asked.length) return null;
  const shapes = asked.filter((a) => a.form !== 'simple' && !a.limit);
  const chosen = shapes.sort((a, b) => b.at - a.at)[0] ?? asked.find((a) => a.form === 'simple') ?? asked[0]!;
  const { form, clause } = chosen;
  const count = form === 'bullets' ? BULLET_COUNT.exec(clause)?.[1]?.toLowerCase() : undefined;
  const n = count ? (COUNTS[count] ?? Number(count)) : 0;
  const limit = form === 'sentence' ? (WORD_LIMIT.exec(clause) ?? WORD_LIMIT.exec(text)) : null;
  const words = limit ? Number(limit[1] ?? limit[2]) : 0;
  // Plain words asked beside bullets, a sentence or a line: that shape, in plain words.
  const plain = (form === 'bullets' || form === 'sentence' || form === 'line') && asked.some((a) => a.form === 'simple');
  return { form, one: form === 'number' && /\b(?:one|a\s+single|single)\s+(?:number|figure|value)\b|\b(?:one|a\s+single|1|a)\s+word\b|\bone[- ]word\b/i.test(clause), ...(n >= 1 ? { count: n } : {}), ...(words >= 1 ? { words } : {}), ...(plain ? { plain: true } : {}) };
}

/** Whether instructions ask plain words ("Explain like I'm 12.", "No jargon."), alone or beside a shape. */
export function plainInstructed(instructions: string | null | undefined): boolean {
  const asked = formInstructed(instructions);
  return asked?.form === 'simple' || Boolean(asked?.plain);
}

/** Languages by the English name a caller asks them by, and their own names. */
const LANGUAGES: { name: string; asked: RegExp; own: RegExp; words: string[] }[] = [
  { name: 'French', asked: /\bfrench\b/i, own: /\bfran[çc]ais(?:e)?\b/i, words: ['réponds', 'répondez', 'réponse', 'réponses', 'toujours', 'vous', 'êtes', 'sois', 'soyez', 'avec', 'pour', 'une', 'les', 'des', 'est', 'tu', 'es', 'en', 'bref', 'brève', 'langue', 'uniquement', 'plaît', 'merci'] },
  { name: 'Spanish', asked: /\bspanish\b/i, own: /\b(?:espa[ñn]ol|castellano)\b/i, words: ['responde', 'responda', 'respondé', 'siempre', 'eres', 'usted', 'favor', 'las', 'los', 'una', 'con', 'para', 'sé', 'breve', 'respuestas', 'respuesta', 'idioma', 'sólo', 'en', 'es', 'el', 'y'] },
  { name: 'German', asked: /\bgerman\b/i, own: /\bdeutsch(?:e|en)?\b/i, words: ['antworte', 'antworten', 'antwortet', 'immer', 'bitte', 'du', 'bist', 'sie', 'sind', 'auf', 'der', 'die', 'das', 'und', 'mit', 'eine', 'einen', 'kurz', 'sprache', 'nur', 'ist'] },
  { name: 'Italian', asked: /\bitalian\b/i, own: /\bitalian[oa]\b/i, words: ['rispondi', 'rispondere', 'risposta', 'risposte', 'sempre', 'sei', 'favore', 'con', 'una', 'gli', 'della', 'breve', 'lingua', 'è', 'il'] },
  { name: 'Portuguese', asked: /\bportuguese\b/i, own: /\bportugu[êe]s\b/i, words: ['responda', 'responde', 'sempre', 'você', 'voce', 'favor', 'com', 'uma', 'em', 'seja', 'breve', 'resposta', 'respostas', 'idioma', 'apenas', 'é', 'o'] },
  { name: 'Dutch', asked: /\bdutch\b/i, own: /\bnederlands\b/i, words: ['antwoord', 'antwoorden', 'altijd', 'je', 'bent', 'alsjeblieft', 'met', 'een', 'het', 'kort', 'taal', 'alleen'] },
  { name: 'Chinese', asked: /\b(?:chinese|mandarin|cantonese)\b/i, own: /中文|汉语|漢語|普通话/, words: [] },
  { name: 'Japanese', asked: /\bjapanese\b/i, own: /日本語/, words: [] },
  { name: 'Korean', asked: /\bkorean\b/i, own: /한국어/, words: [] },
  { name: 'Russian', asked: /\brussian\b/i, own: /русск/i, words: [] },
  { name: 'Arabic', asked: /\barabic\b/i, own: /العربية/, words: [] },
  { name: 'Hindi', asked: /\bhindi\b/i, own: /हिन्दी|हिंदी/, words: [] },
];

/**
 * A language asked in English words: "answer in French", "reply only in Spanish, please", "French
 * only" (not "in Chinese companies", a subject).
 */
const ASKED_IN = /\b(?:in|into|using)\s+(\p{L}+)(?=\s*(?:[.,;:!?)]|$|\s+(?:please|pls|only|language|too|always|from|for|when|if|unless|and|or|to|at|by|no|whatever)\b))|\b(\p{L}+)\s+only\b/giu;

/** Scripts that say the language they write. */
const SCRIPTS: [string, RegExp][] = [
  ['Japanese', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Korean', /\p{Script=Hangul}/u],
  ['Chinese', /\p{Script=Han}/u],
  ['Russian', /\p{Script=Cyrillic}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hindi', /\p{Script=Devanagari}/u],
  ['Greek', /\p{Script=Greek}/u],
];

/**
 * The language other than English that instructions ask answers in, by its English name
 * ("French"): asked in words ("answer in French", "Réponds en français"), or the instructions
 * themselves written in it (its script, or several of its common words). Null when they ask
 * English or none.
 */
export function languageInstructed(instructions: string | null | undefined): string | null {
  const text = instructions?.trim().slice(0, 4000);
  if (!text) return null;
  // Asked by name, in English words.
  for (const m of text.matchAll(ASKED_IN)) {
    const word = m[1] ?? m[2] ?? '';
    if (/^english$/i.test(word)) return null;
    const named = LANGUAGES.find((l) => l.asked.test(word) && l.asked.exec(word)![0].length === word.length);
    if (named) return named.name;
  }
  // Named in its own words ("en français", "auf Deutsch", "中文").
  const own = LANGUAGES.find((l) => l.own.test(text));
  if (own) return own.name;
  for (const [name, script] of SCRIPTS) if (script.test(text)) return name;
  // Written in it: several of its words, more than of any other such language, and few of English's.
  const words = text.toLowerCase().normalize('NFC').match(/\p{L}+/gu) ?? [];
  const english = words.filter((w) => ENGLISH.has(w)).length;
  let best: { name: string; hits: number } | null = null;
  for (const l of LANGUAGES) {
    if (!l.words.length) continue;
    const set = new Set(l.words);
    const hits = new Set(words.filter((w) => set.has(w))).size;
    if (hits >= 2 && hits > english && (!best || hits > best.hits)) best = { name: l.name, hits };
  }
  return best?.name ?? null;
}

/** Common English words: instructions full of them are English, whatever else they hold. */
const ENGLISH = new Set('the a an and or you your are is be to of in on for with answer reply respond always never please only use in as it that this what which who'.split(' '));

/** The one line an answer opens with when another language than English was asked. */
export const englishOnlyNote = (language: string) => `(This service answers in English; ${language} was asked.)`;
