import { displayName } from './names.js';
import { editDistance } from '../../text.js';
import type { CompanyRef, CompanyTickersFile } from './types.js';

/** A word of a question or company name, with where it was and how it was written. */
export interface Token {
  raw: string;
  /** Lowercased, curly quotes straightened, possessive and trailing dot removed, `$` dropped. */
  norm: string;
  start: number;
  end: number;
}

const TOKEN = /[\p{L}\p{N}$][\p{L}\p{N}.&'’-]*[\p{L}\p{N}]|[\p{L}\p{N}]|&/gu;

export function normWord(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^\$/, '')
    .replace(/'s$|'$/, '')
    .replace(/\.$/, '');
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const norm = normWord(m[0]);
    if (norm) out.push({ raw: m[0], norm, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const LEGAL_SUFFIXES = new Set(['inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'plc', 'llc', 'lp', 'l.p', 'sa', 's.a', 'nv', 'n.v', 'ag', 'se', 'the', '&']);
const GENERIC_SUFFIXES = new Set(['holdings', 'holding', 'group', 'international', 'technologies', 'technology', 'platforms', 'systems', 'enterprises', 'industries', 'brands', 'worldwide', 'global', 'trust', 'bancorp']);

/** Well-known names the SEC's titles do not contain, by the ticker they stand for. */
const ALIASES: Record<string, string> = {
  google: 'GOOGL',
  facebook: 'META',
  'j&j': 'JNJ',
  'p&g': 'PG',
  jpmorgan: 'JPM',
  'jp morgan': 'JPM',
  exxon: 'XOM',
  coke: 'KO',
  amex: 'AXP',
  goldman: 'GS',
  'goldman sachs': 'GS',
  berkshire: 'BRK-B',
};

const normTicker = (t: string) => t.toUpperCase().replace(/^\$/, '').replace(/\./g, '-');

/** The name a company goes by, without legal suffixes: "Apple Inc." → ["apple"]. */
export function coreName(title: string): string[] {
  const cleaned = title.replace(/\/[A-Za-z]{2,5}\/?/g, ' ').replace(/,/g, ' ');
  const words = tokenize(cleaned).map((t) => t.norm);
  while (words[0] === 'the' && words.length > 1) words.shift();
  while (words.length > 1 && LEGAL_SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words;
}

/** Other ways people write the name: without "Holdings"/"Group", ".com", hyphens, "&" as "and". */
function nameVariants(core: string[]): string[][] {
  const out: string[][] = [];
  const trimmed = [...core];
  while (trimmed.length > 1 && (GENERIC_SUFFIXES.has(trimmed[trimmed.length - 1]!) || LEGAL_SUFFIXES.has(trimmed[trimmed.length - 1]!))) {
    trimmed.pop();
    out.push([...trimmed]);
  }
  for (const words of [core, ...out]) {
    if (words.some((w) => w.endsWith('.com'))) out.push(words.map((w) => w.replace(/\.com$/, '')));
    if (words.some((w) => w.includes('-'))) {
      out.push(words.flatMap((w) => w.split('-')));
      out.push(words.map((w) => w.replace(/-/g, '')));
    }
    if (words.includes('&')) out.push(words.map((w) => (w === '&' ? 'and' : w)));
  }
  return out;
}

export interface CompanyEntry extends CompanyRef {
  /** Position in the tickers file, which lists the largest companies first. */
  rank: number;
  tickers: string[];
  words: string[];
}

export type CompanyLookup =
  | { status: 'found'; company: CompanyRef; fuzzy?: boolean }
  | { status: 'ambiguous'; candidates: CompanyRef[] }
  | { status: 'unknown'; suggestions: CompanyRef[] };

export const refOf = (e: CompanyEntry): CompanyRef => ({ cik: e.cik, ticker: e.ticker, name: displayName(e.name) });

/**
 * Every SEC filer with a ticker, searchable by ticker, by name ("Apple", "Apple Inc."), by the
 * start of a name ("Johnson" → several), and with tolerance for typos ("Microsft").
 */
export class CompanyIndex {
  readonly #byCik = new Map<number, CompanyEntry>();
  readonly #byTicker = new Map<string, CompanyEntry>();
  readonly #names = new Map<string, CompanyEntry[]>();
  readonly #variants = new Map<string, CompanyEntry[]>();
  readonly #byFirstWord = new Map<string, CompanyEntry[]>();
  readonly #keys: string[] = [];

  static fromTickers(file: CompanyTickersFile): CompanyIndex {
    const rows = Object.entries(file)
      .map(([k, v]) => ({ order: Number(k), ...v }))
      .filter((r) => Number.isSafeInteger(Number(r.cik_str)) && typeof r.ticker === 'string' && typeof r.title === 'string')
      .sort((a, b) => a.order - b.order);
    const index = new CompanyIndex();
    for (const r of rows) index.#add(Number(r.cik_str), r.ticker, r.title);
    index.#addAliases();
    return index;
  }

  get size(): number {
    return this.#byCik.size;
  }

  #add(cik: number, ticker: string, title: string): void {
    const existing = this.#byCik.get(cik);
    if (existing) {
      existing.tickers.push(ticker);
      this.#byTicker.set(normTicker(ticker), existing);
      return;
    }
    const words = coreName(title);
    const entry: CompanyEntry = { cik, ticker, name: title, rank: this.#byCik.size, tickers: [ticker], words };
    this.#byCik.set(cik, entry);
    this.#byTicker.set(normTicker(ticker), entry);
    if (!words.length) return;
    push(this.#names, words.join(' '), entry);
    for (const v of nameVariants(words)) push(this.#variants, v.join(' '), entry);
    push(this.#byFirstWord, words[0]!, entry);
  }

  #addAliases(): void {
    for (const [alias, ticker] of Object.entries(ALIASES)) {
      const entry = this.#byTicker.get(normTicker(ticker));
      if (entry && !this.#names.has(alias)) push(this.#variants, alias, entry);
    }
    this.#keys.push(...this.#names.keys(), ...this.#variants.keys());
  }

  byCik(cik: number): CompanyEntry | undefined {
    return this.#byCik.get(cik);
  }

  byTicker(ticker: string): CompanyEntry | undefined {
    return this.#byTicker.get(normTicker(ticker));
  }

  /** Companies whose name is exactly these words (legal suffixes aside), best tier first. */
  exact(words: string[]): CompanyEntry[] {
    const key = words.join(' ');
    return this.#names.get(key) ?? this.#variants.get(key) ?? [];
  }

  /** Companies whose name starts with these words, largest first. */
  prefix(words: string[]): CompanyEntry[] {
    if (!words.length) return [];
    const start = this.#byFirstWord.get(words[0]!) ?? [];
    return start.filter((e) => words.every((w, i) => e.words[i] === w)).sort((a, b) => a.rank - b.rank);
  }

  /** Companies whose name is one or two typos away from the phrase, closest and largest first. */
  fuzzy(phrase: string): CompanyEntry[] {
    if (phrase.length < 4) return [];
    const cap = phrase.length <= 6 ? 1 : 2;
    const scored = new Map<number, { entry: CompanyEntry; d: number }>();
    for (const key of this.#keys) {
      const d = editDistance(phrase, key, cap);
      if (d > cap) continue;
      for (const entry of this.#names.get(key) ?? this.#variants.get(key) ?? []) {
        const seen = scored.get(entry.cik);
        if (!seen || d < seen.d) scored.set(entry.cik, { entry, d });
      }
    }
    return [...scored.values()].sort((a, b) => a.d - b.d || a.entry.rank - b.entry.rank).map((s) => s.entry);
  }

  /** A company named by a ticker or (part of) a name. */
  lookup(text: string): CompanyLookup {
    const tokens = tokenize(text);
    if (tokens.length === 1) {
      const byTicker = this.byTicker(tokens[0]!.raw);
      if (byTicker && (tokens[0]!.raw === tokens[0]!.raw.toUpperCase() || !this.exact([tokens[0]!.norm]).length)) return { status: 'found', company: refOf(byTicker) };
    }
    return this.lookupWords(tokens.map((t) => t.norm));
  }

  lookupWords(words: string[]): CompanyLookup {
    const core = coreName(words.join(' '));
    const exact = dedupe(this.exact(core));
    if (exact.length === 1) return { status: 'found', company: refOf(exact[0]!) };
    if (exact.length > 1) return { status: 'ambiguous', candidates: exact.map(refOf) };
    const prefix = dedupe(this.prefix(core));
    if (prefix.length === 1) return { status: 'found', company: refOf(prefix[0]!) };
    if (prefix.length > 1) return { status: 'ambiguous', candidates: prefix.map(refOf) };
    const close = this.fuzzy(core.join(' '));
    if (close.length === 1) return { status: 'found', company: refOf(close[0]!), fuzzy: true };
    return { status: 'unknown', suggestions: close.slice(0, 5).map(refOf) };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

function dedupe(entries: CompanyEntry[]): CompanyEntry[] {
  return [...new Map(entries.map((e) => [e.cik, e])).values()].sort((a, b) => a.rank - b.rank);
}
