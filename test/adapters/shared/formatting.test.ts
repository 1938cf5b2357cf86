import { describe, expect, it } from 'vitest';
import { citationFooter } from '../../../adapters/shared/citations.js';
import { idempotencyKey } from '../../../adapters/shared/idempotency.js';
import { asksBesideLinks, findKalshiEventLinks } from '../../../adapters/shared/kalshi-links.js';
import { joinSplitParts, withFencesClosed } from '../../../adapters/shared/fences.js';
import { splitMessage } from '../../../adapters/shared/split.js';
import { discordView } from '../../../adapters/discord/texts.js';
import { mrkdwnLink, toMrkdwn } from '../../../adapters/shared/mrkdwn.js';
import { TableHoldback, convertTables, displayWidth } from '../../../adapters/shared/tables.js';

const TABLE = ['| Outcome | Model | Market |', '|:---|---:|:---:|', '| Cut 25 bp | 62% | 55% |', '| Hold | 38% | 45% |'].join('\n');

describe('tables', () => {
  it('become aligned code blocks', () => {
    expect(convertTables(`Before\n\n${TABLE}\n\nAfter`)).toBe(
      ['Before', '', '```', 'Outcome   | Model | Market', '----------+-------+-------', 'Cut 25 bp |   62% |  55%', 'Hold      |   38% |  45%', '```', '', 'After'].join('\n'),
    );
  });

  it('line up columns of wide characters (CJK, emoji) and combining marks by the columns they take', () => {
    const t = ['| 会社 | Δ |', '|---|---:|', '| トヨタ自動車 | 5% |', '| Cafe\u0301 📈 | 10% |'].join('\n');
    expect(convertTables(t).split('\n')).toEqual(['```', '会社         |   Δ', '-------------+----', 'トヨタ自動車 |  5%', 'Cafe\u0301 📈      | 10%', '```']);
    expect(displayWidth('トヨタ')).toBe(6);
    expect(displayWidth('e\u0301')).toBe(1);
  });

  it('wider than 80 columns are shown as tables one under another, each with the first column and the others that fit beside it', () => {
    const quarters = Array.from({ length: 8 }, (_, i) => `Q${(i % 4) + 1} FY${2024 + Math.floor(i / 4)} [${i + 1}]`);
    const t = [
      `| | ${quarters.join(' | ')} |`,
      `|---|${quarters.map(() => '---:').join('|')}|`,
      `| Revenue ($ million) | ${quarters.map((_, i) => `${60_000 + i * 1234}`).join(' | ')} |`,
      `| ↳ year over year | ${quarters.map((_, i) => `+${i}.5%`).join(' | ')} |`,
    ].join('\n');
    const lines = convertTables(t).split('\n');
    expect(lines[0]).toBe('```');
    expect(lines.at(-1)).toBe('```');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    const blocks = lines.slice(1, -1).join('\n').split('\n\n');
    expect(blocks.length).toBe(3);
    for (const block of blocks) expect(block.split('\n').slice(2).map((l) => l.split(' | ')[0]!.trim())).toEqual(['Revenue ($ million)', '↳ year over year']);
    // Every cell is shown once, in order, right-aligned as the delimiter row says.
    const shownQuarters = blocks.flatMap((b) => b.split('\n')[0]!.split(' | ').slice(1).map((c) => c.trim()));
    expect(shownQuarters).toEqual(quarters);
    expect(blocks[0]!.split('\n')[2]).toBe(`Revenue ($ million) | ${['60000', '61234', '62468'].map((v) => v.padStart(quarters[0]!.length)).join(' | ')}`);
    // A table that fits, and one of two columns however wide, stay one table.
    expect(convertTables(TABLE).split('\n\n')).toHaveLength(1);
    expect(convertTables(`| a | b |\n|---|---|\n| x | ${'y'.repeat(120)} |`).split('\n')).toHaveLength(5);
  });

  it('split by width, repeat every column needed to tell the rows apart ("Apple | Revenue", "Apple | Net income")', () => {
    const t = [
      '| Company | Figure | Period | Value | Filed in |',
      '|---|---|---|---|---|',
      '| Apple Inc. (AAPL) | Revenue | fiscal year 2024 (year ended 2024-09-28) | $391,035 million [1] | Form 10-K filed 2024-11-01 |',
      '| Apple Inc. (AAPL) | Net income | fiscal year 2024 (year ended 2024-09-28) | $93,736 million [1] | Form 10-K filed 2024-11-01 |',
      '| Microsoft Corp. (MSFT) | Revenue | fiscal year 2024 (year ended 2024-06-30) | $245,122 million [2] | Form 10-K filed 2024-07-30 |',
    ].join('\n');
    const lines = convertTables(t).split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    const blocks = lines.slice(1, -1).join('\n').split('\n\n');
    expect(blocks.length).toBeGreaterThan(1);
    for (const block of blocks) {
      const [header, , ...rows] = block.split('\n');
      expect(header!.split(' | ').slice(0, 2).map((c) => c.trim())).toEqual(['Company', 'Figure']);
      expect(rows.map((r) => r.split(' | ').slice(0, 2).map((c) => c.trim()).join(' / '))).toEqual(['Apple Inc. (AAPL) / Revenue', 'Apple Inc. (AAPL) / Net income', 'Microsoft Corp. (MSFT) / Revenue']);
    }
  });

  it('keep the addresses of links in cells, drop emphasis', () => {
    const t = ['| Source | Note |', '|---|---|', '| [Fed](https://fed.gov/x) | **big** `x` |'].join('\n');
    expect(convertTables(t)).toContain('Fed (https://fed.gov/x) | big x');
  });

  it('are left alone inside code blocks, and pipes without a delimiter row are no table', () => {
    const code = ['```', TABLE, '```'].join('\n');
    expect(convertTables(code)).toBe(code);
    expect(convertTables('| just a line |\nnext')).toBe('| just a line |\nnext');
  });

  it('held back in a stream come out exactly as converting the whole text would, however it is chunked', () => {
    const text = `Intro line\n\n${TABLE}\nAfter the table\n\n| a | b |\n| x |\n\n\`\`\`\n| in | code |\n|---|---|\n\`\`\`\n${TABLE}`;
    for (const size of [1, 2, 3, 5, 7, 13, 50, 1000]) {
      const holdback = new TableHoldback();
      let out = '';
      for (let i = 0; i < text.length; i += size) out += holdback.push(text.slice(i, i + size));
      out += holdback.end();
      expect(out, `chunks of ${size}`).toBe(convertTables(text));
    }
  });

  it('release plain text at once while streaming', () => {
    const holdback = new TableHoldback();
    expect(holdback.push('Hello wor')).toBe('Hello wor');
    expect(holdback.push('ld\n| a |')).toBe('ld\n');
    expect(holdback.push(' b |\n|---|---|\n| 1 | 2 |\n')).toBe('');
    expect(holdback.push('Done')).toBe('```\na | b\n--+--\n1 | 2\n```\nDone');
  });
});

