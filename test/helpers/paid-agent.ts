import type { Core } from '../../src/app.js';
import type { Agent, AgentEvent } from '../../src/agents/types.js';
import { SvcError } from '../../src/errors.js';
import { answer, scriptedAgent, sleep } from './scripted-agent.js';

/**
 * Agents that pay for their work through billing, the way report generation does: hold 3
 * credits, do the work, capture on success, release on failure.
 * - svc-paid: answers after `delayMs` (input "fail" makes the work fail);
 * - svc-hang: holds, then never finishes (for crash tests).
 */
export function paidAgents(core: Core, opts: { delayMs?: number } = {}): Agent[] {
  const paid = scriptedAgent('svc-paid', async function* (req): AsyncGenerator<AgentEvent> {
    const jobId = `${req.caller.accountId}:${req.idempotencyKey ?? req.requestId}`;
    const { hold, remaining } = await core.billing.hold({ accountId: req.caller.accountId, amount: 3, jobId, what: 'Generating a test report', requestId: req.requestId });
    yield { type: 'meta', meta: { credits: { charged: 3, remaining } } };
    try {
      if (opts.delayMs) await sleep(opts.delayMs);
      if (req.messages.at(-1)!.content === 'fail') throw new SvcError('upstream', { code: 'upstream_error', message: 'The data source failed.' });
      const events = answer(`Paid answer to: ${req.messages.at(-1)!.content}`);
      yield* events.slice(0, -1);
      await core.billing.capture(hold.id, req.requestId);
      yield { type: 'done' };
    } catch (err) {
      await core.billing.release(hold.id, 'the work failed', req.requestId);
      throw err;
    }
  });
  const hang = scriptedAgent('svc-hang', async function* (req): AsyncGenerator<AgentEvent> {
    const { remaining } = await core.billing.hold({ accountId: req.caller.accountId, amount: 3, jobId: `${req.caller.accountId}:${req.requestId}`, what: 'Generating a test report', requestId: req.requestId });
    yield { type: 'meta', meta: { credits: { charged: 3, remaining } } };
    yield { type: 'progress', message: 'working' };
    await new Promise(() => {});
  });
  return [paid, hang];
}
