/**
 * A question without the words that ask its answer's form ("… in 20 words or fewer", "…, no
 * markdown please?", "… - in JSON, please.", "… (just yes or no) …"), read by the agents as if those
 * words had never been there: the words that only joined them to the question go with them (a
 * comma or dash before, "please" or "thanks" after, "and" between, a preposition left without its
 * object, brackets left empty), and what ended the question (its question mark) stays.
 */

/** Where words were taken out. */
const CUT = '\u0001';

/** Words that only join a form asked to the question, or ask it politely. */
const JOINING = String.raw`(?:please|pls|plz|thanks|thank\s+you|thx|and|or|but|also|then|too|keep\s+it|answer|reply|respond|say\s+it|written|formatted|format(?:\s+it)?|just|only)`;
/** A word or mark that joins, a preposition left without its object ("odds in ‸" of "odds in plain text"), or what forbade a form ("don't use ‸"). */
const AROUND_BEFORE = new RegExp(String.raw`(?:[\s,;:—–-]|\b${JOINING}\b|\b(?:in|as|into|with|using|no|without|(?:do\s*n[o'’]?t|never)\s+(?:use|give|write|answer\s+in))\b)*${CUT}`, 'gi');
const AROUND_AFTER = new RegExp(String.raw`${CUT}(?:[\s,;:—–-]|\b${JOINING}\b)*`, 'gi');

/** `text` without what each pattern matches, and without what only joined it to the rest (see above); as it was when nothing matches. */
export function formWordsOut(text: string, patterns: RegExp[]): string {
  // (A question mark the words took with them, "… likelier? yes or no", is put back.)
  let t = patterns.reduce((s, p) => s.replace(new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`), (m) => `${/^[?.!]/.exec(m)?.[0] ?? ''}${CUT}`), text);
  if (!t.includes(CUT)) return text;
  for (let i = 0; i < 3; i++) {
    t = t
      .replace(new RegExp(`${CUT}(?:\\s*${CUT})+`, 'g'), CUT)
      .replace(AROUND_BEFORE, CUT)
      .replace(AROUND_AFTER, CUT)
      // (Brackets around nothing else: "Apple revenue 2024 (just yes or no) did it grow?")
      .replace(new RegExp(`[(\\[]\\s*${CUT}\\s*[)\\]]`, 'g'), CUT);
  }
  return t
    .replace(new RegExp(`^\\s*${CUT}\\s*`), '')
    .replace(new RegExp(`\\s*${CUT}\\s*([?.!])`, 'g'), '$1')
    .replace(new RegExp(`\\s*${CUT}\\s*$`), '')
    .replace(new RegExp(`\\s*${CUT}\\s*`, 'g'), ' ')
    .replace(/\s+([?.!,;:])/g, '$1')
    .replace(/^[\s,;:.—–-]+/, '')
    .replace(/[\s,;:—–-]+$/, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