describe('toMrkdwn', () => {
  it('converts emphasis, links, headings, lists and escapes', () => {
    expect(toMrkdwn('# Fed outlook')).toBe('*Fed outlook*');
    expect(toMrkdwn('**bold** and *italic* and ~~gone~~ and __also bold__')).toBe('*bold* and _italic_ and ~gone~ and *also bold*');
    expect(toMrkdwn('***both*** and ***two words*** but 2***3')).toBe('*_both_* and *_two words_* but 2***3');
    // Markdown's escapes mean the character alone; in code they stay as written.
    expect(toMrkdwn('3\\*4 costs \\$5, “odds [2\\]” \\& more, but `a\\*b`')).toBe('3*4 costs $5, “odds [2]” &amp; more, but `a\\*b`');
    expect(toMrkdwn('See [the statement](https://fed.gov/a?x=1&y=2) [1].')).toBe('See <https://fed.gov/a?x=1&y=2|the statement> [1].');
    expect(toMrkdwn('- one\n  - nested\n* two')).toBe('• one\n    ◦ nested\n• two');
    expect(toMrkdwn('AT&T <b> 5 > 3')).toBe('AT&amp;T &lt;b&gt; 5 &gt; 3');
    expect(toMrkdwn('> quoted **text**')).toBe('> quoted *text*');
    expect(toMrkdwn('use `a < b` here')).toBe('use `a &lt; b` here');
    expect(toMrkdwn('<https://kalshi.com/markets/a/b/c>')).toBe('<https://kalshi.com/markets/a/b/c>');
  });

  it('shows underlined (setext) headings as bold lines, not as text over a rule', () => {
    expect(toMrkdwn('Fed outlook\n===========\nText\n\nRisks\n---\n- a\n---\n\n---')).toBe('*Fed outlook*\n\nText\n\n*Risks*\n\n• a\n──────────\n\n──────────');
    expect(toMrkdwn('```\ncode\n---\n```')).toBe('```\ncode\n---\n```');
    expect(discordView('x').final('Title\n===\nbody', [])).toBe('# Title\n\nbody');
  });

  it('keeps code blocks verbatim (escaped) and drops the language tag', () => {
    expect(toMrkdwn('```ts\nconst a = b && c < d;\n**not bold**\n```')).toBe('```\nconst a = b &amp;&amp; c &lt; d;\n**not bold**\n```');
  });

  it('makes tables readable', () => {
    const out = toMrkdwn(TABLE);
    expect(out.startsWith('```\nOutcome   | Model | Market')).toBe(true);
    expect(out.endsWith('```')).toBe(true);
  });

  it('never lets a label break the link syntax', () => {
    expect(toMrkdwn('[a|b>c](https://x.com/p)')).toBe('<https://x.com/p|a¦b&gt;c>');
  });

  it('makes links only of http(s) and mailto targets: a quoted [x](!channel) is text, not an @channel', () => {
    const quoted = 'No open Kalshi event matches “[x](!channel) [you](@U0ANA) [g](!subteam^S0TEAM|team) [h](<!here>) [c](#C0GENERAL) [j](javascript:alert(1)) & <b>”.';
    expect(toMrkdwn(quoted)).toBe(
      'No open Kalshi event matches “[x](!channel) [you](@U0ANA) [g](!subteam^S0TEAM|team) [h](&lt;!here&gt;) [c](#C0GENERAL) [j](javascript:alert(1)) &amp; &lt;b&gt;”.',
    );
    expect(toMrkdwn('- **[x](!everyone)** and [y](<@U0ANA|ana>)')).toBe('• *[x](!everyone)* and [y](&lt;@U0ANA|ana&gt;)');
    expect(toMrkdwn('[write](mailto:ir@example.com) or [read](HTTP://x.com/a) or [rel](/docs/a)')).toBe('<mailto:ir@example.com|write> or <HTTP://x.com/a|read> or [rel](/docs/a)');
    expect(mrkdwnLink('!channel', 'x <y>')).toBe('x &lt;y&gt; (!channel)');
    expect(mrkdwnLink('@U0ANA', '')).toBe('@U0ANA');
  });
});

