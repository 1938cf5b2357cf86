import { describe, expect, it } from 'vitest';
import type { PagedDocument, TableCell } from '../../../src/data/documents/model.js';
import { compactTable, renderPdf } from '../../../src/data/documents/pdf.js';
import { pdfPageTexts } from '../../helpers/pdf-text.js';

const c = (text: string, colspan = 1): TableCell => ({ text, colspan, bold: false, align: 'left' });

describe('compactTable', () => {
  it('joins "$", "(" and ")" to their figures and drops spacer columns', () => {
    const grid = compactTable({
      kind: 'table',
      rows: [
        [c('', 3), c('Three Months Ended', 4), c('', 1)],
        [c('Net sales', 3), c('$'), c('85,777'), c(''), c(''), c('')],
        [c('Other', 3), c('('), c('1,234'), c(')'), c(''), c('')],
      ],
    });
    expect(grid).toEqual([
      [{ text: 'Three Months Ended', col: 1, span: 1, bold: false, align: 'center' }],
      [
        { text: 'Net sales', col: 0, span: 1, bold: false, align: 'left' },
        { text: '$85,777', col: 1, span: 1, bold: false, align: 'right' },
      ],
      [
        { text: 'Other', col: 0, span: 1, bold: false, align: 'left' },
        { text: '(1,234)', col: 1, span: 1, bold: false, align: 'right' },
      ],
    ]);
  });
});

describe('renderPdf', () => {
  it('makes one PDF page per document page, with the text and table figures as printed', async () => {
    const doc: PagedDocument = {
      title: 'Example Widgets Form 10-Q',
      footer: 'rendered by svc',
      pages: [
        { blocks: [{ kind: 'text', text: 'FORM 10-Q\nExample Widgets, Inc. \u2612 Yes \u2610 No \u2212 done', bold: true, align: 'center' }] },
        { blocks: [{ kind: 'table', rows: [[c('Total net sales', 3), c('$'), c('85,777'), c('')], [c('Net income', 3), c('$'), c('21,448'), c('')], [c('Basic\nearnings per share', 3), c('$'), c('1.40'), c('')]] }] },
        { blocks: [{ kind: 'text', text: 'Notes', bold: false, align: 'left' }] },
      ],
    };
    const texts = await pdfPageTexts(await renderPdf(doc));
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain('Example Widgets, Inc. [X] Yes [ ] No - done');
    expect(texts[1]).toMatch(/Total net sales\s+\$85,777/);
    expect(texts[1]).toContain('21,448');
    // A line break (a <br> in a cell) breaks the line; it is not drawn as "?".
    expect(texts[0]).toMatch(/^FORM 10-Q\s+Example/);
    expect(texts[1]).toMatch(/Basic\s+earnings per share/);
    expect(texts.join(' ')).not.toContain('?');
    expect(texts[1]).not.toContain('Notes');
    expect(texts[2]).toMatch(/^Notes/);
    expect(texts[2]).toContain('page 3 of 3');
  });

  it('keeps an overlong page on one (taller, smaller-type) PDF page, so page numbers still match', async () => {
    const rows = Array.from({ length: 900 }, (_, i) => [c(`Line item ${i + 1}`, 2), c('$'), c(String(1000 + i))]);
    const long = 'A paragraph long enough to wrap over many lines. '.repeat(400);
    const texts = await pdfPageTexts(
      await renderPdf({ title: 't', footer: 'f', pages: [{ blocks: [{ kind: 'text', text: 'First', bold: false, align: 'left' }] }, { blocks: [{ kind: 'text', text: long, bold: false, align: 'left' }, { kind: 'table', rows }] }, { blocks: [{ kind: 'text', text: 'Third', bold: false, align: 'left' }] }] }),
    );
    expect(texts).toHaveLength(3);
    expect(texts[1]).toContain('Line item 1 ');
    expect(texts[1]).toContain('$1899');
    expect(texts[2]).toContain('Third');
  });
});
