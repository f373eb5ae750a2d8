// The bench's reference (issue 11): a bare Fastify POST that does one INSERT into PostgreSQL
// (autocommit, 20 pooled connections), no NestJS, no validation; and for the read phases (documents-list) a
// bare GET doing one SELECT by primary key of a row it wrote. Run in a child process of its
// own so that it never shares an event loop with the load generator, like the gateway.
// argv: <databaseUrl>; prints "listening <port>" on stdout once it accepts requests.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const Fastify = require('fastify');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.argv[2], max: 20, application_name: 'einvoice-bench-reference' });
await pool.query(`CREATE TABLE IF NOT EXISTS bench_reference (id bigserial PRIMARY KEY, body jsonb NOT NULL, received_at timestamptz NOT NULL DEFAULT now())`);

// The body as received (a string): the INSERT casts it, so nothing parses it twice.
const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
app.post('/reference', async (request, reply) => {
  const { rows } = await pool.query('INSERT INTO bench_reference (body) VALUES ($1::jsonb) RETURNING id', [request.body]);
  reply.code(202);
  return { status: 'success', data: { DocumentID: `00000000-0000-4000-8000-${String(rows[0].id).padStart(12, '0')}` } };
});
app.get('/reference/:id', async (request, reply) => {
  const { rows } = await pool.query('SELECT id, body, received_at FROM bench_reference WHERE id = $1', [request.params.id]);
  if (!rows[0]) reply.code(404);
  return { status: 'success', data: rows[0] ?? null };
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${app.server.address().port}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end()).finally(() => process.exit(0));
});