describe('citation footers', () => {
  const citations = [
    { order: 2, name: 'Kalshi market page', url: 'https://kalshi.com/markets/kxfed/fed/kxfed-25dec' },
    { order: 1, name: 'Fed statement [PDF]', url: 'https://fed.gov/a_(b).pdf#page=2' },
    { order: 1, name: 'duplicate', url: 'https://x' },
  ];

  it('numbers the sources in order, in each platform style', () => {
    expect(citationFooter(citations, 'slack')).toBe(
      '\n\n*Sources*\n[1] <https://fed.gov/a_(b).pdf#page=2|Fed statement [PDF]>\n[2] <https://kalshi.com/markets/kxfed/fed/kxfed-25dec|Kalshi market page>',
    );
    expect(citationFooter(citations, 'discord')).toBe(
      '\n\n**Sources**\n[1] [Fed statement \\[PDF\\]](<https://fed.gov/a_(b).pdf#page=2>)\n[2] [Kalshi market page](<https://kalshi.com/markets/kxfed/fed/kxfed-25dec>)',
    );
    expect(citationFooter(citations, 'markdown')).toContain('[1] [Fed statement \\[PDF\\]](https://fed.gov/a_%28b%29.pdf#page=2)');
  });

  it('writes a source without a web address as escaped text, never as a link', () => {
    const odd = [
      { order: 1, name: '<!channel> & <@U0ANA>', url: 'internal-note-12' },
      { order: 2, name: 'Filing [x](https://evil.example)', url: '!channel' },
    ];
    expect(citationFooter(odd, 'slack')).toBe('\n\n*Sources*\n[1] &lt;!channel&gt; &amp; &lt;@U0ANA&gt;\n[2] Filing [x](https://evil.example)');
    expect(citationFooter(odd, 'discord')).toBe('\n\n**Sources**\n[1] <!channel> & <@U0ANA>\n[2] Filing \\[x\\](https://evil.example)');
  });

  it('is empty without sources', () => {
    expect(citationFooter([], 'slack')).toBe('');
  });
});

