import { HTTPReceiver, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from '../shared/log.js';

/** Slack's replay window: a request dated further than this from now is refused. */
export const MAX_REQUEST_SKEW_S = 300;

/**
 * Bolt's receiver for `/slack/events`, refusing requests dated more than five minutes in the
 * future. Bolt checks the signature and refuses old requests, but accepts any future date, so a
 * captured request dated ahead would stay replayable until that date. The date is only read
 * from the headers here: Bolt still verifies the signature over the untouched raw body.
 */
export function slackHttpReceiver(signingSecret: string, logger: BoltLogger, log: Logger): HTTPReceiver {
  const receiver = new HTTPReceiver({ signingSecret, endpoints: '/slack/events', logger });
  const handle = receiver.requestListener;
  receiver.requestListener = (req, res) => {
    const timestamp = Number(req.headers['x-slack-request-timestamp']);
    if (Number.isFinite(timestamp) && timestamp - Date.now() / 1000 > MAX_REQUEST_SKEW_S) {
      log.warn({ timestamp }, 'refused a Slack request dated in the future');
      req.resume();
      res.writeHead(401).end();
      return;
    }
    handle(req, res);
  };
  return receiver;
}
