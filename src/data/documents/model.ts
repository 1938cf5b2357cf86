/**
 * A document as pages of blocks: what the HTML of a filing becomes, what the PDF renderer
 * lays out (one PDF page per document page), and what figures are looked up in.
 */

export type Align = 'left' | 'center' | 'right';

export interface TextBlock {
  kind: 'text';
  /** May hold line breaks (`\n`). */
  text: string;
  bold: boolean;
  align: Align;
}

export interface TableCell {
  text: string;
  colspan: number;
  bold: boolean;
  align: Align;
}

export interface TableBlock {
  kind: 'table';
  rows: TableCell[][];
}

export type Block = TextBlock | TableBlock;

export interface DocumentPage {
  blocks: Block[];
}

export interface PagedDocument {
  title: string;
  /** Printed small at the foot of every page (where the document came from). */
  footer: string;
  pages: DocumentPage[];
}

/** All the text of a page, blocks and cells separated by spaces and lines. */
export function pageText(page: DocumentPage): string {
  return page.blocks.map((b) => (b.kind === 'text' ? b.text : b.rows.map((r) => r.map((c) => c.text).join(' ')).join('\n'))).join('\n');
}
