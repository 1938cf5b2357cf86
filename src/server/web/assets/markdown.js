// A small, safe Markdown renderer for the agents' answers: headings, paragraphs, lists (nested by
// indentation), block quotes, rules, tables, code blocks, **bold**, _emphasis_ or *emphasis*,
// ***both***, `code`, [text](http…) links and [n] citation markers. It builds DOM nodes (never
// innerHTML), so nothing in an answer can inject markup.

// Emphasis only around whole words, never inside snake_case or 2*3*4 (stricter than CommonMark for *).
const EM_STAR = /(?<![*\w])\*(?![*\s])([^*]+?)(?<![*\s])\*(?![*\w])/;
const EM_UNDERSCORE = /(?<!\w)_(?![_\s])([^_]+?)(?<![_\s])_(?!\w)/;
// A backslash before punctuation is Markdown's escape: the answers write `[2\]` for a caller's
// "[2]" that is not a citation, and `\|` for a pipe inside a table cell.
const ESCAPE = /\\([!-/:-@[-`{-~])/;
// A web address, with one level of parentheses inside it (".../wiki/Apple_(company)").
const URL_PART = 'https?:\\/\\/[^\\s()<>]*(?:\\([^\\s()<>]*\\)[^\\s()<>]*)*';
// Groups: 1 bold emphasis, 2 bold, 3-4 emphasis, 5 code, 6-7 link text and URL, 8 citation number, 9 escaped
// character, 10 an address in angle brackets, 11 a bare address (without the punctuation that ends its sentence).
const INLINE = new RegExp(
  [
    /\*\*\*([^*]+)\*\*\*/.source,
    /\*\*((?:[^*]|\*(?!\*))+?)\*\*/.source,
    EM_STAR.source,
    EM_UNDERSCORE.source,
    /`([^`]+)`/.source,
    `\\[([^\\]]+)\\]\\((${URL_PART})\\)`,
    /\[(\d+)\]/.source,
    ESCAPE.source,
    `<(${URL_PART})>`,
    // Ends on a character that cannot end a sentence, or on the ")" of a group it holds.
    `(${URL_PART})(?<=[^\\s()<>.,;:!?'"\\]]|\\))`,
  ].join('|'),
  'g',
);

/** Inline text: returns nodes. `cite(n)` gives the link for citation n, or null to leave it as text. */
function inline(text, cite) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    if (m[1] !== undefined) {
      const strong = document.createElement('strong');
      const em = document.createElement('em');
      em.append(...inline(m[1], cite));
      strong.append(em);
      out.push(strong);
    } else if (m[2] !== undefined || m[3] !== undefined || m[4] !== undefined) {
      const element = document.createElement(m[2] !== undefined ? 'strong' : 'em');
      element.append(...inline(m[2] ?? m[3] ?? m[4], cite));
      out.push(element);
    } else if (m[5] !== undefined) {
      const code = document.createElement('code');
      code.textContent = m[5];
      out.push(code);
    } else if (m[6] !== undefined) {
      const a = document.createElement('a');
      a.href = m[7];
      a.target = '_blank'; // leaving would lose the answer, which lives only in the page
      a.rel = 'noopener noreferrer';
      a.textContent = m[6];
      out.push(a);
    } else if (m[8] !== undefined) {
      out.push(cite(Number(m[8])) ?? document.createTextNode(m[0]));
    } else if (m[10] !== undefined || m[11] !== undefined) {
      const url = m[10] ?? m[11];
      const a = document.createElement('a');
      a.href = url;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      a.textContent = url;
      out.push(a);
    } else {
      out.push(document.createTextNode(m[9]));
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/** A table row's cells, split at its pipes but not at an escaped one (`\|`, kept for `inline`). */
const cells = (line) => line.trim().replace(/^\||(?<!\\)\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim());
const isTableSeparator = (line) => /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line) && line.includes('-');
/** Each column's alignment from a table's separator row: 'right' for `---:`, 'center' for `:---:`. */
const alignments = (separator) => cells(separator).map((c) => (/^:-+:$/.test(c) ? 'center' : /-:$/.test(c) ? 'right' : null));
const LIST_ITEM = /^\s*(?:[-*+]|(\d+)\.)\s+(.*)$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
// A thematic break: three or more -, * or _ alone on a line (spaces between allowed).
const RULE = /^\s{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^\s{0,3}> ?/;
const indentOf = (line) => /^\s*/.exec(line)[0].replace(/\t/g, '    ').length;

/** A numbered line that cannot start a list inside a paragraph ("… in fiscal\n2024. It then …"): only "1." can, as in CommonMark. */
const interruptsNot = (line) => {
  const m = LIST_ITEM.exec(line);
  return m !== null && m[1] !== undefined && Number(m[1]) !== 1;
};

/**
 * The list that starts at lines[start]: its items, each with the lines indented under it as
 * continuation text or as a nested list. Returns the list element and the index after it.
 */
function parseList(lines, start, cite) {
  const first = LIST_ITEM.exec(lines[start]);
  const ordered = first[1] !== undefined;
  const indent = indentOf(lines[start]);
  const list = document.createElement(ordered ? 'ol' : 'ul');
  // "3. …" starts the list at 3.
  if (ordered && Number(first[1]) !== 1) list.start = Number(first[1]);
  let item = null;
  let i = start;
  while (i < lines.length) {
    const line = lines[i];
    if (RULE.test(line)) break;
    const m = LIST_ITEM.exec(line);
    const deeper = indentOf(line) > indent + 1;
    if (m && !deeper) {
      // A sibling, unless it is a list of the other kind or less indented (the parent's next item).
      if ((m[1] !== undefined) !== ordered || indentOf(line) < indent) break;
      item = document.createElement('li');
      item.append(...inline(m[2], cite));
      list.append(item);
      i++;
    } else if (item && m && deeper) {
      const nested = parseList(lines, i, cite);
      item.append(nested.list);
      i = nested.next;
    } else if (item && /^\s+\S/.test(line) && indentOf(line) > indent) {
      item.append(document.createElement('br'), ...inline(line.trim(), cite));
      i++;
    } else break;
  }
  return { list, next: i };
}

/**
 * Renders `markdown` into `target`. Headings start at `<h{headingBase}>` so that they nest
 * under the page's own headings.
 */
export function renderMarkdown(target, markdown, { cite = () => null, headingBase = 3 } = {}) {
  const blocks = [];
  // A cell of one short token ("$0.32", "KXFED-26DEC-T4.25", "2026-11-24") is not broken at its
  // hyphens or dots on a narrow screen: the table scrolls sideways in its .table-wrap instead.
  const keepWhole = (cell) => {
    const text = cell.textContent.trim();
    if (text.length <= 32 && !/\s/.test(text)) cell.classList.add('whole');
  };
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let paragraph = [];
  const flush = () => {
    if (!paragraph.length) return;
    const p = document.createElement('p');
    paragraph.forEach((line, i) => {
      if (i) p.append(document.createElement('br'));
      p.append(...inline(line, cite));
    });
    blocks.push(p);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flush();
    } else if (heading) {
      flush();
      const h = document.createElement(`h${Math.min(6, headingBase + heading[1].length - 1)}`);
      h.append(...inline(heading[2], cite));
      blocks.push(h);
    } else if (line.trim().startsWith('|') && i + 1 < lines.length && isTableSeparator(lines[i + 1])) {
      flush();
      const table = document.createElement('table');
      const head = table.createTHead().insertRow();
      // Alignment as classes (the page's CSP allows no inline styles): figures line up on the right.
      const align = alignments(lines[i + 1]);
      const aligned = (cell, k) => align[k] && cell.classList.add(`align-${align[k]}`);
      cells(line).forEach((c, k) => {
        const th = document.createElement('th');
        th.scope = 'col';
        th.append(...inline(c, cite));
        keepWhole(th);
        aligned(th, k);
        head.append(th);
      });
      const body = table.createTBody();
      for (i += 2; i < lines.length && lines[i].trim().startsWith('|'); i++) {
        const row = body.insertRow();
        cells(lines[i]).forEach((c, k) => {
          // A row's first cell names it: a row header, as screen readers announce it.
          const cell = k === 0 ? document.createElement('th') : row.insertCell();
          if (k === 0) {
            cell.scope = 'row';
            row.append(cell);
          }
          cell.append(...inline(c, cite));
          keepWhole(cell);
          aligned(cell, k);
        });
      }
      i--;
      const wrap = document.createElement('div');
      wrap.className = 'table-wrap';
      // Reachable by keyboard, so a table wider than the screen can be scrolled with the arrow keys;
      // named, since a focusable box says what it is.
      wrap.tabIndex = 0;
      wrap.setAttribute('role', 'group');
      wrap.setAttribute('aria-label', 'Table, scrolls sideways when wider than the page');
      wrap.append(table);
      blocks.push(wrap);
    } else if (FENCE.test(line)) {
      // A code block, shown as written (an unclosed one runs to the end, as while it streams).
      flush();
      const marker = FENCE.exec(line)[1];
      const body = [];
      for (i++; i < lines.length && !(lines[i].trim().startsWith(marker) && lines[i].trim().replace(/[`~]/g, '') === ''); i++) body.push(lines[i]);
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      code.textContent = body.join('\n');
      pre.append(code);
      blocks.push(pre);
    } else if (RULE.test(line)) {
      flush();
      blocks.push(document.createElement('hr'));
    } else if (QUOTE.test(line)) {
      flush();
      const quoted = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) quoted.push(lines[i].replace(QUOTE, ''));
      i--;
      const quote = document.createElement('blockquote');
      renderMarkdown(quote, quoted.join('\n'), { cite, headingBase });
      blocks.push(quote);
    } else if (LIST_ITEM.test(line) && !(paragraph.length && interruptsNot(line))) {
      flush();
      const { list, next } = parseList(lines, i, cite);
      i = next - 1;
      blocks.push(list);
    } else {
      paragraph.push(line);
    }
  }
  flush();
  target.replaceChildren(...blocks);
}
