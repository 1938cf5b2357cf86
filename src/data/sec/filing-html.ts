import { Parser } from 'htmlparser2';
import type { Align, Block, DocumentPage, TableCell } from '../documents/model.js';

/** An `xbrli:context`: the period a tagged fact is for, and whether it is a dimensional breakdown. */
export interface XbrlContext {
  id: string;
  start: string | null;
  end: string | null;
  instant: string | null;
  /** Has an `xbrli:segment`/`scenario` (axis/member): a breakdown, not the company-wide figure. */
  dimensional: boolean;
}

/** An `ix:nonFraction` element: a number shown in the document and tagged with its concept. */
export interface IxFact {
  name: string;
  contextRef: string;
  unitRef: string | null;
  /** `decimals` as a number; null for INF or absent. */
  decimals: number | null;
  scale: number;
  sign: 1 | -1;
  format: string | null;
  /** The text shown, e.g. "85,777". */
  text: string;
  /** 1-based page it is shown on. */
  page: number;
  /** Inside `ix:hidden`: tagged but not shown on any page. */
  hidden: boolean;
  /** The first cell of the table row it is in ("Total net sales"), when in a table. */
  rowLabel: string | null;
}

export interface ParsedFiling {
  pages: DocumentPage[];
  facts: IxFact[];
  contexts: Map<string, XbrlContext>;
  title: string | null;
}

