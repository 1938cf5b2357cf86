/**
 * "No markdown", "plain text only", "unformatted": an answer's Markdown taken out (headings, bold
 * and italics, tables, links, code marks), its words, figures and citation markers kept. And JSON
 * asked, which the answers are not: said so in a first line, as another language is.
 */

const PLAIN = /\b(?:no|without|avoid|skip|drop|strip)\s+(?:any\s+|the\s+)?(?:markdown|md|formatting|rich\s+text)\b|\b(?:do\s*n[o']?t|never)\s+(?:use|format\s+with|write\s+in|answer\s+in)\s+(?:any\s+)?(?:markdown|md|formatting)\b|\bplain[- ]text\b|\bunformatted\b|\braw\s+text\b/i;

/** The words asking it, to take out of a question. */
export const PLAIN_WORDS = new RegExp(`(?:,\\s*)?(?:${PLAIN.source})`, 'gi');

/** Whether a text (instructions, or the question) asks an answer without Markdown. */
export const plainTextAsked = (text: string | null | undefined): boolean => Boolean(text && PLAIN.test(text.slice(0, 4000)));

const JSON_ASKED = /\b(?:in|as|into|with|using)\s+(?:a\s+|valid\s+|strict\s+|pure\s+)*json\b|\bjson\s+(?:only|format(?:ted)?|object|output|response|reply)\b|\b(?:respond|reply|answer|return|output|give\s+me|format)\b[^.\n]{0,30}\bjson\b/i;

/** Whether a text asks the answer as JSON (not "don't use JSON"). */
export function jsonAsked(text: string | null | undefined): boolean {
  const m = text ? JSON_ASKED.exec(text.slice(0, 4000)) : null;
  return Boolean(m) && !/\b(?:do\s*n[o']?t|never|not|no|without|instead\s+of|rather\s+than)\b[^.\n]*$/i.test(text!.slice(0, m!.index + m![0].length).replace(/json[^.\n]*$/i, ''));
}

/** The words asking JSON, to take out of a question ("Apple revenue as JSON"). */
export const JSON_WORDS = new RegExp(`(?:,\\s*)?(?:${/\b(?:in|as|into|with|using)\s+(?:a\s+|valid\s+|strict\s+|pure\s+)*json(?:\s+(?:format|object|please))?\b|\bjson\s+(?:only|format(?:ted)?|please)\b/.source})`, 'gi');

/** The line an answer opens with when JSON was asked. */
export const jsonNote = '(This service answers in text with numbered citations, not JSON; JSON was asked.)';

/** `text` without its Markdown: each table row a line of its cells named by their heads, headings and emphasis as plain words, links as their name and address. */
export function withoutMarkdown(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*\|/.test(line)) {
      const block: string[][] = [];
      while (i < lines.length && /^\s*\|/.test(lines[i]!)) block.push(lines[i++]!.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim()));
      i--;
      const [head, ...rest] = block;
      const rows = rest.filter((r) => !r.every((c) => /^:?-{2,}:?$/.test(c) || c === ''));
      for (const row of rows) {
        // (A table of periods, its first head empty: "Revenue ($ million): Q3 FY2024 [1] 85,777; …". Any other: "Company: Apple; Figure: Revenue; …".)
        // (Its rows under a figure, "↳ year over year", without the periods' markers again.)
        const period = (k: number) => (row[0]!.startsWith('↳') ? (head![k] ?? '').replace(/\s*(?:\[\d+\])+$/, '') : (head![k] ?? ''));
        const cells = head![0] === '' ? `${row[0]}: ${row.slice(1).map((c, k) => `${period(k + 1)} ${c}`.trim()).join('; ')}` : row.map((c, k) => (head![k] ? `${head![k]}: ${c}` : c)).join('; ');
        out.push(inline(cells));
      }
      continue;
    }
    out.push(inline(line.replace(/\s+$/, '').replace(/^\s*#{1,6}\s+/, '').replace(/^\s*>\s?/, '').replace(/^(\s*)[*+]\s+/, '$1- ')));
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** A line's emphasis, code marks and links as plain words. */
const inline = (s: string) =>
  s
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '$1 ($2)')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(/(^|[\s(])_([^_]+)_(?=$|[\s).,;:])/g, '$1$2')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=$|[\s).,;:])/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^(\s*)↳\s*/, '$1');
