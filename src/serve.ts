import { createService, type Service } from './app.js';
import type { Config } from './config.js';

/** `svc serve`: runs the API until SIGTERM or SIGINT, then shuts down gracefully. */
export async function serve(config: Config, onReady?: (service: Service, url: string) => Promise<string[]>): Promise<number> {
  const service = await createService({ config });
  // A failed listen (port in use, unknown host) must not leave storage open: the process would linger.
  const url = await service.listen().catch(async (err: unknown) => {
    await service.close().catch(() => {});
    throw err;
  });
  const log = service.deps.log;
  const admin = service.adminKey;
  log.info({ url, storage: service.deps.store.location }, `svc listening on ${url}`);
  if (admin.source === 'file') log.info({ file: admin.file }, admin.created ? `generated the admin key; it is in ${admin.file}` : `admin key read from ${admin.file}`);
  for (const line of (await onReady?.(service, url)) ?? []) process.stdout.write(`${line}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.info({ signal }, 'shutting down: finishing in-flight requests');
      service.close().then(resolve, (err) => {
        log.error({ err }, 'shutdown failed');
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  log.info('stopped');
  return 0;
}
