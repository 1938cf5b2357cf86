import type { AgentEvent } from '../types.js';

/** "Can you chart it?", "graph that", "plot revenue": the table's figures drawn as bars too. */
export const CHART_ASKED = /\b(?:chart|graph|plot|visuali[sz]e|draw|bar chart|sparkline)\b/i;

/** The most figures of a table drawn, and the width of the longest bar. */
const MAX_CHARTS = 3;
const WIDTH = 30;

/**
 * An answer with a bar chart of each figure of its first table (its bold rows, not the growth rows
 * under them) before it, in a code block so that it keeps its columns everywhere Markdown is shown.
 * The answer is passed on unchanged when it has no table of numbers.
 */
export async function* withCharts(events: AsyncIterable<AgentEvent>): AsyncGenerator<AgentEvent> {
  let text = '';
  const held: AgentEvent[] = [];
  for await (const e of events) {
    if (e.type === 'text') text += e.delta;
    // Progress goes out as it comes (a stream shows it while the figures are read); the rest follows the text.
    else if (e.type === 'progress') yield e;
    else held.push(e);
  }
  const charts = chartsOf(text);
  yield { type: 'text', delta: charts ? `${charts}\n\n${text}` : text };
  for (const e of held) yield e;
}

/** Bar charts of a Markdown table's bold rows ("| **Revenue** ($ million) | 64,727† | …"), or null. */
export function chartsOf(text: string): string | null {
  const lines = text.split('\n');
  const head = lines.findIndex((l) => /^\| *\| /.test(l));
  if (head < 0) return null;
  const periods = cells(lines[head]!).slice(1).map((c) => c.replace(/\s*(?:\[\d+\])+$/, '').trim());
  const rows = lines
    .slice(head + 2)
    .filter((l, i, all) => l.startsWith('|') && all.slice(0, i).every((x) => x.startsWith('|')))
    .map(cells)
    .filter((c) => /^\*\*.+\*\*/.test(c[0]!));
  const charts = rows.slice(0, MAX_CHARTS).flatMap((row) => {
    const values = row.slice(1).map((c) => {
      const n = Number(c.replace(/[,†‡*%$\s]/g, '').replace(/^−/, '-'));
      return c.trim() && !/^[—-]$/.test(c.trim()) && Number.isFinite(n) ? n : null;
    });
    const known = values.filter((v): v is number => v !== null);
    if (known.length < 2) return [];
    const top = Math.max(...known.map(Math.abs)) || 1;
    const label = row[0]!.replace(/\*\*/g, '');
    const pad = Math.max(...periods.map((p) => p.length));
    const bars = periods.map((p, i) => {
      const v = values[i];
      if (v === undefined || v === null) return `${p.padEnd(pad)}  (no figure)`;
      const n = Math.max(v === 0 ? 0 : 1, Math.round((Math.abs(v) / top) * WIDTH));
      return `${p.padEnd(pad)}  ${(v < 0 ? '▒' : '█').repeat(n).padEnd(WIDTH)}  ${row[i + 1]!.trim()}`;
    });
    return [`${label}${known.some((v) => v < 0) ? ' (▒ below zero)' : ''}`, ...bars, ''];
  });
  return charts.length ? `\`\`\`\n${charts.join('\n').trimEnd()}\n\`\`\`` : null;
}

const cells = (line: string) => line.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
