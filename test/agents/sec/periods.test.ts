import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerSecQuestion } from '../../../src/agents/sec/agent.js';
import type { AgentEvent } from '../../../src/agents/types.js';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { DocumentService } from '../../../src/data/documents/service.js';
import { SecClient } from '../../../src/data/sec/client.js';
import { SecLibrary } from '../../../src/data/sec/library.js';
import { parseConversation } from '../../../src/data/sec/question.js';
import { SnapshotSource } from '../../../src/data/source.js';

/** The svc-sec-agent's answer on the shipped demo snapshot. */
let lib: SecLibrary;
beforeAll(() => {
  const source = new SnapshotSource(path.join(PACKAGE_ROOT, 'snapshots', 'sec'), 'SEC EDGAR');
  const documents = new DocumentService({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'svc-periods-')), signingSecret: 's', linkTtlSeconds: 60, publicUrl: () => 'http://x' });
  lib = new SecLibrary({ client: new SecClient({ api: source, www: source }), documents, origin: { mode: 'snapshot', recordedAt: source.recordedAt, demo: true, documentTag: 'sdemo' }, wwwUrl: 'https://www.sec.gov' });
});

async function answer(question: string): Promise<string> {
  const events: AsyncIterable<AgentEvent> = answerSecQuestion(lib, parseConversation([{ role: 'user', content: question }], await lib.companyIndex()));
  let text = '';
  for await (const e of events) if (e.type === 'text') text += e.delta;
  return text;
}

describe('a quarter whose year is said apart from it', () => {
  it.each([["What was Apple's Q3 revenue in 2023?"], ['Apple Q3 revenue for fiscal 2023'], ['Apple revenue for Q3, 2023'], ["Apple's revenue for the third quarter in 2023"], ['In 2023, what was Apple Q3 revenue?']])('%s: fiscal Q3 2023, not the latest Q3', async (q) => {
    const text = await answer(q);
    expect(text).toMatch(/fiscal Q3 2023 \(quarter ended 2023-07-01\)/);
    expect(text).not.toMatch(/fiscal Q3 2024/);
  });

  it.each([['Microsoft revenue Q3 calendar 2024'], ['Microsoft revenue Q3 of calendar year 2024'], ['Microsoft revenue for the third quarter of calendar year 2024']])('%s: the quarter ended in September 2024', async (q) => {
    expect(await answer(q)).toMatch(/quarter ended 2024-09-30/);
  });

  it('two quarters with their own years are still compared', async () => {
    const text = await answer('Apple revenue Q3 2024 vs Q3 2023');
    expect(text).toMatch(/Q3 2024/);
    expect(text).toMatch(/Q3 2023/);
  });
});
