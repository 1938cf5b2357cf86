import { APIConnectionError, APIError } from 'openai';
import { EXAMPLE_EVENT_URL } from './kalshi-links.js';

/**
 * What went wrong, in the words a person in a chat needs: each API error the service can
 * return maps to a kind and a specific, kind message saying what to do next.
 */
export type ProblemKind =
  | 'plan_required'
  | 'insufficient_credits'
  | 'event_not_found'
  | 'invalid_event_url'
  | 'rate_limited'
  | 'unreachable'
  | 'upstream'
  | 'invalid_api_key'
  | 'in_progress'
  | 'unknown_model'
  | 'invalid_request'
  | 'server_error'
  /** The adapter is shutting down. */
  | 'stopped';

export interface Problem {
  kind: ProblemKind;
  message: string;
}

export interface ProblemContext {
  /** The request used the person's own linked key (not the workspace key). */
  linkedKey: boolean;
  /** How people link their own key on this platform (`/svc link <api key>`). */
  linkHint: string;
  /** What shares the bot's account on this platform: a Slack workspace, a Discord server. */
  shared?: 'workspace' | 'server';
  /** The key was being checked before it is linked (`/svc link`): it is not linked yet. */
  linking?: boolean;
}

function retryAfterSeconds(err: APIError): number | null {
  const raw = err.headers?.get('retry-after');
  const n = raw ? Number(raw) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : null;
}

/** The Problem for an error thrown by the API client (an HTTP error, a stream error event, or no connection). */
export function describeProblem(err: unknown, ctx: ProblemContext): Problem {
  if (err instanceof APIConnectionError) {
    return { kind: 'unreachable', message: 'The research service cannot be reached right now. Please try again in a few minutes.' };
  }
  if (!(err instanceof APIError)) {
    return { kind: 'server_error', message: 'Something went wrong on our side while answering. Please try again.' };
  }
  const shared = ctx.shared ?? 'workspace';
  const whose = ctx.linkedKey ? 'your linked account' : `this ${shared}'s account`;
  const status = err.status;
  const code = status === 401 ? 'invalid_api_key' : err.code;
  switch (code) {
    case 'plan_required':
      return {
        kind: 'plan_required',
        message: `Generating new reports needs the Plus, Pro or Enterprise plan, and ${whose} is not on one${said(err)} Cached reports stay free; to generate this one, upgrade the plan${ctx.linkedKey ? '' : `, or link your own account with \`${ctx.linkHint}\``}.`,
      };
    case 'insufficient_credits':
      return {
        kind: 'insufficient_credits',
        message: `There are not enough credits left on ${whose} to generate this report${said(err)} Add credits${ctx.linkedKey ? '' : `, or link your own account with \`${ctx.linkHint}\``}, and ask again.`,
      };
    case 'event_not_found':
      // The service's words name the event, and whether Kalshi or an offline snapshot lacks it.
      return { kind: 'event_not_found', message: plainMessage(err).trim() || 'Kalshi has no event at that address. Check the link: it should open an event page on kalshi.com.' };
    case 'invalid_event_url':
      // The service's words say what is wrong with this one (a market's ticker names its event's address).
      return { kind: 'invalid_event_url', message: `That is not a Kalshi event link${plainMessage(err).trim() ? `: ${plainMessage(err).trim()}` : `. Paste the address of an event page, like ${EXAMPLE_EVENT_URL}`}` };
    case 'idempotency_key_in_progress':
      return { kind: 'in_progress', message: 'This request is already being answered; the answer will appear here when it is ready.' };
    case 'model_not_found':
      return { kind: 'unknown_model', message: 'That agent is not available on this service right now.' };
    case 'invalid_api_key':
      return {
        kind: 'invalid_api_key',
        message: ctx.linking
          ? 'The research service does not accept that key (it may be mistyped, or revoked). Check it, or ask whoever runs svc for a key of your own.'
          : ctx.linkedKey
          ? `Your linked API key was refused (it may have been revoked). Link a new one with \`${ctx.linkHint}\`, or unlink it to use the ${shared}'s account.`
          : 'The bot\'s API key was refused by the research service. Ask whoever runs the bot to check its SVC_API_KEY.',
      };
  }
  if (status === 429 || err.code === 'rate_limit_exceeded') {
    const after = retryAfterSeconds(err);
    return { kind: 'rate_limited', message: `Too many requests right now. Please try again${after ? ` in ${after} seconds` : ' in a minute'}.` };
  }
  if (status === 502 || status === 504 || err.type === 'upstream_error') {
    return { kind: 'upstream', message: 'A data source the research relies on did not answer in time. Please try again in a few minutes.' };
  }
  if (status === 503 || err.code === 'server_shutting_down') {
    return { kind: 'unreachable', message: 'The research service is restarting or unavailable. Please try again in a few minutes.' };
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return { kind: 'invalid_request', message: `The research service could not take this request: ${plainMessage(err)}` };
  }
  return { kind: 'server_error', message: 'The research service had an error while answering. Please try again.' };
}

/** The service's own words, quoted after ours (the cost and balance it gives): ` (“…”).` or `.`. */
function said(err: APIError): string {
  const message = plainMessage(err).trim();
  return message ? ` (the service says: “${message.replace(/\.$/, '')}”).` : '.';
}

/** The service's own message, without the status prefix openai-node adds. */
function plainMessage(err: APIError): string {
  const raw = (err.error as { message?: unknown } | undefined)?.message;
  return typeof raw === 'string' ? raw : err.message.replace(/^\d{3}\s+/, '');
}
