import { loadConfig } from '../config.ts';
import { openDatabase } from './client.ts';
import { runMigrations } from './migrate.ts';

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: config.dataDir },
);
await runMigrations(database);
await database.close();
console.log(JSON.stringify({ msg: 'migrations applied', database: database.kind }));
