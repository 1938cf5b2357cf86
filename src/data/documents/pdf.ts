import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Align, Block, DocumentPage, PagedDocument, TableBlock } from './model.js';

/**
 * Renders a paged document to PDF with the standard Helvetica fonts (nothing to install, no
 * browser): one PDF page per document page, so page n of the PDF is page n of the document.
 * Text is wrapped; tables keep their rows and columns (spacer columns dropped, "$" and ")"
 * joined to their figures, numbers right-aligned). A page with more than fits is set smaller,
 * then on a taller sheet, never split.
 */

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MAX_PAGE_HEIGHT = 14_400; // the largest page PDF viewers accept
const MARGIN_X = 40;
const MARGIN_TOP = 40;
const MARGIN_BOTTOM = 36;
const TEXT_SIZE = 9;
const TABLE_SIZE = 8;
const LINE = 1.25;
const CELL_PAD = 2;
const SCALES = [1, 0.9, 0.8, 0.7, 0.6];

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

interface TextOp {
  text: string;
  x: number;
  /** Baseline, measured down from the top of the page. */
  top: number;
  size: number;
  bold: boolean;
}

interface ShadeOp {
  x: number;
  top: number;
  width: number;
  height: number;
}

interface Layout {
  height: number;
  texts: TextOp[];
  shades: ShadeOp[];
}

// WinAnsi (the standard fonts' encoding) lacks some characters filings use; say them in ASCII.
const REPLACEMENTS: Record<string, string> = {
  '\u2610': '[ ]',
  '\u2611': '[X]',
  '\u2612': '[X]',
  '\u25a1': '[ ]',
  '\u25a0': '[X]',
  '\u2212': '-',
  '\u2010': '-',
  '\u2011': '-',
  '\u00a0': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u200b': '',
  '\ufeff': '',
  '\u2060': '',
};

function sanitizer(font: PDFFont): (text: string) => string {
  const ok = new Map<string, boolean>();
  const encodable = (ch: string) => {
    let v = ok.get(ch);
    if (v === undefined) {
      try {
        font.encodeText(ch);
        v = true;
      } catch {
        v = false;
      }
      ok.set(ch, v);
    }
    return v;
  };
  return (text) => {
    let out = '';
    for (const ch of text) {
      const r = REPLACEMENTS[ch];
      if (r !== undefined) out += r;
      else if (ch === '\t') out += ' ';
      // Line breaks are kept for wrap() and the table cells to split on (the font cannot encode them).
      else if (ch === '\n') out += ch;
      else out += encodable(ch) ? ch : '?';
    }
    return out;
  };
}

/** Splits text into lines no wider than `width` (words longer than a line are cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ').filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    if (line) lines.push(line);
  }
  return lines.length ? lines : [''];
}

const NUMERIC = /^[($€£¥]*\s*[-–—]?[\d.,]+\s*[)%]*$|^[-–—]$/;

interface GridCell {
  text: string;
  col: number;
  span: number;
  bold: boolean;
  align: Align;
}

/**
 * Table rows as a compact grid: "$" and "(" cells joined to the figure after them, ")" and "%"
 * to the figure before, and columns empty in every row (filings' spacers) dropped.
 */
