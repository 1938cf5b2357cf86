import { escapeMrkdwn, mrkdwnLink } from './mrkdwn.js';

/** A numbered source; `order` matches the `[n]` marker in the answer. */
export interface Citation {
  order: number;
  name: string;
  url: string;
}

export type FooterStyle = 'slack' | 'discord' | 'markdown';

const isWebUrl = (url: string) => /^https?:\/\/\S+$/i.test(url);

/**
 * One line per source: Slack `[n] <url|name>`, Discord `[n] [name](<url>)` (no preview), Markdown
 * `[n] [name](url)`; a source without a web address is its name alone, as plain text.
 */
export function citationLine(c: Citation, style: FooterStyle): string {
  const name = c.name.replace(/\s+/g, ' ').trim() || c.url;
  if (!isWebUrl(c.url)) return `[${c.order}] ${style === 'slack' ? escapeMrkdwn(name) : escapeLabel(name)}`;
  switch (style) {
    case 'slack':
      return `[${c.order}] ${mrkdwnLink(c.url, name)}`;
    case 'discord':
      return `[${c.order}] [${escapeLabel(name)}](<${c.url.replace(/>/g, '%3E')}>)`;
    case 'markdown':
      return `[${c.order}] [${escapeLabel(name)}](${c.url.replace(/[()\s]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`;
  }
}

const escapeLabel = (label: string) => label.replace(/([[\]\\])/g, '\\$1');

/** Sources in order, one per `order`, as a block to append to an answer ('' when there are none). */
export function citationFooter(citations: readonly Citation[], style: FooterStyle): string {
  const byOrder = new Map<number, Citation>();
  for (const c of [...citations].sort((a, b) => a.order - b.order)) if (!byOrder.has(c.order)) byOrder.set(c.order, c);
  if (!byOrder.size) return '';
  const heading = style === 'slack' ? '*Sources*' : '**Sources**';
  return `\n\n${heading}\n${[...byOrder.values()].map((c) => citationLine(c, style)).join('\n')}`;
}
