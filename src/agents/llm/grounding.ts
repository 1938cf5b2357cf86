import type { Citation } from '../types.js';

export interface Grounded {
  text: string;
  citations: Citation[];
  /** Markers that cited no source, dropped. */
  dropped: number;
  /** URLs that were not among the sources, removed. */
  removedUrls: number;
}

const URL = /https?:\/\/[^\s<>()[\]"'`]+/g;
const MARKDOWN_LINK = /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g;
const MARKERS = /\[(\d+(?:\s*[,;]\s*\d+)*)\]/g;

/**
 * Holds a written answer to its sources: a marker [n] stays only if source n exists, sources
 * are renumbered in order of first use (those never cited are dropped), and any URL the sources
 * do not contain is removed (a Markdown link keeps its words).
 */
export function ground(text: string, sources: readonly Citation[]): Grounded {
  const byOrder = new Map(sources.map((s) => [s.order, s]));
  const allowed = new Set(sources.map((s) => s.url.replace(/#.*$/, '')));
  const isAllowed = (url: string) => allowed.has(url.replace(/[.,;:!?]+$/, '').replace(/#.*$/, ''));
  let removedUrls = 0;
  let out = text.replace(MARKDOWN_LINK, (whole, words: string, url: string) => {
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