export function compactTable(table: TableBlock): GridCell[][] {
  const rows = table.rows.map((row) => row.map((c) => ({ ...c })));
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const t = row[i]!.text;
      if (/^[)%]+$/.test(t)) {
        const prev = row.slice(0, i).reverse().find((c) => c.text);
        if (prev) {
          prev.text += t;
          row[i]!.text = '';
        }
      } else if (/^[$€£¥(]+$/.test(t)) {
        const next = row.slice(i + 1).find((c) => c.text);
        if (next) {
          next.text = t + next.text;
          row[i]!.text = '';
        }
      }
    }
  }
  const placed = rows.map((row) => {
    let col = 0;
    return row.map((c) => {
      const cell = { ...c, col, span: c.colspan };
      col += c.colspan;
      return cell;
    });
  });
  const width = Math.max(0, ...placed.map((r) => r.reduce((n, c) => n + c.span, 0)));
  const used = new Array<boolean>(width).fill(false);
  for (const row of placed) for (const c of row) if (c.text && c.span === 1) used[c.col] = true;
  for (const row of placed) {
    for (const c of row) {
      if (!c.text || c.span === 1) continue;
      let covered = false;
      for (let j = c.col; j < c.col + c.span; j++) covered ||= used[j]!;
      if (!covered) used[c.col] = true;
    }
  }
  const newIndex: number[] = [];
  let n = 0;
  for (let j = 0; j < width; j++) newIndex.push(used[j] ? n++ : -1);
  return placed
    .map((row) =>
      row.flatMap((c) => {
        let first = -1;
        let span = 0;
        for (let j = c.col; j < c.col + c.span; j++) {
          if (newIndex[j]! < 0) continue;
          if (first < 0) first = newIndex[j]!;
          span++;
        }
        if (first < 0 || !c.text) return [];
        // Headings spanning figure columns ("Three Months Ended") are centred over them.
        const align: Align = NUMERIC.test(c.text) ? 'right' : c.colspan > 1 && first > 0 ? 'center' : c.align;
        return [{ text: c.text, col: first, span, bold: c.bold, align }];
      }),
    )
    .filter((row) => row.length > 0);
}

class PageLayout {
  readonly texts: TextOp[] = [];
  readonly shades: ShadeOp[] = [];
  top = 0;

  constructor(
    private readonly fonts: Fonts,
    private readonly clean: (s: string) => string,
    private readonly scale: number,
    private readonly width: number,
  ) {}

  font(bold: boolean): PDFFont {
    return bold ? this.fonts.bold : this.fonts.regular;
  }

  text(block: Extract<Block, { kind: 'text' }>): void {
    const size = TEXT_SIZE * this.scale;
    const font = this.font(block.bold);
    for (const line of wrap(this.clean(block.text), font, size, this.width)) {
      this.top += size * LINE;
      const w = font.widthOfTextAtSize(line, size);
      const x = MARGIN_X + (block.align === 'center' ? (this.width - w) / 2 : block.align === 'right' ? this.width - w : 0);
      this.texts.push({ text: line, x, top: this.top, size, bold: block.bold });
    }
    this.top += size * 0.5;
  }

  table(block: TableBlock): void {
    const grid = compactTable({ kind: 'table', rows: block.rows.map((r) => r.map((c) => ({ ...c, text: this.clean(c.text) }))) });
    if (!grid.length) return;
    const columns = Math.max(...grid.map((r) => r.reduce((m, c) => Math.max(m, c.col + c.span), 0)));
    let size = TABLE_SIZE * this.scale;
    let widths = this.#columnWidths(grid, columns, size);
    const minTotal = widths.min.reduce((a, b) => a + b, 0);
    if (minTotal > this.width) {
      size *= this.width / minTotal;
      widths = this.#columnWidths(grid, columns, size);
    }
    const colWidth = this.#distribute(widths.min, widths.natural);
    const colX: number[] = [];
    let x = MARGIN_X;
    for (const w of colWidth) {
      colX.push(x);
      x += w;
    }
    const lineHeight = size * LINE;
    grid.forEach((row, i) => {
      const cells = row.map((c) => {
        const w = colWidth.slice(c.col, c.col + c.span).reduce((a, b) => a + b, 0) - CELL_PAD * 2;
        return { c, w, lines: wrap(c.text, this.font(c.bold), size, Math.max(w, size)) };
      });
      const height = Math.max(...cells.map((cell) => cell.lines.length)) * lineHeight + CELL_PAD * 2;
      if (i % 2 === 1) this.shades.push({ x: MARGIN_X, top: this.top, width: this.width, height });
      for (const { c, w, lines } of cells) {
        lines.forEach((line, k) => {
          const lw = this.font(c.bold).widthOfTextAtSize(line, size);
          const offset = c.align === 'right' ? w - lw : c.align === 'center' ? (w - lw) / 2 : 0;
          this.texts.push({ text: line, x: colX[c.col]! + CELL_PAD + Math.max(0, offset), top: this.top + CELL_PAD + (k + 1) * lineHeight - size * 0.2, size, bold: c.bold });
        });
      }
      this.top += height;
    });
    this.top += TEXT_SIZE * this.scale * 0.6;
  }

