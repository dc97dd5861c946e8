import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Relative to this module; the bundle gets a copy beside it (scripts/build.ts ASSETS). */
const CREATE_SCRIPT = fileURLToPath(new URL('./pglite-create.mjs', import.meta.url));

/**
 * Creates a new PGlite data directory (PostgreSQL's initdb) in a short-lived child process; the
 * caller then opens it in its own process as usual. An existing directory is left as it is.
 *
 * Why a child: initdb grows PGlite's WebAssembly memory, and WebAssembly memory never shrinks. A
 * script that created its data directory held 448 MB afterwards (peak 548), one that opened an
 * existing directory 148 MB (both under `npm start`'s flags; bench/RESULTS.md, "PGlite 0.4"). The
 * child's memory goes back to the system when it exits.
 */
export async function createPgliteDataDirectory(
  directory: string,
  settings: { database: string; startParams: string[] },
): Promise<void> {
  if (existsSync(join(directory, 'PG_VERSION'))) return;
  mkdirSync(dirname(directory), { recursive: true });
  try {
    // Same Node flags as this process (e.g. --liftoff-only from `npm start`).
    await promisify(execFile)(
      process.execPath,
      [...process.execArgv, CREATE_SCRIPT, JSON.stringify({ directory, ...settings })],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(`could not create the PGlite data directory ${directory}: ${stderr || error}`);
  }
}
