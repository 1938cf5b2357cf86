import type { Citation } from '../types.js';

export interface Grounded {
  text: string;
  citations: Citation[];
  /** Markers that cited no source, dropped. */
  dropped: number;
  /** URLs that were not among the sources, removed. */
  removedUrls: number;
}

// Anything a reader could follow: a scheme, a www. host, or a bare host with a path.
const URL = /\b(?:(?:https?|ftp):\/\/|javascript:|data:|www\.)[^\s<>()[\]"'`]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/[^\s<>()[\]"'`]*/gi;
const MARKDOWN_LINK = /\[([^\]]+)\]\(\s*<?([^)\s>]+)>?\s*\)/g;
const MARKERS = /\[(\d+(?:\s*[,;]\s*\d+)*)\]/g;

/** Other ways a model writes a citation marker (【2】, [^2], [1-3]), in the one form [n, m]. */
function normaliseMarkers(text: string): string {
  return text
    .replace(/【\s*(\d+)\s*】/g, '[$1]')
    .replace(/\[\^(\d+)\]/g, '[$1]')
    .replace(/\[(\d+)\s*[-–]\s*(\d+)\]/g, (whole, a: string, b: string) => {
      const [from, to] = [Number(a), Number(b)];
      return to > from && to - from < 20 ? `[${Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',')}]` : '';
    });
}

/**
 * Holds a written answer to its sources: a marker [n] stays only if source n exists, sources
 * are renumbered in order of first use (those never cited are dropped), and any URL the sources
 * do not contain is removed (a Markdown link keeps its words).
 */
export function ground(text: string, sources: readonly Citation[]): Grounded {
  const byOrder = new Map(sources.map((s) => [s.order, s]));
  // A source's address, or the same document without its fragment; never another fragment
  // (a signed link's #page= is part of what was cited).
  const allowed = new Set(sources.flatMap((s) => [s.url, s.url.replace(/#.*$/, '')]));
  const isAllowed = (url: string) => allowed.has(url.replace(/[.,;:!?]+$/, ''));
  let removedUrls = 0;
  let out = normaliseMarkers(text).replace(MARKDOWN_LINK, (whole, words: string, url: string) => {
    if (isAllowed(url)) return whole;
    removedUrls++;
    return words;
  });
  out = out.replace(URL, (url) => {
    if (isAllowed(url)) return url;
    removedUrls++;
    return '';
  });
  const renumbered = new Map<number, number>();
  const citations: Citation[] = [];
  let dropped = 0;
  out = out.replace(MARKERS, (_whole, list: string) => {
    const kept: string[] = [];
    for (const raw of list.split(/[,;]/)) {
      const n = Number(raw.trim());
      const source = byOrder.get(n);
      if (!source) {
        dropped++;
        continue;
      }
      let m = renumbered.get(n);
      if (m === undefined) {
        m = citations.length + 1;
        renumbered.set(n, m);
        citations.push({ order: m, name: source.name, url: source.url });
      }
      kept.push(`[${m}]`);
    }
    return kept.join('');
  });
  out = out.replace(/[ \t]+([.,;:!?])/g, '$1').replace(/[ \t]{2,}/g, ' ');
  return { text: out.trim(), citations, dropped, removedUrls };
}
