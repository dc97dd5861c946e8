import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { runMigrations } from './db/migrate.ts';
import { organisationsModule } from './modules/organisations/module.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(JSON.stringify({ level: 'fatal', msg: `Invalid configuration: ${error.message}` }));
      process.exit(2);
    }
    throw error;
  }
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: config.dataDir },
  );
  await runMigrations(database);
  // Validators compiled on each route's first request (idle memory, issue 31: platform/lazy-schemas.ts).
  const app = await buildApp({ config, database, lazySchemas: true });

  const bootstrap = await organisationsModule.services(app.ctx).organisations.bootstrap();
  if (bootstrap.created) {
    app.log.info({ email: bootstrap.email }, 'created the first organisation and its superadmin');
    if (bootstrap.generatedPassword) {
      // Printed once, on the console only: it is not stored anywhere in clear.
      console.log(`\nSuperadmin ${bootstrap.email} password (shown once): ${bootstrap.generatedPassword}\n`);
    }
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: draining in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out');
      process.exit(1);
    }, 30_000);
    timer.unref();
    try {
      await app.close(); // stops accepting, waits for in-flight requests, stops workers
      await database.close();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ node: process.version, database: database.kind }, 'service started');
}

main().catch((error) => {
  console.error(
    JSON.stringify({ level: 'fatal', msg: 'failed to start', err: String(error?.stack ?? error) }),
  );
  process.exit(1);
});