describe('Kalshi event links', () => {
  it.each([
    'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec',
    'HTTPS://WWW.KALSHI.COM/markets/KXFEDDECISION/Fed-Meeting/KXFEDDECISION-25DEC',
    'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec/',
    'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec?ref=share&x=1',
    'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec#rules',
    '<https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec|Fed>',
    'see (https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec).',
  ])('finds %s', (text) => {
    expect(findKalshiEventLinks(text)).toEqual([
      {
        url: 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec',
        series: 'kxfeddecision',
        slug: 'fed-meeting',
        eventTicker: 'KXFEDDECISION-25DEC',
        title: 'Fed meeting (KXFEDDECISION-25DEC)',
      },
    ]);
  });

  it('titles an event from its slug, abbreviations in capitals and names capitalised', () => {
    const title = (url: string) => findKalshiEventLinks(url)[0]!.title;
    expect(title('https://kalshi.com/markets/kxcpiyoy/cpi-year-over-year/kxcpiyoy-26dec')).toBe('CPI year over year (KXCPIYOY-26DEC)');
    expect(title('https://kalshi.com/markets/kxnbagame/nba-game/kxnbagame-26dec05lalbos')).toBe('NBA game (KXNBAGAME-26DEC05LALBOS)');
    expect(title('https://kalshi.com/markets/kxgdp/us-gdp-growth/kxgdp-26q4')).toBe('US GDP growth (KXGDP-26Q4)');
    expect(title('https://kalshi.com/markets/kxfedhike/will-the-fed-hike/kxfedhike-26dec')).toBe('Will the Fed hike (KXFEDHIKE-26DEC)');
    expect(title('https://kalshi.com/markets/kxa/_/kxa-1')).toBe('KXA-1');
  });

  it.each([
    'https://kalshi.com/markets/kxfeddecision',
    'https://kalshi.com/markets/kxfed/fed-meeting',
    'https://kalshi.com/markets/a/b/c/d',
    'https://notkalshi.com/markets/a/b/c',
    'https://kalshi.com.evil.example/markets/a/b/c',
    'no link here',
  ])('ignores %s', (text) => {
    expect(findKalshiEventLinks(text)).toEqual([]);
  });

  it('tells a question beside a link from a link sent for its report', () => {
    const url = 'https://kalshi.com/markets/kxb/beta/kxb-2';
    for (const text of [`How does this compare with ${url} — which is mispriced more?`, `<@U1> is <${url}|this> underpriced?`, `${url} why did the price move this week`]) expect(asksBesideLinks(text), text).toBe(true);
    for (const text of [url, `<@U1> <${url}|Fed in December>`, `report please ${url}`, `${url} thoughts`, `compare <${url}> and <https://kalshi.com/markets/kxa/alpha/kxa-1>`, `\`question? about code\` ${url}`]) expect(asksBesideLinks(text), text).toBe(false);
    // Words that ask for the report and nothing else are no question beside it.
    for (const text of [`what do you make of ${url} ?`, `thoughts on this one? ${url}`, `hey can you look into this ${url} pls`, `${url} whats your take on this`, `full report on ${url} please`, `could u break this down ${url}`])
      expect(asksBesideLinks(text), text).toBe(false);
    for (const text of [`what do you make of the hold price? ${url}`, `${url} what do you think the cut odds are`, `report on ${url} and is the cut overpriced?`]) expect(asksBesideLinks(text), text).toBe(true);
  });

  it('finds several, once each, in order', () => {
    const links = findKalshiEventLinks(
      'https://kalshi.com/markets/b/bee/b-1 and https://kalshi.com/markets/a/ay/a-1 and again https://kalshi.com/markets/b/bee/B-1',
    );
    expect(links.map((l) => l.eventTicker)).toEqual(['B-1', 'A-1']);
  });

  it.each([
    ['a fenced block', 'what does this log mean?\n```\nGET https://kalshi.com/markets/kxfed/fed/kxfed-25dec 200\n```'],
    ['a fenced block with a language', '```js\nfetch("https://kalshi.com/markets/kxfed/fed/kxfed-25dec")\n```'],
    ['inline code', 'the bot replies to `https://kalshi.com/markets/kxfed/fed/kxfed-25dec` links'],
  ])('ignores links quoted in %s', (_, text) => {
    expect(findKalshiEventLinks(text)).toEqual([]);
  });

  it('finds the link outside the code beside one inside it', () => {
    const text = '`https://kalshi.com/markets/a/ay/a-1` is old, use https://kalshi.com/markets/b/bee/b-2 now\n```\nhttps://kalshi.com/markets/c/cee/c-3\n```';
    expect(findKalshiEventLinks(text).map((l) => l.eventTicker)).toEqual(['B-2']);
  });

  it('keeps the dot inside a market ticker, and drops the one that ends the sentence', () => {
    expect(findKalshiEventLinks('see https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec-t2.8.').map((l) => l.eventTicker)).toEqual([
      'KXCPIYOY-26DEC-T2.8',
    ]);
  });

  it.each(['。', '）', '，', '…', '」', '！'])('ends a link at full-width %s', (mark) => {
    const links = findKalshiEventLinks(`（https://kalshi.com/markets/kxfed/fed/kxfed-25dec${mark}ok`);
    expect(links.map((l) => l.eventTicker)).toEqual(['KXFED-25DEC']);
  });
});

