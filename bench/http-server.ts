import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';

/**
 * A server for bench/http.ts: MODE=app is the real service; MODE=bare is bare Fastify answering
 * each request with one SQL query on the same database (the baseline).
 */
// Exit normally on SIGTERM so a --cpu-prof profile gets written.
process.on('SIGTERM', () => process.exit(0));
const url = process.env.DATABASE_URL!;
if (process.env.MODE === 'bare') {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = Fastify();
  app.get('/user/:id', async (request) => {
    const { rows } = await pool.query(
      'select id, organisation_id, role, username, email, first_name, last_name, created_at, updated_at from users where id = $1 and deleted_at is null',
      [(request.params as { id: string }).id],
    );
    return rows[0];
  });
  app.get('/users/:organisationId', async (request) => {
    const { rows } = await pool.query(
      'select id, organisation_id, role, username, email, first_name, last_name, created_at, updated_at from users where organisation_id = $1 and deleted_at is null order by created_at desc, id desc limit 25',
      [(request.params as { organisationId: string }).organisationId],
    );
    return rows;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`READY ${(app.server.address() as { port: number }).port}`);
} else {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 10 });
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', RUN_WORKERS: 'false' });
  const app = await buildApp({ config, database, logger: false, runWorkers: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`READY ${(app.server.address() as { port: number }).port}`);
}
