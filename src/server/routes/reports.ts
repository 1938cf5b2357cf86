import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { ServerDeps } from '../deps.js';
import { intQuery } from '../validate.js';

/** Stored prediction-market reports: every version of an event's report, free to read. */
export async function reportRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.get('/v1/prediction-markets/reports/:ticker', async (request) => {
    const ticker = (request.params as { ticker: string }).ticker.toUpperCase();
    const wanted = intQuery((request.query as Record<string, unknown>).version, 'version', 0, 1);
    const versions = await deps.reports.versions(ticker);
    if (!versions.length) {
      throw notFound('report_not_found', `No report is stored for '${ticker}'. svc-prediction-markets-agent generates one from the event's page address.`, 'ticker');
    }
    const report = wanted ? await deps.reports.version(ticker, wanted) : await deps.reports.latest(ticker);
    if (!report) throw notFound('report_version_not_found', `'${ticker}' has no version ${wanted}; versions 1 to ${versions[0]!.version} exist.`, 'version');
    return {
      object: 'prediction_market.report',
      event_ticker: ticker,
      version: report.version,
      title: report.title,
      series_ticker: report.seriesTicker,
      generated_at: new Date(report.generatedAt).toISOString(),
      as_of: report.asOf,
      source: report.source,
      text: report.text,
      citations: report.citations,
      versions: versions.map((v) => ({ id: v.id, version: v.version, generated_at: new Date(v.generatedAt).toISOString(), as_of: v.asOf, source: v.source })),
    };
  });
}
