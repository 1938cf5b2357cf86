import type { SecLibrary } from '../../data/sec/library.js';
import type { SecQuestion } from '../../data/sec/question.js';
import { possessive, shortName } from '../../data/sec/names.js';
import { SourceList } from '../citations.js';
import type { AgentEvent } from '../types.js';
import { planAnswer } from './plan.js';
import { itemsOf, tag, whenShort, type Item } from './restate.js';

/**
 * Arithmetic asked of the figures just given, naming nothing new: "average of the three?",
 * "difference?", "how many times higher?". Each answer says what it computed and cites its inputs.
 */

export type Operation = 'average' | 'difference' | 'times';

const LEAD = String.raw`^\W*(?:(?:and|so|ok(?:ay)?|now|then|but)\W+)*(?:what(?:'s| is| was)\s+)?(?:the\s+)?`;
const OF_THEM = String.raw`(?:\s+(?:of|between|for)\s+(?:the|those|these|them|all|both)(?:\s+(?:two|three|four|five|six|\d|of them|companies|figures|numbers))?)?`;
const OPERATIONS: [Operation, RegExp][] = [
  ['average', new RegExp(`${LEAD}(?:simple\\s+)?(?:average|avg|mean)${OF_THEM}\\W*$`, 'i')],
  ['difference', new RegExp(`${LEAD}(?:difference|diff|gap)${OF_THEM}(?:\\s+in\\s+(?:dollars|\\$|points|percentage points))?\\W*$`, 'i')],
  ['times', /\bhow many times\b|\bwhat multiple\b/i],
];

export function operationAsked(text: string): Operation | null {
  if (text.split(/\s+/).length > 14) return null;
  return OPERATIONS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

const money = (unit: string) => unit.startsWith('money:');
/** An amount as the filings state it, unrounded: "$112,390 million", "58.2%", "419.37x". */
function exact(item: Item, amount = item.amount): string {
  if (item.unit === 'percent') return `${amount.toFixed(1)}%`;
  if (item.unit === 'times') return `${amount.toFixed(2)}x`;
  if (money(item.unit) && Math.abs(amount) >= 1e6) return `${amount < 0 ? '-' : ''}$${Math.round(Math.abs(amount) / 1e6).toLocaleString('en-US')} million`;
  if (item.unit.startsWith('perShare')) return `$${amount.toFixed(2)} a share`;
  return item.value;
}

const named = (item: Item, others: Item[]) => {
  const sameCompany = others.every((o) => o.company.cik === item.company.cik);
  const sameLabel = others.every((o) => o.label === item.label);
  return sameCompany ? item.label : sameLabel ? shortName(item.company.name) : `${possessive(shortName(item.company.name))} ${item.label}`;
};
const inputs = (items: Item[]) => items.map((i) => `${named(i, items)} ${exact(i)} (${whenShort(i)}) ${i.refs}${tag(i)}`).join(', ');

function computed(op: Operation, items: Item[]): string | null {
  if (items.length < 2 || new Set(items.map((i) => i.unit)).size !== 1) return null;
  // Between companies, the answer's own lines weigh them (the gap, how many times as high); here, figures of one company.
  if (op !== 'average' && new Set(items.map((i) => i.company.cik)).size > 1) return null;
  const unit = items[0]!.unit;
  const ranked = [...items].sort((a, b) => b.amount - a.amount);
  const [top, bottom] = [ranked[0]!, ranked.at(-1)!];
  if (op === 'average') {
    const mean = items.reduce((a, i) => a + i.amount, 0) / items.length;
    const what = new Set(items.map((i) => i.label)).size === 1 ? `${items[0]!.label}s` : 'figures';
    return `**Average of the ${items.length} ${what}: ${exact(items[0]!, mean)}** (a simple average, each counted once): ${inputs(items)}.`;
  }
  if (op === 'difference') {
    const gap = top.amount - bottom.amount;
    const share = money(unit) && bottom.amount > 0 && top.amount > 0 ? `; ${named(bottom, items)} is ${((100 * bottom.amount) / top.amount).toFixed(1)}% of ${named(top, items)}` : '';
    const apart = unit === 'percent' ? `${gap.toFixed(1)} percentage points` : exact(top, gap);
    return `**${apart}**: ${named(top, items)} ${exact(top)} ${top.refs} minus ${named(bottom, items)} ${exact(bottom)} ${bottom.refs} (${whenShort(top)}${whenShort(bottom) === whenShort(top) ? '' : `; ${whenShort(bottom)}`})${share}.`;
  }
  if (!(bottom.amount > 0)) return null;
  const x = top.amount / bottom.amount;
  return `**${x >= 10 ? x.toFixed(1) : x.toFixed(2)} times**: ${named(top, items)} ${exact(top)} ${top.refs} over ${named(bottom, items)} ${exact(bottom)} ${bottom.refs} (${whenShort(top)}${whenShort(bottom) === whenShort(top) ? '' : `; ${whenShort(bottom)}`}).`;
}

/** The operation on the figures the question resolves to; null when they are not two or more of one kind. */
export async function computedAnswer(lib: SecLibrary, question: SecQuestion, op: Operation): Promise<AgentEvent[] | null> {
  if (question.shareOf) return null;
  const plan = await planAnswer(lib, question, { progress: () => {} });
  const sources = new SourceList();
  const body = computed(op, await itemsOf(lib, plan, sources));
  if (!body) return null;
  const used = [...new Set(body.match(/\[\d+\]/g) ?? [])];
  const renumber = new Map(used.map((ref, i) => [ref, `[${i + 1}]`]));
  const text = body.replace(/\[\d+\]/g, (ref) => renumber.get(ref)!).replace(/ +([.,;)])/g, '$1');
  const citations = used.map((ref, i) => ({ ...sources.list.find((c) => `[${c.order}]` === ref)!, order: i + 1 }));
  const note = lib.dataNote();
  return [{ type: 'text', delta: `${text}\n${note ? `\n_${note}_\n` : ''}` }, ...citations.map((citation) => ({ type: 'citation' as const, citation })), { type: 'done' }];
}
