import type { FormInstructed } from '../instructions.js';
import type { Answer } from '../types.js';
import { cited } from './report-rows.js';
import { figureNotes } from './restate.js';

// Odds said in the form instructions ask ("Reply with just the number.", "Answer as a table."):
// the router's answers about prices of Kalshi outcomes (a stored report's outcome line, the
// market's favourite, a search's listing of events) have a natural number, the price of the one
// outcome asked, and a natural table, one row an outcome. The same prices, citations and notes as
// the answer; null where the answer has no such form (a whole report, several events' prices for
// "just the number", an answer of no prices).

/** One outcome's prices as an answer says them: its name, its columns in order, its citation markers, whether the question named it. */
interface OddsRow {
  event: string | null;
  outcome: string;
  cells: [string, string][];
  refs: string;
  asked: boolean;
}

const PCT = String.raw`[+−-]?\d+(?:\.\d+)?%`;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "- **Hold**: market 16.0% (mid; 14.5% normalised), model 12.4%, gap −2.1 pts [1]". */
function outcomeLine(line: string): OddsRow | null {
  const m = /^-\s+\*\*([^*]+?)\*\*:\s+(.+?)\s*((?:\[\d+\])+)\.?\s*$/.exec(line);
  if (!m) return null;
  const cells = m[2]!.split(/,\s+(?![^(]*\))/).map((c) => /^(market|model|gap|price|last trade|bid|ask)\s+(.+)$/i.exec(c.trim()));
  if (!cells.length || cells.some((c) => !c) || !cells.some((c) => new RegExp(PCT).test(c![2]!))) return null;
  return { event: null, outcome: m[1]!, cells: cells.map((c) => [capital(c![1]!), c![2]!]), refs: m[3]!, asked: true };
}

/** "The market's favourite is **Hike 25bps** at 51.5% (mid; 46.6% normalised); the model gives it 50.8% (gap +4.2 pts) [1]." */
function favouriteLine(line: string): OddsRow | null {
  const m = new RegExp(String.raw`^The market's favourite is \*\*([^*]+)\*\* at (${PCT}(?:\s*\([^)]*\))?);\s+the model gives it (${PCT})(?:\s*\(gap ([^)]+)\))?\s*((?:\[\d+\])+)`).exec(line);
  if (!m) return null;
  const cells: [string, string][] = [['Market', m[2]!], ['Model', m[3]!]];
  if (m[4]) cells.push(['Gap', m[4]]);
  return { event: null, outcome: m[1]!, cells, refs: m[5]!, asked: true };
}

