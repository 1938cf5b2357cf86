import { fenceAfterLine, type OpenFence } from './fences.js';

const UNDERLINE = /^ {0,3}(=+|-+)\s*$/;
// Lines that cannot be the text of a setext heading: what starts another block.
const NOT_PARAGRAPH = /^\s*$|^ {0,3}(?:#|>|[-*+]\s|\d{1,9}[.)]\s|\||`{3}|~{3})|^ {4}/;

/**
 * Setext headings (a line underlined with `===` or `---`) as `#` headings, outside code blocks.
 * Neither Slack nor Discord renders them: `---` would otherwise show as a rule under plain text.
 */
export function atxHeadings(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: OpenFence | null = null;
  let paragraphLine = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const underline = !fence && paragraphLine ? UNDERLINE.exec(line) : null;
    if (underline) {
      lines[i - 1] = `${underline[1]!.startsWith('=') ? '#' : '##'} ${lines[i - 1]!.trim()}`;
      lines[i] = '';
      paragraphLine = false;
      continue;
    }
    const next = fenceAfterLine(line, fence);
    paragraphLine = !fence && !next && !NOT_PARAGRAPH.test(line);
    fence = next;
  }
  return lines.join('\n');
}
