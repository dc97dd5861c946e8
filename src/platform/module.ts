import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';

/** A route plugin of a module and where it is served. */
export type ModulePlugin = {
  plugin: FastifyPluginAsync;
  /** Also served unprefixed (`/orders` beside `/api/orders`): the module's `aliases`. */
  aliased?: boolean;
  /** Served at the root instead of under `/api` (the health checks). */
  root?: boolean;
};

/**
 * A feature module's one entry (`src/modules/<name>/module.ts`), listed in MODULES in src/app.ts.
 * `wire` runs once per app: it makes the module's services, defines its jobs, registers its
 * event resources and organisation seeders, and answers its route plugins, which only route.
 */
export type FeatureModule = {
  name: string;
  wire: (ctx: AppContext) => ModulePlugin[];
  /**
   * The unprefixed path prefixes its aliased plugins serve, which the specification names as the
   * same operations as their /api forms: authenticated like /api and hidden from OpenAPI.
   */
  aliases?: readonly string[];
};

/** Every unprefixed alias prefix of these modules (for route-security.ts). */
export const aliasPrefixes = (modules: readonly FeatureModule[]): string[] =>
  modules.flatMap((m) => m.aliases ?? []);
