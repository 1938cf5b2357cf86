import { cited } from './citations.js';
import type { Answer } from './types.js';

/** The words a text allows an answer at most ("under 20 words", "in 15 words or less", "max 25 words", "20 words max"). */
const WORD_LIMIT = /\b(?:in\s+)?(?:under|fewer\s+than|less\s+than|at\s+most|max(?:imum)?\s+(?:of\s+)?|no\s+more\s+than|up\s+to|within)\s+(\d{1,3})\s+words\b|\b(?:in\s+)?(\d{1,3})\s+words\s+(?:or\s+(?:fewer|less)|max(?:imum)?|at\s+most|tops)\b|\bin\s+(\d{1,3})\s+words\b/i;

/** The words asking it, to take out of a question ("keep it under 15 words"). */
export const WORD_LIMIT_WORDS = new RegExp(`(?:\\b(?:keep\\s+it|answer|reply|respond|say\\s+it)\\s+)?(?:${WORD_LIMIT.source})`, 'gi');

/** The most words a text asks an answer in; null when it names none (or a number too small to say anything, under 3). */
export function wordLimitAsked(text: string | null | undefined): number | null {
  const m = text ? WORD_LIMIT.exec(text.slice(0, 4000)) : null;
  const n = m ? Number(m[1] ?? m[2] ?? m[3]) : 0;
  return n >= 3 ? n : null;
}

/** A text's words, its citation markers and markdown marks not counted. */
export const wordsOf = (s: string) => s.replace(/\s*\[\d+\]/g, '').replace(/\*\*|__|`|^[-*•#>]+\s*/gm, '').split(/\s+/).filter((w) => /[\p{L}\p{N}$%]/u.test(w)).length;

/** The sentences of a text ("Apple Inc." and "vs." end none), each with the markers after its full stop. */
const sentencesOf = (s: string) => s.split(/(?<=(?<!\b(?:Inc|Corp|Co|Ltd|vs|No|e\.g|i\.e|approx|est))[.!?](?:\s*\[\d+\])*)\s+(?=[A-Z“"(*])/);

/**
 * An answer cut to at most `limit` words (its notes in italics under it kept, not counted): its
 * whole sentences that fit, in order; when not even the first does, that sentence's first clauses
 * that fit (up to a ";" or ","), else its first words, ended "…". Markers cut off are carried to
 * the end of what is kept when it keeps none, so a figure kept stays cited; citations are those
 * the text still uses, renumbered. Null when the answer is within the limit already or has no prose.
 */
export function withinWords(answer: Answer, limit: number): Answer | null {
  const lines = answer.text.split('\n');
  const notes = lines.map((l) => l.trim()).filter((l) => /^_[^_].*_$/.test(l));
  const body = lines.map((l) => l.trim()).filter((l) => l && !/^_[^_].*_$/.test(l));
  if (!body.length || wordsOf(body.join(' ')) <= limit) return null;
  // (A table or a list is no prose to cut: its lines read as one text, a row or item a sentence.)
  const whole = body.map((l) => l.replace(/^(?:[-*•]|\d+\.)\s+/, '').replace(/^\|.*\|$/, '')).filter(Boolean).join(' ').replace(/^#+\s*/g, '');
  // Asides in brackets go first ("(year ended 2024-09-28)", "(+2.0% year over year)"), but for "(derived)": the claims stay whole.
  const lean = whole.replace(/\s*\((?!derived\))[^()[\]]*\)/g, '').replace(/\s+([.,;:])/g, '$1');
  const prose = wordsOf(lean) ? lean : whole;
  const sentences = sentencesOf(prose);
  const kept: string[] = [];
  let used = 0;
  for (const s of sentences) {
    const n = wordsOf(s);
    if (used + n > limit) break;
    kept.push(s);
    used += n;
  }
  let text = kept.join(' ');
  if (!kept.length) {
    const first = sentences[0]!;
    const refs = [...new Set(first.match(/\[\d+\]/g) ?? [])];
    const parts = first.split(/(?<=[;,])\s+/);
    let cut = '';
    for (const p of parts) {
      if (wordsOf(`${cut} ${p}`) > limit) break;
      cut = cut ? `${cut} ${p}` : p;
    }
    if (!cut) cut = wordsCut(first, limit);
    cut = cut.replace(/[\s;,:]+$/, '');
    const missing = refs.filter((r) => !cut.includes(r)).join('');
    text = `${cut.replace(/[.!?]$/, '')}${cut.length < first.length ? '…' : '.'}${missing && !/\[\d+\]/.test(cut) ? ` ${missing}` : ''}`;
  }
  return cited(`${text}\n${notes.length ? `\n${notes.join('\n')}\n` : ''}`, answer.citations);
}

/** From this many words on, a limit keeps an answer's own lines rather than one sentence of it. */
export const LINES_FROM = 60;

/**
 * An answer's first whole lines within `limit` words, in its own form (headings, paragraphs, list
 * items; a table whole, never some of its rows), notes in italics kept and not
 * counted; null when not even its first line of substance fits, or it cites nothing kept.
 */
export function linesWithin(answer: Answer, limit: number): Answer | null {
  const lines = answer.text.split('\n');
  const kept: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*_[^_].*_\s*$/.test(line)) continue;
    if (/^\s*\|/.test(line)) {
      // (A table whole or not at all: some of its rows would read as all there is.)
      let j = i;
      while (j < lines.length && /^\s*\|/.test(lines[j]!)) j++;
      const table = lines.slice(i, j);
      const n = wordsOf(table.join(' ').replace(/\|/g, ' '));
      if (used + n > limit) break;
      kept.push(...table);
      used += n;
      i = j - 1;
      continue;
    }
    const n = wordsOf(line);
    if (used + n > limit) break;
    kept.push(line);
    used += n;
  }
  const text = kept.join('\n').replace(/\n+(?:#+[^\n]*\s*)?$/, '').trimEnd();
  if (!/\[\d+\]/.test(text) && answer.citations.length) return null;
  const notes = [...lines.map((l) => l.trim()).filter((l) => /^_[^_].*_$/.test(l)), `_The answer's start, within the ${limit} words asked._`];
  return cited(`${text}\n\n${notes.join('\n')}\n`, answer.citations);
}

/** A text's first `limit` words, its markers kept where they stand. */
function wordsCut(text: string, limit: number): string {
  let n = 0;
  const out: string[] = [];
  for (const token of text.split(/\s+/)) {
    const counts = wordsOf(token) > 0;
    if (counts && n === limit) break;
    if (counts) n++;
    out.push(token);
  }
  return out.join(' ');
}