describe('withFencesClosed', () => {
  it.each([
    ['plain text', 'no code', 'no code'],
    ['a closed block', '```\nx\n```', '```\nx\n```'],
    ['an open block', '```js\nx = 1', '```js\nx = 1\n```'],
    ['an open block ending in a newline', '~~~~\nx\n', '~~~~\nx\n~~~~'],
    ['an opening line alone', 'see:\n```', 'see:\n```\n```'],
  ])('%s', (_, text, closed) => {
    expect(withFencesClosed(text)).toBe(closed);
  });

  it('keeps Discord notes and sources out of a block the answer left open', () => {
    const view = discordView('Answering');
    const problem = { message: 'The SEC did not answer.' } as Parameters<typeof view.failed>[1];
    expect(view.failed('Run:\n```sh\nnpm ci', problem, true)).toBe('Run:\n```sh\nnpm ci\n```\n\n⚠️ The answer was interrupted before it finished: The SEC did not answer.');
    expect(view.final('Run:\n```sh\nnpm ci', [{ order: 1, name: 'Docs', url: 'https://example.com/' }])).toMatch(/^Run:\n```sh\nnpm ci\n```\n\n/);
  });

  it('puts one blank line between an answer ending in newlines and its sources or note', () => {
    const view = discordView('Answering');
    const problem = { message: 'The SEC did not answer.' } as Parameters<typeof view.failed>[1];
    expect(view.final('Revenue rose [1].\n\n', [{ order: 1, name: 'Docs', url: 'https://example.com/' }])).toBe('Revenue rose [1].\n\n**Sources**\n[1] [Docs](<https://example.com/>)');
    expect(view.failed('Revenue rose\n', problem, true)).toBe('Revenue rose\n\n⚠️ The answer was interrupted before it finished: The SEC did not answer.');
  });

  it('shows ~~~ code blocks as ``` on Discord (the only fence it renders), and closes one still streaming', () => {
    const view = discordView('Answering');
    expect(view.final('Run:\n~~~python\nprint(1)\n~~~\nDone.', [])).toBe('Run:\n```python\nprint(1)\n```\nDone.');
    // While it streams, a "# comment" inside an open block stays code, not a heading.
    expect(view.interim('Code:\n```py\n# comment')).toMatch(/^Code:\n```py\n# comment\n```/);
  });
});

describe('joinSplitParts', () => {
  it('makes a code block split across messages one block again', () => {
    const code = Array.from({ length: 120 }, (_, i) => `const value${i} = ${i} * 2;`).join('\n');
    const text = `The script:\n\n\`\`\`ts\n${code}\n\`\`\``;
    const parts = splitMessage(text, 700).map((c) => c.text.trim());
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.reduce(joinSplitParts)).toBe(text);
  });

  it('keeps paragraphs apart, and blocks that were two', () => {
    expect(joinSplitParts('First.', 'Second.')).toBe('First.\n\nSecond.');
    expect(joinSplitParts('```\na\n```', 'Then:\n```\nb\n```')).toBe('```\na\n```\n\nThen:\n```\nb\n```');
    expect(joinSplitParts('```py\na\n```', '```ts\nb\n```')).toBe('```py\na\n```\n\n```ts\nb\n```');
  });
});

describe('idempotency keys', () => {
  it('are stable, printable and bounded', () => {
    expect(idempotencyKey('slack', 'T1', 'C1', '1700000000.000100')).toBe('svc:slack:T1:C1:1700000000.000100');
    expect(idempotencyKey('slack', 'T1', 'C1', '1')).not.toBe(idempotencyKey('slack', 'T1', 'C1', '2'));
    const long = idempotencyKey('discord', 'x'.repeat(400));
    expect(long.length).toBeLessThanOrEqual(255);
    expect(long).toBe(idempotencyKey('discord', 'x'.repeat(400)));
    expect(idempotencyKey('slack', 'a b\u00e9')).toMatch(/^[\x21-\x7e]+$/);
  });
});
