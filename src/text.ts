/**
 * Edit distance counting a swap of two neighbouring letters as one edit ("likley"), stopping
 * early past `max` (optimal string alignment).
 */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j]!, before[j - 2]! + 1);
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

// Common words of questions in Spanish, French, German, Portuguese and Italian that English never uses.
const FOREIGN_WORDS = new Set(
  `cuál cuáles cuales cuánto cuanto cuánta fueron fue ingresos ganancias beneficio beneficios año ventas qué empresa utilidad probabilidades probabilidad posibilidades tasas baje bajará subirá será habrá
quel quelle quels quelles été bénéfice chiffre affaires année était combien société probabilités taux baisse hausse sera
wie hoch umsatz gewinn jahr welche welcher wieviel unternehmen geschäftsjahr wahrscheinlichkeit zinsen senkung
qual quais são receita lucro foi quanto probabilidade juros amanhã passar
quale ricavi anno probabilità tassi`.split(/\s+/),
);

/**
 * Whether a question is written in another language than English: Chinese, Japanese or Korean
 * script, or two or more words of a handful of European languages' questions. The agents read
 * English: such a question gets told so instead of having its words read as names.
 */
export function looksNonEnglish(text: string): boolean {
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Arabic}]/u.test(text)) return true;
  const words = text.toLowerCase().normalize('NFC').match(/\p{L}+/gu) ?? [];
  return new Set(words.filter((w) => FOREIGN_WORDS.has(w))).size >= 2;
}

export const ENGLISH_ONLY = 'I read questions in English only, so I could not tell what this one asks. Ask in English, for example “What was Apple\'s revenue in fiscal 2024?” or “What are the odds of a Fed cut in December?”.';

/** Writing, code or errands asked for, not research ("write me a poem about the Fed"): a topic in it is no search. */
export const OUT_OF_SCOPE = /\b(?:write|compose|make|give|code)\s+(?:me\s+|us\s+)?(?:a|an|some)\s+(?:\w+\s+)?(?:poem|song|story|essay|joke|haiku|limerick|rap|tweet(?![- ]?(?:length|sized?)\b)|sonnet|script|program|code|function|app|website)s?\b|\btell me a (?:joke|story)\b|\b(?:book|reserve|order|buy)\s+(?:me\s+|us\s+)?(?:a|an|some)\s+(?:\w+\s+)?(?:flights?|hotels?|tables?|taxi|uber|tickets?|pizza|food|car)\b|\btranslate\b|\b(?:place|put in|submit|execute|make)\s+(?:an?\s+|the\s+|my\s+)?(?:\d[\d,]*[- ]contract\s+|\w+\s+)?(?:order|trade)s?\b(?=[^?]*\bfor (?:me|us)\b)|\b(?:buy|sell)\s+(?:it|them|\d[\d,]*(?:\s+\w+){0,3})\s+for (?:me|us)\b|\bwhat(?:'s| is) the capital of\b|^\s*(?:what(?:'s| is)\s+)?-?\d+(?:\.\d+)?\s*[-+*/x×÷]\s*-?\d+(?:\.\d+)?\s*[?=]?\s*$/i;
