// A bare fastify route returning fixed bytes: the baseline every ratio is measured against.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [file, contentType] = process.argv.slice(2);
const bytes = readFileSync(file);
const app = Fastify({ logger: false });
app.post('/bare', async (_req, reply) => reply.header('content-type', contentType).send(bytes));
app.get('/bare', async (_req, reply) => reply.header('content-type', contentType).send(bytes));
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${app.server.address().port}/bare` })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
