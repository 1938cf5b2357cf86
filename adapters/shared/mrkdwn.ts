import { fenceAfterLine, type OpenFence } from './fences.js';
import { convertTables } from './tables.js';

/**
 * Standard Markdown (what the agents write) to Slack's mrkdwn: `**bold**` → `*bold*`,
 * `*italic*` → `_italic_`, `~~strike~~` → `~strike~`, `[label](url)` → `<url|label>`,
 * headings → bold lines, bullets → `•`, tables → aligned code blocks; `&`, `<` and `>` escaped
 * everywhere except in the links it builds and the `>` that starts a quote.
 */

export const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A link label may not contain `|` or `>`; a link target may not contain `|`, `<` or `>`. */
export function mrkdwnLink(url: string, label: string): string {
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
  let s = line
    .replace(/`([^`\n]+)`/g, (_m, code: string) => keep(`\`${escapeMrkdwn(code)}\``))
    .replace(/!?\[([^\]\n]*)\]\(<([^>\n]+)>\)/g, (_m, label: string, url: string) => keep(mrkdwnLink(url, inlineLabel(label))))
    .replace(/!?\[([^\]\n]*)\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"]*")?\)/g, (_m, label: string, url: string) => keep(mrkdwnLink(url, inlineLabel(label))))
    .replace(/<(https?:\/\/[^<>\s|]+)>/g, (_m, url: string) => keep(`<${url}>`));
  s = escapeMrkdwn(s);
  s = s
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, `${BOLD}$1${BOLD}`)
    .replace(/(?<![\w\\])__(?=\S)(.+?)(?<=\S)__(?!\w)/g, `${BOLD}$1${BOLD}`)
    .replace(/(?<![\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])/g, '_$1_')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '~$1~')
    .replace(new RegExp(BOLD, 'g'), '*');
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
  const lines = convertTables(markdown).split('\n');
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
