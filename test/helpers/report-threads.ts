import path from 'node:path';
import OpenAI from 'openai';
import { PACKAGE_ROOT } from '../../src/config.js';
import { startService, type TestService } from './service.js';

/**
 * The service on the shipped demo snapshots (SEC and Kalshi), as a user meets it: one client on
 * the free plan that asks, one on a paid plan that generates the reports a thread discusses.
 */
export interface DemoThreads {
  svc: TestService;
  client: OpenAI;
  payer: OpenAI;
  /** An event's report (its address or ticker), generated once for the service. */
  reportOf(event: string): Promise<string>;
  /**
   * A thread a user builds with svc-agent: each event's report asked for (its address, then the
   * report), then the questions one by one, each answer kept; returns the asking function.
   */
  thread(...events: string[]): Promise<(question: string) => Promise<string>>;
}

export async function startDemoThreads(): Promise<DemoThreads> {
  const svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'sec'), SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') } });
  const client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
  const payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 60 })).apiKey, maxRetries: 0 });
  const reports = new Map<string, Promise<string>>();
  const reportOf = (event: string) => {
    if (!reports.has(event)) reports.set(event, payer.responses.create({ model: 'svc-prediction-markets-agent', input: event }).then((r) => r.output_text));
    return reports.get(event)!;
  };
  const thread = async (...events: string[]) => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
    for (const event of events) messages.push({ role: 'user', content: event }, { role: 'assistant', content: await reportOf(event) });
    return async (content: string) => {
      messages.push({ role: 'user', content });
      const text = (await client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
      messages.push({ role: 'assistant', content: text });
      return text;
    };
  };
  return { svc, client, payer, reportOf, thread };
}