const BLOCK = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'center', 'section', 'article', 'header', 'footer', 'blockquote', 'pre', 'dl', 'dt', 'dd',
  'address', 'form', 'fieldset', 'figure', 'main', 'nav', 'aside', 'caption', 'hr', 'br', 'body', 'html',
]);
const NOT_SHOWN = new Set(['head', 'script', 'style', 'title', 'template', 'noscript', 'ix:header']);
const BOLD_TAGS = new Set(['b', 'strong', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Pages with more than this much (a hundred characters or a table row per unit) are split, so any page can be printed. */
const MAX_PAGE_UNITS = 1800;

interface Frame {
  name: string;
  skip: boolean;
  bold: boolean;
  align: Align | null;
  breakAfter: boolean;
}

/** An `ix:nonFraction` being read: its page is known once its text shows. */
type PendingFact = Omit<IxFact, 'page'> & { page: number | null };

interface CellState {
  parts: string[];
  boldChars: number;
  chars: number;
  colspan: number;
  align: Align;
}

interface TableState {
  rows: TableCell[][];
  row: TableCell[] | null;
  cell: CellState | null;
  /** Tables inside a cell of this one: their text goes into the cell. */
  nested: number;
  /** Facts in the row being read, to be given the row's label when it ends. */
  rowFacts: PendingFact[];
}

const normStyle = (style: string | undefined) => (style ?? '').toLowerCase().replace(/\s+/g, '');

function breakBefore(style: string, cls: string): boolean {
  return style.includes('page-break-before:always') || style.includes('break-before:page') || /(^|\s)(brpfpagebreak|pagebreak|page-break)(\s|$)/.test(cls);
}

function breakAfter(style: string): boolean {
  // Fixed-size page boxes (US letter, either way round) end a page as well.
  return style.includes('page-break-after:always') || style.includes('break-after:page') || /(^|;)height:(792pt|11in|612pt|8\.5in)(;|$)/.test(style);
}

function alignOf(style: string, attrs: Record<string, string>): Align | null {
  const m = /text-align:(left|center|right)/.exec(style);
  const a = m?.[1] ?? attrs.align?.toLowerCase();
  return a === 'left' || a === 'center' || a === 'right' ? a : null;
}

const isBoldStyle = (style: string) => /font-weight:(bold|bolder|[6-9]00)/.test(style);
const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const collapse = (s: string) => s.replace(/[\s\u00a0\u200b]+/g, ' ');

/**
 * Reads a filing's HTML (inline XBRL or plain) into pages, following the filing's own page
 * breaks: `page-break-before/after: always`, `break-before/after: page` (the `<hr>` separators
 * Workiva writes), page-break classes and fixed-size page boxes. A break counts only when the
 * page before it has content, so pages are never blank and page n = 1 + the breaks before.
 * Records every `ix:nonFraction` with its page and the `xbrli:context`s they refer to.
 */
export function parseFiling(html: string): ParsedFiling {
  const pages: DocumentPage[] = [];
  let blocks: Block[] = [];
  let pageUnits = 0;
  let pendingBreak = false;
  const facts: IxFact[] = [];
  const contexts = new Map<string, XbrlContext>();
  const stack: Frame[] = [];
  let skipDepth = 0;
  let hiddenDepth = 0;
  let title: string | null = null;
  let inTitle = false;
  const tables: TableState[] = [];
  const openFacts: PendingFact[] = [];
  let para: string[] = [];
  let paraBold = 0;
  let paraChars = 0;
  let context: XbrlContext | null = null;
  let contextField: 'start' | 'end' | 'instant' | null = null;

  const bold = () => stack.some((f) => f.bold);
  const align = (): Align => {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.align) return stack[i]!.align!;
    return 'left';
  };
  const table = () => tables.at(-1) ?? null;
  const hasContent = () => blocks.length > 0 || para.join('').trim() !== '' || tables.some((t) => t.rows.length > 0);

  function flushParagraph(): void {
    const text = para
      .join('')
      .split('\n')
      .map((l) => collapse(l).trim())
      .filter(Boolean)
      .join('\n');
    if (text) {
      blocks.push({ kind: 'text', text, bold: paraBold * 2 >= paraChars && paraChars > 0, align: align() });
      pageUnits += 1 + Math.ceil(text.length / 100);
    }
    para = [];
    paraBold = 0;
    paraChars = 0;
  }

  /** Puts the rows read so far of the open tables on the current page (a break inside a table splits it). */
  function flushTableRows(): void {
    for (const t of tables) {
      if (t.rows.length) blocks.push({ kind: 'table', rows: t.rows });
      t.rows = [];
    }
  }

  function newPage(): void {
    flushParagraph();
    flushTableRows();
    pages.push({ blocks });
    blocks = [];
    pageUnits = 0;
    // A row cut by the break is printed whole on the new page, with its figures.
    for (const t of tables) for (const f of t.rowFacts) if (f.page === pages.length) f.page = pages.length + 1;
  }

  function breakHere(): void {
    pendingBreak = false;
    if (hasContent()) newPage();
  }

  /** Content is about to appear: a break waiting since the end of the previous element takes effect. */
  function beforeContent(): void {
    if (pendingBreak) breakHere();
    else if (pageUnits > MAX_PAGE_UNITS) breakHere();
  }

  function blockBoundary(): void {
    const t = table();
    if (t?.cell) t.cell.parts.push('\n');
    else if (!t) flushParagraph();
  }

  function endCell(t: TableState): void {
    const c = t.cell;
    if (!c) return;
    const text = c.parts
      .join('')
      .split('\n')
      .map((l) => collapse(l).trim())
      .filter(Boolean)
      .join('\n');
    t.row ??= [];
    t.row.push({ text, colspan: c.colspan, bold: c.chars > 0 && c.boldChars * 2 >= c.chars, align: c.align });
    t.cell = null;
  }

  function endRow(t: TableState): void {
    endCell(t);
    if (t.row?.some((c) => c.text)) {
      t.rows.push(t.row);
      pageUnits += 1;
      const label = t.row.find((c) => c.text)?.text ?? null;
      for (const f of t.rowFacts) f.rowLabel ??= label;
    }
    t.row = null;
    t.rowFacts = [];
  }

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const style = normStyle(attrs.style);
        const cls = (attrs.class ?? '').toLowerCase();
        const local = localName(name);
        const hidden = skipDepth > 0 || NOT_SHOWN.has(name) || style.includes('display:none');
        const frame: Frame = { name, skip: hidden, bold: BOLD_TAGS.has(name) || isBoldStyle(style), align: alignOf(style, attrs), breakAfter: false };
        if (name === 'title') inTitle = true;

        if (local === 'context' && attrs.id) context = { id: attrs.id, start: null, end: null, instant: null, dimensional: false };
        else if (context && (local === 'segment' || local === 'scenario')) context.dimensional = true;
        else if (context && local === 'startdate') contextField = 'start';
        else if (context && local === 'enddate') contextField = 'end';
        else if (context && local === 'instant') contextField = 'instant';
        if (name === 'ix:hidden') hiddenDepth++;

        if (name === 'ix:nonfraction') {
          const open: PendingFact = {
            name: attrs.name ?? '',
            contextRef: attrs.contextref ?? '',
            unitRef: attrs.unitref ?? null,
            decimals: attrs.decimals && /^-?\d+$/.test(attrs.decimals) ? Number(attrs.decimals) : null,
            scale: attrs.scale && /^-?\d+$/.test(attrs.scale) ? Number(attrs.scale) : 0,
            sign: attrs.sign === '-' ? -1 : 1,
            format: attrs.format ?? null,
            hidden: hiddenDepth > 0 || hidden,
            page: null,
            text: '',
            rowLabel: null,
          };
          openFacts.push(open);
          const t = table();
          if (t && !open.hidden) t.rowFacts.push(open);
        }

        if (hidden) {
          skipDepth++;
          stack.push(frame);
          return;
        }

        if (breakBefore(style, cls)) breakHere();
        frame.breakAfter = breakAfter(style);

        const t = table();
        if (name === 'table') {
          if (t?.cell) {
            t.nested++;
          } else {
            flushParagraph();
            tables.push({ rows: [], row: null, cell: null, nested: 0, rowFacts: [] });
          }
        } else if (t && t.nested === 0 && name === 'tr') {
          endRow(t);
          t.row = [];
        } else if (t && t.nested === 0 && (name === 'td' || name === 'th')) {
          endCell(t);
          const colspan = Math.max(1, Math.min(50, Number.parseInt(attrs.colspan ?? '1', 10) || 1));
          t.cell = { parts: [], boldChars: 0, chars: 0, colspan, align: frame.align ?? 'left' };
        } else if (t && t.nested > 0 && (name === 'td' || name === 'th' || name === 'tr')) {
          t.cell?.parts.push(name === 'tr' ? '\n' : ' ');
        } else if (BLOCK.has(name)) {
          blockBoundary();
        }
        stack.push(frame);
      },

      ontext(raw) {
        if (inTitle && title === null && raw.trim()) title = collapse(raw).trim();
        if (context && contextField) {
          const v = raw.trim();
          if (v) context[contextField] = (context[contextField] ?? '') + v;
        }
        for (const f of openFacts) f.text += raw;
        if (skipDepth > 0) return;
        const visible = raw.replace(/[\s\u00a0\u200b]+/g, '') !== '';
        if (visible) {
          beforeContent();
          for (const f of openFacts) if (!f.hidden) f.page ??= pages.length + 1;
        }
        const t = table();
        const isBold = bold();
        const chars = visible ? raw.replace(/\s+/g, '').length : 0;
        if (t) {
          if (!t.cell) {
            if (!visible) return;
            // Text loose in a table (outside any cell) still belongs to it: give it a cell of its own.
            t.row ??= [];
            t.cell = { parts: [], boldChars: 0, chars: 0, colspan: 1, align: 'left' };
          }
          t.cell.parts.push(raw);
          t.cell.chars += chars;
          if (isBold) t.cell.boldChars += chars;
        } else {
          para.push(raw);
          paraChars += chars;
          if (isBold) paraBold += chars;
        }
      },

      onclosetag(name) {
        if (name === 'title') inTitle = false;
        const local = localName(name);
        if (local === 'context' && context) {
          contexts.set(context.id, context);
          context = null;
        } else if (local === 'startdate' || local === 'enddate' || local === 'instant') contextField = null;
        if (name === 'ix:hidden') hiddenDepth = Math.max(0, hiddenDepth - 1);
        if (name === 'ix:nonfraction') {
          const f = openFacts.pop();
          if (f) {
            // A fact that never showed any text is on no page, like one in ix:hidden. The object
            // itself is kept: its row label arrives when the table row ends.
            f.text = collapse(f.text).trim();
            f.hidden ||= f.page === null;
            f.page ??= 0;
            facts.push(f as IxFact);
          }
        }
        // Close up to the matching frame (HTML allows omitted end tags).
        let at = -1;
        for (let i = stack.length - 1; i >= 0; i--) {
          if (stack[i]!.name === name) {
            at = i;
            break;
          }
        }
        if (at === -1) return;
        while (stack.length > at) {
          const frame = stack.pop()!;
          if (frame.skip) {
            skipDepth = Math.max(0, skipDepth - 1);
            continue;
          }
          closeFrame(frame);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );

  function closeFrame(frame: Frame): void {
    const t = table();
    const name = frame.name;
    if (name === 'table' && t) {
      if (t.nested > 0) t.nested--;
      else {
        endRow(t);
        tables.pop();
        if (t.rows.length) blocks.push({ kind: 'table', rows: t.rows });
      }
    } else if (t && t.nested === 0 && name === 'tr') endRow(t);
    else if (t && t.nested === 0 && (name === 'td' || name === 'th')) endCell(t);
    else if (BLOCK.has(name)) blockBoundary();
    if (frame.breakAfter) pendingBreak = true;
  }

  parser.write(html);
  parser.end();
  while (stack.length) {
    const frame = stack.pop()!;
    if (!frame.skip) closeFrame(frame);
  }
  while (tables.length) {
    const t = tables.pop()!;
    endRow(t);
    if (t.rows.length) blocks.push({ kind: 'table', rows: t.rows });
  }
  flushParagraph();
  if (blocks.length || !pages.length) pages.push({ blocks });
  return { pages, facts, contexts, title };
}
