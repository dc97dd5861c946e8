import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db, Tx } from './db/client.ts';
import type { Authenticator, TokenSigner } from './platform/auth.ts';
import type { ChangeRunner, EventRecorder } from './platform/events.ts';
import type { Jobs } from './platform/jobs.ts';
import type { Registry } from './platform/registry.ts';
import type { SessionCookies } from './platform/session.ts';

/** Seeds the reference data a new organisation starts with, inside its creation transaction. */
export type OrganisationSeeder = (
  tx: Tx,
  organisation: { id: string; adminUserId: string },
  record: EventRecorder,
) => Promise<void>;

/**
 * The app's shared pieces, built once per app in app.ts. A module's module.ts hands each service
 * factory only the part it uses (`Pick<AppContext, 'db' | 'change'>`): no container.
 */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  /** Runs a change in a transaction with its events (see platform/events.ts). */
  change: ChangeRunner;
  jobs: Jobs;
  signer: TokenSigner;
  authenticator: Authenticator;
  /** The web app's cookie session (src/platform/session.ts). */
  session: SessionCookies;
  /**
   * What modules declare for this app: event resources and payloads, organisation seeders, their
   * services (platform/registry.ts). Filled while modules are wired.
   */
  registry: Registry;
  /** Work to run when the app closes, before the database is closed (workers, timers). */
  onClose: (hook: () => Promise<void>) => void;
};