/** A search's listing, "1. **Title** (TICKER, Category) [1]: **A 33.0%**; B 51.5%. Closes … Together, “A” and “B”: about 43.0% …", an outcome a row. */
function listingLine(line: string): { rows: OddsRow[]; together: string | null; tail: string[] } | null {
  const m = /^\d+\.\s+\*\*(.+?)\*\*\s+\([^)]*\)\s*((?:\[\d+\])+):\s+(.+?)\.\s+(?:Closes|Closed)\b/.exec(line);
  if (!m) return null;
  const rows = m[3]!.split(/;\s*/).flatMap((o): OddsRow[] => {
    const x = new RegExp(String.raw`^(\*\*)?(.+?)\s+(${PCT}(?:\s*\([^)]*\))?)(\*\*)?$`).exec(o.trim());
    return x ? [{ event: m[1]!, outcome: x[2]!, cells: [['Price', x[3]!]], refs: m[2]!, asked: Boolean(x[1]) }] : [];
  });
  const together = /\bTogether, (.+?): about (\d+(?:\.\d+)?%)/.exec(line);
  // What the listing says of the event after its prices (when it closes, prices that cross), but their total.
  const tail = line.slice(m[0].length - /(?:Closes|Closed)$/.exec(m[0])![0].length).split(/(?<=\.)\s+(?=[A-Z“"])/).filter((x) => !/^Together\b/.test(x));
  return rows.length ? { rows, together: together ? `${together[2]}\u0000${together[1]}` : null, tail } : null;
}

/** The answer's outcome prices, with the total of those the question named when the answer gives it. */
function oddsOf(text: string): { rows: OddsRow[]; together: string | null; listings: number; tail: string[] } | null {
  const rows: OddsRow[] = [];
  const tail: string[] = [];
  let together: string | null = null;
  let listings = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || /^_[^_].*_$/.test(line)) continue;
    const listed = listingLine(line);
    if (listed) {
      listings++;
      rows.push(...listed.rows);
      together ??= listed.together;
      tail.push(...listed.tail.map((t) => `${listed.rows[0]!.event}\u0000${t}`));
      continue;
    }
    const row = outcomeLine(line) ?? favouriteLine(line);
    if (row) rows.push(row);
    // (Any other line of figures or claims: the answer says more than prices, and is given as it is.)
    else if (/^(?:[-*|#]|\d+\.)/.test(line)) return null;
  }
  return rows.length ? { rows, together, listings, tail } : null;
}

/** A row's name: its outcome, under its event's title when the answer lists several events. */
const named = (r: OddsRow, events: number) => (events > 1 && r.event ? `${r.event}: ${r.outcome}` : r.outcome);

/**
 * Odds in the form asked: "just the number", the price of the one outcome the answer is about
 * (or the total of those the question named, as the answer adds them up); "a table", a row an
 * outcome with the columns the answer gives. Null where the answer has no such form.
 */
export function oddsInForm(answer: Answer, asked: FormInstructed): Answer | null {
  if (asked.form !== 'number' && asked.form !== 'table') return null;
  const odds = oddsOf(answer.text);
  if (!odds) return null;
  // (The number leaves out when its event closes, but not a caveat on its prices; a closed one is among the notes.)
  const tail = odds.tail.map((t) => t.split('\u0000') as [string, string]).filter(([, t]) => !/^Closed\b/.test(t) && (asked.form !== 'number' || !/^Closes\b[^.]*\.$/.test(t)));
  const notes = [...tail.map(([event, t]) => `_${odds.listings > 1 ? `${event}: ` : ''}${t.replace(/\.$/, '')}._`), ...figureNotes(answer.text)];
  const foot = notes.length ? `\n${notes.join('\n')}\n` : '';
  const events = new Set(odds.rows.map((r) => r.event ?? '')).size;
  if (asked.form === 'number') {
    // (Several events' prices have no one number, whichever outcome the question named.)
    if (odds.listings > 1) return null;
    const chosen = odds.rows.filter((r) => r.asked);
    const one = chosen.length === 1 ? chosen[0]! : odds.rows.length === 1 ? odds.rows[0]! : null;
    if (one) {
      const [column, value] = one.cells[0]!;
      const price = new RegExp(PCT).exec(value)![0];
      const what = column === 'Model' ? 'the svc model' : 'the Kalshi market price';
      return cited(`**${price}** (${what} of “${one.outcome}”${one.event ? `, ${one.event}` : ''}) ${one.refs}\n${foot}`, answer.citations);
    }
    // Several outcomes the question named, which the answer adds up: their total.
    if (odds.together && odds.listings === 1 && chosen.length > 1) {
      const [total, which] = odds.together.split('\u0000');
      return cited(`**${total}** (the Kalshi prices of ${which} together, ${chosen[0]!.event}) ${chosen[0]!.refs}\n${foot}`, answer.citations);
    }
    return null;
  }
  const columns = [...new Set(odds.rows.flatMap((r) => r.cells.map(([c]) => c)))];
  const head = `| ${events > 1 ? 'Event and outcome' : 'Outcome'} | ${columns.join(' | ')} |`;
  const rule = `|${'---|'.repeat(columns.length + 1)}`;
  const body = odds.rows.map((r) => `| ${named(r, events)} ${r.refs} | ${columns.map((c) => r.cells.find(([k]) => k === c)?.[1] ?? '—').join(' | ')} |`);
  const title = events === 1 && odds.rows[0]!.event ? `**${odds.rows[0]!.event}**\n\n` : '';
  return cited(`${title}${head}\n${rule}\n${body.join('\n')}\n${foot}`, answer.citations);
}
