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
 * A feature module's one entry (`src/modules/<name>/module.ts`, exported as `<camelName>Module`),
 * listed in MODULES in src/app.ts. Made with `defineModule`.
 */
export type FeatureModule<S = unknown> = {
  name: string;
  /**
   * The unprefixed path prefixes its aliased plugins serve, which the specification names as the
   * same operations as their /api forms: authenticated like /api and hidden from OpenAPI.
   */
  aliases?: readonly string[];
  /** The module's services in this app, made on first ask and the same ones after. */
  services: (ctx: AppContext) => S;
  /** Runs once per app (buildApp): registers jobs and declarations, answers the route plugins. */
  wire: (ctx: AppContext) => ModulePlugin[];
};

export type ModuleDefinition<S> = {
  name: string;
  aliases?: readonly string[];
  /**
   * Makes the module's services from the context, each factory given only what it uses (a `Pick`
   * of the context); another module's services come from `otherModule.services(ctx)`. No jobs,
   * no registrations here: it may run before the module is wired, when another module asks.
   */
  services?: (ctx: AppContext) => S;
  /**
   * Registers what the module declares (jobs, event resources and payloads, seeders in
   * `ctx.registry`) and answers its route plugins, which are given the services and only route.
   */
  wire: (ctx: AppContext, services: S) => ModulePlugin[];
};

/**
 * A feature module: `services` memoised per app in `ctx.registry`, `wire` given them.
 *
 *   export const ordersModule = defineModule({
 *     name: 'orders',
 *     services: (ctx) => ({ orders: createOrderService(ctx) }),
 *     wire: (ctx, { orders }) => [{ plugin: ordersRoutes(orders) }],
 *   });
 */
export function defineModule<S = Record<string, never>>(definition: ModuleDefinition<S>): FeatureModule<S> {
  const module: FeatureModule<S> = {
    name: definition.name,
    ...(definition.aliases ? { aliases: definition.aliases } : {}),
    services: (ctx) => ctx.registry.memo(module, () => definition.services?.(ctx) ?? ({} as S)),
    wire: (ctx) => definition.wire(ctx, module.services(ctx)),
  };
  return module;
}

/** Every unprefixed alias prefix of these modules (for route-security.ts). */
export const aliasPrefixes = (modules: readonly FeatureModule[]): string[] =>
  modules.flatMap((m) => m.aliases ?? []);
