import type { Answer, Citation } from '../types.js';

// Questions about an event already reported on ("which outcome does the model favour?", "when
// does it close?"), answered from the stored report itself: its figures, quoted with the sources
// they cite, rather than the whole report again. The report is this service's own Markdown, so
// its sections and its outcome table are read by their headings and columns.

export type EventQuestion = 'model_favourite' | 'market_favourite' | 'gap' | 'closing' | 'resolution' | 'history' | 'moves';

const PATTERNS: [EventQuestion, RegExp][] = [
  ['gap', /\b(?:mispric\w*|gaps?|edge|cheap\w*|expensive|under-?valued|over-?valued|under-?priced|over-?priced|value|takeaway|bargain|disagree\w*)\b/i],
  ['model_favourite', /\bmodel\b/i],
  ['closing', /\b(?:clos(?:e|es|ing)|settl\w*|expir\w*|deadline|ends?|resolved? (?:on|by)|when (?:does|will|is) (?:it|this|the (?:event|market|contract)) (?:resolve|end|finish)\w*)\b/i],
  ['resolution', /\b(?:resolution|resolv\w*|rules?|source|criteria|count(?:s|ed)?|decides?|determin\w*|flip\w*)\b/i],
  ['moves', /\b(?:mov(?:e|ed|es|ing)|moves?|changed?|trend\w*|volume|surge\w*|momentum|shift\w*)\b/i],
  ['history', /\b(?:history|historical|past (?:events|results|outcomes|decisions)|previous (?:events|results|outcomes|decisions)|base ?rates?|track record|how often)\b/i],
  ['market_favourite', /\b(?:most likely|likel(?:y|iest)|favou?rite|favou?red|front-?runner|leading|leads|ahead|winner|win|pick|expected|consensus|top)\b/i],
];

/** What a follow-up asks about the event, or null when it asks for nothing the report answers on its own. */
export function eventQuestion(question: string): EventQuestion | null {
  const q = question.toLowerCase();
  // "Which outcome does the model favour?" is about the model; "most likely" alone, about the market.
  if (/\bmodel\b/.test(q) && !PATTERNS[0]![1].test(q)) return 'model_favourite';
  return PATTERNS.find(([, pattern]) => pattern.test(q))?.[0] ?? null;
}

interface Row {
  outcome: string;
  market: string;
  model: string;
  gap: string;
  modelValue: number;
  marketValue: number;
}

/** The report's sections by heading, and its outcome table's rows. */
function readReport(text: string): { sections: Map<string, string>; rows: Row[] } {
  const sections = new Map<string, string>();
  for (const part of text.split(/^## /m).slice(1)) {
    const nl = part.indexOf('\n');
    sections.set(part.slice(0, nl).trim().toLowerCase(), part.slice(nl + 1).trim());
  }
  const table = [...sections.entries()].find(([h]) => h.startsWith('outcomes'))?.[1] ?? '';
  const percent = (cell: string) => Number(/(\d+(?:\.\d+)?)%/.exec(cell)?.[1] ?? NaN);
  const rows = table
    .split('\n')
    .filter((l) => l.startsWith('|') && !l.startsWith('|---') && !l.startsWith('| Outcome |'))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))
    .filter((cells) => cells.length >= 4)
    .map(([outcome, market, model, gap]) => ({ outcome: outcome!, market: market!, model: model!, gap: gap!, modelValue: percent(model!), marketValue: percent(market!) }));
  return { sections, rows };
}

/** `text` with its [n] renumbered 1, 2, … in order of use, and those citations. */
function cited(text: string, all: readonly Citation[]): Answer {
  const order = new Map<number, number>();
  const body = text.replace(/\[(\d+)\]/g, (m, n: string) => {
    if (!all.some((c) => c.order === Number(n))) return m;
    if (!order.has(Number(n))) order.set(Number(n), order.size + 1);
    return `[${order.get(Number(n))}]`;
  });
  const citations = [...order].map(([from, to]) => ({ ...all.find((c) => c.order === from)!, order: to }));
  return { text: body, citations };
}

const bullets = (section: string | undefined, match: RegExp) => (section ?? '').split('\n').filter((l) => l.startsWith('- ') && match.test(l));
/** An outcome cell without its citation marker ("Hike 25bps [3]" → "Hike 25bps"), and that marker. */
const outcomeOf = (cell: string) => ({ name: cell.replace(/\s*(\[\d+\])+\s*$/, ''), refs: /(\[\d+\])+\s*$/.exec(cell)?.[0] ?? '' });

/**
 * The answer to a question about a reported event, from the report; null when the report does not
 * hold what is asked (the caller then shows the report whole).
 */
export function answerFromReport(kind: EventQuestion, report: { title: string; text: string; citations: readonly Citation[]; asOf: string }): Answer | null {
  const { sections, rows } = readReport(report.text);
  const from = `\n\n_From the stored report on **${report.title.replace(/[*_]/g, '')}**, as of ${report.asOf.slice(0, 16).replace('T', ' ')} UTC; ask for the event's address again for the whole report._\n`;
  const section = (start: string) => [...sections.entries()].find(([h]) => h.startsWith(start))?.[1];
  const best = (value: (r: Row) => number) => rows.filter((r) => Number.isFinite(value(r))).sort((a, b) => value(b) - value(a))[0];
  let text: string | null = null;
  switch (kind) {
    case 'model_favourite': {
      const top = best((r) => r.modelValue);
      if (top) {
        const { name, refs } = outcomeOf(top.outcome);
        text = `The model favours **${name}** at ${top.model}; the market prices it at ${top.market}, a gap of ${top.gap} ${refs}.`;
      }
      break;
    }
    case 'market_favourite': {
      const top = best((r) => r.marketValue);
      if (top) {
        const { name, refs } = outcomeOf(top.outcome);
        text = `The market's favourite is **${name}** at ${top.market}; the model gives it ${top.model} (gap ${top.gap}) ${refs}.`;
      }
      break;
    }
    case 'gap':
      text = section('key takeaway') ?? null;
      break;
    case 'closing': {
      const lines = bullets(section('key claims'), /^- \*\*(?:Trading closes|Closes|Expir)/);
      text = lines.length ? lines.join('\n') : null;
      break;
    }
    case 'resolution': {
      const lines = bullets(section('key claims'), /^- \*\*(?:Resolution source|Full rules|Could flip)/);
      text = lines.length ? lines.join('\n') : null;
      break;
    }
    case 'moves': {
      const lines = bullets(section('key claims'), /^- \*\*(?:Price move|Volume surge)/);
      text = lines.length ? lines.join('\n') : 'The report found no notable price move or volume surge over the last day and week.';
      break;
    }
    case 'history':
      text = section('resolution history') ?? null;
      break;
  }
  return text ? cited(`${text.trim()}${from}`, report.citations) : null;
}