  #columnWidths(grid: GridCell[][], columns: number, size: number): { min: number[]; natural: number[] } {
    const min = new Array<number>(columns).fill(CELL_PAD * 2 + size);
    const natural = new Array<number>(columns).fill(CELL_PAD * 2 + size);
    for (const row of grid) {
      for (const c of row) {
        if (c.span !== 1) continue;
        const font = this.font(c.bold);
        const lines = c.text.split('\n');
        const longestLine = Math.max(...lines.map((l) => font.widthOfTextAtSize(l, size)));
        const longestWord = Math.max(...c.text.split(/[\s\n]+/).map((w) => font.widthOfTextAtSize(w, size)));
        natural[c.col] = Math.max(natural[c.col]!, longestLine + CELL_PAD * 2);
        min[c.col] = Math.max(min[c.col]!, (NUMERIC.test(c.text) ? longestLine : longestWord) + CELL_PAD * 2);
      }
    }
    return { min, natural };
  }

  /** Each column gets its minimum, then a share of what is left in proportion to what it lacks. */
  #distribute(min: number[], natural: number[]): number[] {
    const minTotal = min.reduce((a, b) => a + b, 0);
    const naturalTotal = natural.reduce((a, b) => a + b, 0);
    if (naturalTotal <= this.width) return natural.map((n, j) => (j === 0 ? n + (this.width - naturalTotal) * 0.5 : n));
    const room = Math.max(0, this.width - minTotal);
    const lack = naturalTotal - minTotal;
    return min.map((m, j) => m + (lack > 0 ? ((natural[j]! - m) / lack) * room : 0));
  }
}

function layoutPage(page: DocumentPage, fonts: Fonts, clean: (s: string) => string, scale: number): Layout {
  const layout = new PageLayout(fonts, clean, scale, PAGE_WIDTH - MARGIN_X * 2);
  for (const block of page.blocks) {
    if (block.kind === 'text') layout.text(block);
    else layout.table(block);
  }
  return { height: layout.top, texts: layout.texts, shades: layout.shades };
}

/** The largest type that fits the page; a taller sheet when even the smallest does not. */
function fitPage(page: DocumentPage, fonts: Fonts, clean: (s: string) => string): { layout: Layout; pageHeight: number } {
  const room = PAGE_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM;
  let layout: Layout | null = null;
  for (const scale of SCALES) {
    layout = layoutPage(page, fonts, clean, scale);
    if (layout.height <= room) return { layout, pageHeight: PAGE_HEIGHT };
  }
  const tallest = MAX_PAGE_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM;
  if (layout!.height > tallest) layout = layoutPage(page, fonts, clean, SCALES.at(-1)! * (tallest / layout!.height) * 0.97);
  return { layout: layout!, pageHeight: Math.min(MAX_PAGE_HEIGHT, Math.ceil(layout!.height + MARGIN_TOP + MARGIN_BOTTOM)) };
}

function draw(pdfPage: PDFPage, layout: Layout, fonts: Fonts, pageHeight: number): void {
  for (const s of layout.shades) {
    pdfPage.drawRectangle({ x: s.x, y: pageHeight - MARGIN_TOP - s.top - s.height, width: s.width, height: s.height, color: rgb(0.95, 0.95, 0.96) });
  }
  for (const t of layout.texts) {
    pdfPage.drawText(t.text, { x: t.x, y: pageHeight - MARGIN_TOP - t.top, size: t.size, font: t.bold ? fonts.bold : fonts.regular, color: rgb(0, 0, 0) });
  }
}

export async function renderPdf(doc: PagedDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const fonts: Fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  const clean = sanitizer(fonts.regular);
  pdf.setTitle(clean(doc.title));
  pdf.setProducer('svc');
  pdf.setCreator('svc (Agent Research API)');
  const total = doc.pages.length;
  doc.pages.forEach((page, i) => {
    const { layout, pageHeight } = fitPage(page, fonts, clean);
    const pdfPage = pdf.addPage([PAGE_WIDTH, pageHeight]);
    draw(pdfPage, layout, fonts, pageHeight);
    const footer = clean(`${doc.footer} | page ${i + 1} of ${total}`);
    pdfPage.drawText(footer, { x: MARGIN_X, y: 16, size: 6, font: fonts.regular, color: rgb(0.45, 0.45, 0.45) });
  });
  return pdf.save();
}
