import { fenceAfterLine, type OpenFence } from './fences.js';
import { atxHeadings } from './headings.js';
import { convertTables } from './tables.js';

/**
 * Standard Markdown (what the agents write) to Slack's mrkdwn: `**bold**` → `*bold*`,
 * `*italic*` → `_italic_`, `~~strike~~` → `~strike~`, `[label](url)` → `<url|label>`,
 * headings → bold lines, bullets → `•`, tables → aligned code blocks; `&`, `<` and `>` escaped
 * everywhere except in the links it builds and the `>` that starts a quote. Only http(s) and
 * mailto targets become links: `<!channel|x>` or `<@U1|x>` would ping people.
 */

export const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Targets that Slack shows as links; anything else in `<…>` is a mention or a special command (`!channel`, `@U1`, `!subteam^S1`). */
export const isLinkTarget = (url: string) => /^(?:https?:\/\/|mailto:)\S/i.test(url);

const LOOKALIKE: Record<string, string> = { '!': '！', '@': '＠', '#': '＃' };

/**
 * Standard Markdown for Slack's `markdown_text` with no way to reach people: a `!`, `@` or `#`
 * right after `<` or `](` (as in `<!channel>` or `[x](!here)`) becomes its full-width lookalike.
 * It only looks back and keeps the length, so a growing text maps to a growing text with the
 * same offsets, as a stream that sends what is new needs.
 */
export const guardMentions = (markdown: string) => markdown.replace(/(<|\]\()([!@#])/g, (_m, before: string, sign: string) => before + LOOKALIKE[sign]);

/**
 * A link label may not contain `|` or `>`; a link target may not contain `|`, `<` or `>`.
 * A target that is not a link comes out as escaped plain text.
 */
export function mrkdwnLink(url: string, label: string): string {
  if (!isLinkTarget(url)) return escapeMrkdwn(label.trim() ? `${label.trim()} (${url})` : url);
  const safeUrl = url.replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E');
  const safeLabel = escapeMrkdwn(label.replace(/\|/g, '¦')).trim();
  return safeLabel && safeLabel !== safeUrl ? `<${safeUrl}|${safeLabel}>` : `<${safeUrl}>`;
}

// Private-use characters stand in for finished pieces while the rest of a line is rewritten.
const SLOT = '\uE000';
const BOLD = '\uE001';

function convertInline(line: string): string {
  const slots: string[] = [];
  const keep = (piece: string) => `${SLOT}${slots.push(piece) - 1}${SLOT}`;
  // Not a link target: the Markdown stays as typed, escaped below with the rest of the line.
  const link = (markdown: string, label: string, url: string) => (isLinkTarget(url) ? keep(mrkdwnLink(url, inlineLabel(label))) : markdown);
  let s = line
    .replace(/`([^`\n]+)`/g, (_m, code: string) => keep(`\`${escapeMrkdwn(code)}\``))
    .replace(/!?\[([^\]\n]*)\]\(<([^>\n]+)>\)/g, link)
    .replace(/!?\[([^\]\n]*)\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"]*")?\)/g, link)
    .replace(/<(https?:\/\/[^<>\s|]+)>/g, (_m, url: string) => keep(`<${url}>`));
  s = escapeMrkdwn(s);
  s = s
    .replace(/(?<![\w*\\])\*\*\*(?=[^\s*])(.+?)(?<=[^\s*])\*\*\*(?![\w*])/g, `${BOLD}_$1_${BOLD}`)
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, `${BOLD}$1${BOLD}`)
    .replace(/(?<![\w\\])__(?=\S)(.+?)(?<=\S)__(?!\w)/g, `${BOLD}$1${BOLD}`)
    .replace(/(?<![\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])/g, '_$1_')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '~$1~')
    .replace(new RegExp(BOLD, 'g'), '*')
    // Markdown's escapes ("3\*4", "[2\]", "\$5") have no meaning in mrkdwn: the character alone.
    .replace(/\\([!-/:-@[-`{-~])/g, '$1');
  return s.replace(new RegExp(`${SLOT}(\\d+)${SLOT}`, 'g'), (_m, i: string) => slots[Number(i)]!);
}

/** Link labels are plain text in mrkdwn: emphasis marks inside them would show literally. */
function inlineLabel(label: string): string {
  return label.replace(/(\*\*|__|~~|`)/g, '');
}

function convertLine(line: string): string {
  const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
  if (heading) {
    const text = heading[1]!.replace(/\*\*|__/g, '');
    return text ? `*${convertInline(text)}*` : '';
  }
  if (/^ {0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return '──────────';
  const quote = /^(\s*)>\s?(.*)$/.exec(line);
  if (quote) return `${quote[1]}>${quote[2] ? ` ${convertLine(quote[2])}` : ''}`;
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) {
    const depth = Math.floor(bullet[1]!.replace(/\t/g, '  ').length / 2);
    return `${'    '.repeat(depth)}${depth % 2 ? '◦' : '•'} ${convertInline(bullet[2]!)}`;
  }
  return convertInline(line);
}

export function toMrkdwn(markdown: string): string {
  const lines = convertTables(atxHeadings(markdown)).split('\n');
  const out: string[] = [];
  let fence: OpenFence | null = null;
  for (const line of lines) {
    const next = fenceAfterLine(line, fence);
    if (!fence && next) out.push(next.marker.replace(/~/g, '`').slice(0, 3)); // Slack shows a language tag as code
    else if (fence && !next) out.push('```');
    else if (fence) out.push(escapeMrkdwn(line));
    else out.push(convertLine(line));
    fence = next;
  }
  return out.join('\n');
}
