// A small, safe Markdown renderer for the agents' answers: headings, paragraphs, lists, tables,
// **bold**, `code`, [text](http…) links and [n] citation markers. It builds DOM nodes (never
// innerHTML), so nothing in an answer can inject markup.

/** Inline text: returns nodes. `cite(n)` gives the link for citation n, or null to leave it as text. */
function inline(text, cite) {
  const out = [];
  const pattern = /\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)|\[(\d+)\]/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    if (m[1] !== undefined) {
      const strong = document.createElement('strong');
      strong.append(...inline(m[1], cite));
      out.push(strong);
    } else if (m[2] !== undefined) {
      const code = document.createElement('code');
      code.textContent = m[2];
      out.push(code);
    } else if (m[3] !== undefined) {
      const a = document.createElement('a');
      a.href = m[4];
      a.rel = 'noopener noreferrer';
      a.textContent = m[3];
      out.push(a);
    } else {
      out.push(cite(Number(m[5])) ?? document.createTextNode(m[0]));
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

const cells = (line) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
const isTableSeparator = (line) => /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);
const LIST_ITEM = /^\s*(?:[-*]|(\d+)\.)\s+(.*)$/;

/**
 * Renders `markdown` into `target`. Headings start at `<h{headingBase}>` so that they nest
 * under the page's own headings.
 */
export function renderMarkdown(target, markdown, { cite = () => null, headingBase = 3 } = {}) {
  const blocks = [];
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
      for (const c of cells(line)) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.append(...inline(c, cite));
        head.append(th);
      }
      const body = table.createTBody();
      for (i += 2; i < lines.length && lines[i].trim().startsWith('|'); i++) {
        const row = body.insertRow();
        for (const c of cells(lines[i])) row.insertCell().append(...inline(c, cite));
      }
      i--;
      const wrap = document.createElement('div');
      wrap.className = 'table-wrap';
      wrap.append(table);
      blocks.push(wrap);
    } else if (LIST_ITEM.test(line)) {
      flush();
      const ordered = LIST_ITEM.exec(line)[1] !== undefined;
      const list = document.createElement(ordered ? 'ol' : 'ul');
      let item = null;
      for (; i < lines.length; i++) {
        const m = LIST_ITEM.exec(lines[i]);
        if (m && (m[1] !== undefined) === ordered) {
          item = document.createElement('li');
          item.append(...inline(m[2], cite));
          list.append(item);
        } else if (item && /^\s+\S/.test(lines[i])) {
          item.append(document.createElement('br'), ...inline(lines[i].trim(), cite));
        } else break;
      }
      i--;
      blocks.push(list);
    } else {
      paragraph.push(line);
    }
  }
  flush();
  target.replaceChildren(...blocks);
}
