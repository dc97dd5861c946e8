// Run by pglite-data-directory.ts in a child process of its own (see there why): creates a PGlite
// data directory (PostgreSQL's initdb) and exits. Plain JavaScript so that the same file runs from
// the sources and, copied beside the bundle, from dist/ (scripts/build.ts ASSETS).
import { PGlite } from '@electric-sql/pglite';

const { directory, database, startParams } = JSON.parse(process.argv[2]);
const pglite = new PGlite(directory, { database, startParams });
await pglite.waitReady;
await pglite.close();
