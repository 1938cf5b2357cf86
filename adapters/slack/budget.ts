import type { Clock } from '../shared/clock.js';
import type { SlackSettings } from '../shared/config.js';
import { RateBudget } from '../shared/rate-budget.js';

/** The Web API methods an answer writes with. */
export type SlackMethod = 'chat.postMessage' | 'chat.update' | 'chat.startStream' | 'chat.appendStream' | 'chat.stopStream';

/**
 * Slack's rate limits, shared by every answer the app is writing: new messages are limited per
 * channel, the other methods per workspace, each method on its own (Slack's tiers).
 */
export class SlackBudget {
  readonly #budget: RateBudget<SlackMethod>;

  constructor(settings: Pick<SlackSettings, 'postRate' | 'updateRate' | 'streamAppendRate' | 'streamStartStopRate'>, clock: Clock) {
    this.#budget = new RateBudget(
      {
        'chat.postMessage': settings.postRate,
        'chat.update': settings.updateRate,
        'chat.appendStream': settings.streamAppendRate,
        'chat.startStream': settings.streamStartStopRate,
        'chat.stopStream': settings.streamStartStopRate,
      },
      clock,
    );
  }

  /** Resolves when one more call of `method` for `channel` of workspace `teamId` fits Slack's limits. */
  slot(method: SlackMethod, teamId: string, channel: string): Promise<void> {
    return this.#budget.take(method, method === 'chat.postMessage' ? `${teamId}/${channel}` : teamId);
  }
}
