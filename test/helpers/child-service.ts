// A service in its own process (for multi-replica and crash tests): prints {"url"} when ready.
import { createService } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { paidAgents } from './paid-agent.js';
import { TEST_ENV } from './service.js';

const config = loadConfig({ ...TEST_ENV, ...process.env });
const service = await createService({ config, agents: (core) => paidAgents(core, { delayMs: Number(process.env.PAID_DELAY_MS ?? 0) }) });
const url = await service.listen();
process.stdout.write(`${JSON.stringify({ url, adminKey: service.adminKey.secret })}\n`);
process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
