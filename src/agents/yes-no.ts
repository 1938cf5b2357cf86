import { cited } from './citations.js';
import type { Answer } from './types.js';

/**
 * "Just yes or no", "Answer yes or no only", "yes/no please", "reply with a simple yes or no": the
 * answer asked as a bare verdict (not "answer yes-or-no questions with a yes first", not negated).
 */
const YES_NO = /\b(?:just|only|simply)\s+(?:(?:say|answer|reply|respond|give\s+me|tell\s+me)\s+(?:with\s+)?)?(?:a\s+)?(?:(?:simple|plain|straight)\s+)?(?:yes\s+or\s+no|yes\/no|y\/n)\b(?!\s+questions?\b)|\b(?:answer|reply|respond)(?:\s+(?:only|just))?(?:\s+with)?\s+(?:a\s+)?(?:(?:simple|plain|straight|single)\s+)?(?:["“']?yes["”']?\s+or\s+["“']?no["”']?|yes\/no)(?!\s+questions?\b)(?:\s+only)?\b|\b(?:yes\s+or\s+no|yes\/no|y\/n)\s+(?:only|please|pls)\b|(?:^|[?.!:,]\s*|(?<=\?[^\n]*)\s)\W*(?:yes\s+or\s+no|yes\/no|y\/n)\s*[?.!]*\s*$|(?:^|(?<=[?.!:]\s*))(?:yes\s+or\s+no|yes\/no)(?=\s*(?:first\b|[,;:]?\s*(?:and\s+)?(?:then|followed\s+by|plus)\b))|\bone[- ]word\s+answer\b/im;
/** The words asking it, to take out of a question. */
export const YES_NO_WORDS = new RegExp(YES_NO.source, 'gim');
const NEGATED = /\b(?:do\s*n[o']?t|never|not|no\s+need\s+to|rather\s+than|instead\s+of)\b[^.!?\n]*$/i;

/** "In one word", "a one-word answer": of a yes-or-no question, its verdict. */
export const ONE_WORD = /\b(?:in|with|using)\s+(?:one|a\s+single|1|a)\s+word\b|\bone[- ]word\s+(?:answer|reply|response)\b/i;

/** Whether the yes or no a text asks leads more ("Answer yes or no, then one sentence why."): the verdict, then the answer in one sentence. */
export function yesNoThen(text: string | null | undefined): boolean {
  const m = text ? YES_NO.exec(text.slice(0, 4000)) : null;
  return Boolean(m) && /^\s*(?:first\b)?\s*(?:[,;:.]\s*)?(?:and\s+)?(?:then|followed\s+by|plus|with\s+(?:a|one)|and\s+(?:a|one|explain|why|say|give))\b/i.test(text!.slice(m!.index + m![0].length));
}

/** Whether a text (instructions, or the question itself) asks a bare yes or no. */
export function yesNoAsked(text: string | null | undefined): boolean {
  if (!text?.trim()) return false;
  const m = YES_NO.exec(text.slice(0, 4000));
  return Boolean(m) && !NEGATED.test(text.slice(0, m!.index));
}

/** A question one answers yes or no: it opens with a verb ("Did Apple's revenue grow?", "Is a hike likely?"), or ends asking so ("…, right?"). */
export function isYesNoQuestion(question: string): boolean {
  const q = question.replace(new RegExp(YES_NO.source, 'gim'), ' ').replace(/https?:\/\/\S+/g, ' ').trim();
  const last = q.split(/(?<=[.!?])\s+/).filter((s) => /\?\s*$/.test(s)).at(-1) ?? q;
  return /^\W*(?:(?:so|and|but|ok(?:ay)?|well|then|also|now)\W+)*(?:is|isn't|are|aren't|was|wasn't|were|weren't|did|didn't|does|doesn't|do|don't|has|hasn't|have|haven't|had|will|won't|would|can|could|should|shall|may|might|must)\b/i.test(last) || /,\s*(?:right|correct|true)\s*\??\s*$/i.test(last);
}

/**
 * Whether the last of the user's turns asks yes or no: itself, or, said short as a follow-up ("and
 * Microsoft's?", "what about 2023?"), the question before it did.
 */
export function yesNoInThread(turns: string[]): boolean {
  const last = turns.at(-1) ?? '';
  if (isYesNoQuestion(last)) return true;
  const bare = last.replace(new RegExp(YES_NO.source, 'gim'), ' ').trim();
  const short = /^\W*(?:and|what\s+about|how\s+about|same\s+for|also)\b/i.test(bare) || bare.split(/\s+/).length <= 3;
  return short && turns.length > 1 && yesNoInThread(turns.slice(0, -1));
}

/**
 * An answer said as the bare verdict asked: "Yes [1]." or "No [1]." when it opens with one (cited
 * to its first source); a yes-or-no question it answers with no plain verdict (a market's odds),
 * "No plain yes or no: " and the answer in one sentence; a question that is none, "That is not a
 * yes-or-no question; in short: " and the answer in one sentence. `oneSentence` says the answer
 * in one sentence (null: the first sentence of its text).
 */
export function yesNoSaid(answer: Answer, question: string | string[], oneSentence: Answer | null): Answer | null {
  const lines = answer.text.split('\n').map((l) => l.trim()).filter((l) => l && !/^_[^_].*_$/.test(l));
  if (!lines.length || !answer.citations.length) return null;
  // The verdict the answer opens with, or gives as a line of its own under a table ("- **Yes**: Apple's revenue was … more").
  const plain = (l: string) => l.replace(/\*\*|__/g, '').replace(/^#+\s*/, '');
  const opening = /^(yes|no)\b(?![-'’])/i.exec(plain(lines[0]!))?.[1];
  const line = opening ? lines[0]! : lines.find((l) => /^(?:[-*•]\s+)?\*\*(yes|no)\*\*[:.,]/i.test(l));
  const verdict = opening ?? (line ? /\*\*(yes|no)\*\*/i.exec(line)![1] : undefined);
  const asked = typeof question === 'string' ? isYesNoQuestion(question) : yesNoInThread(question);
  if (verdict && asked) {
    // The sources of the verdict's own line, every one ("No [1][2]." of two companies' margins), else the answer's first.
    const own = [...new Set(line?.match(/\[\d+\]/g) ?? [])].join('');
    const ref = own || (/\[(\d+)\]/.exec(answer.text)?.[0] ?? '');
    return cited(`${verdict[0]!.toUpperCase()}${verdict.slice(1).toLowerCase()}${ref ? ` ${ref}` : ''}.\n`, answer.citations);
  }
  const said = oneSentence?.text.split(/\n\s*\n/)[0]!.trim() ?? '';
  if (!said || said.includes('\n')) return null;
  const short = cited(said, oneSentence!.citations);
  const lead = asked ? 'No plain yes or no: ' : 'That is not a yes-or-no question; in short: ';
  const body = short.text.replace(/^(?:yes|no)\b[,:;]?\s*/i, '');
  const lower = /^(?:The|On|In|A|An|It|Its|Traders|There)\b/.test(body) ? body.charAt(0).toLowerCase() + body.slice(1) : body;
  return { text: `${lead}${lower}\n`, citations: short.citations };
}
