import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';

/** Where the generated OpenAPI document is kept in the repository (the service also serves it live). */
export const OPENAPI_PATH = 'docs/openapi.json';

/**
 * The OpenAPI 3.1 document of the service, exactly as GET /api/openapi.json serves it: built from
 * the routes' schemas by @fastify/swagger. The app is built on a throw-away in-memory database
 * with its default configuration; no worker runs and nothing listens.
 */
export async function renderOpenApi(): Promise<string> {
  const database = await openDatabase({ kind: 'pglite' });
  await runMigrations(database);
  const app = await buildApp({
    config: loadConfig({
      JWT_SECRET: 'openapi-document-only-openapi-document-only',
      ENCRYPTION_KEY: 'openapi-document-only-openapi-document-only',
      LOG_LEVEL: 'silent',
    }),
    database,
    logger: false,
    runWorkers: false,
  });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await database.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_PATH, await renderOpenApi());
  console.log(`wrote ${OPENAPI_PATH}`);
}
