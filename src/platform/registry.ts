import type { OrganisationSeeder } from '../context.ts';
import type { Executor } from '../db/client.ts';
import type { Actor } from './actor.ts';
import { compilePayload, type DeclaredPayload, type EntityDescriptor, type EntityPayload } from './events.ts';

/**
 * Reads the current state of the entity an event concerns (`GET /api/events/ressources/{id}`),
 * or undefined when it is deleted or belongs to another organisation (404).
 */
export type ResourceLoader = (
  db: Executor,
  organisationId: string,
  entityId: string,
  /** Who asks (an admin): a loader that answers as the entity's GET does reads for them. */
  actor?: Actor,
) => Promise<Record<string, unknown> | undefined>;

/**
 * A place one module fills and another reads at call time, without importing each other (the
 * briefs module's linker, read by articles); `fallback` answers until it is filled.
 */
export type Slot<T> = { name: string; fallback: T };

/**
 * What the modules of one app declare to each other and to the platform, made in buildApp
 * (`ctx.registry`) and filled while the modules are wired (platform/module.ts). Nothing here is
 * process-wide: two apps in one process (tests, benchmarks) each have their own.
 */
export type Registry = {
  /** Serves an event resource of `tableName` with `loader` (else the generic table loader). */
  eventResource(tableName: string, loader: ResourceLoader): void;
  /** The loader a module registered for a table, if any (events/resource-repository.ts adds the fallback). */
  registeredEventResource(tableName: string): ResourceLoader | undefined;
  /** Seeds the reference data of every new organisation, in its creation transaction. */
  organisationSeeder(seeder: OrganisationSeeder): void;
  /** The seeders, in registration order (a live view: modules wired later are included). */
  readonly organisationSeeders: readonly OrganisationSeeder[];
  /**
   * Declares what the events of an entity deliver as `entity` (once per entity): `payload`, or
   * the one its descriptor carries (`entity(name, plural, table, payload)` in its repository).
   */
  entityPayload(on: EntityDescriptor, payload?: EntityPayload): void;
  /** The declared payload of an entity by its upper-case name. */
  payloadOf(entityName: string): DeclaredPayload | undefined;
  /** Every declared payload (the OpenAPI document's `webhooks`, the payload tests). */
  entityPayloads(): ReadonlyMap<string, DeclaredPayload>;
  fill<T>(slot: Slot<T>, value: T): void;
  slot<T>(slot: Slot<T>): T;
  /** `make()` once per owner (a module's services), then the same value. */
  memo<T>(owner: object, make: () => T): T;
};

export function createRegistry(): Registry {
  const resources = new Map<string, ResourceLoader>();
  const seeders: OrganisationSeeder[] = [];
  const payloads = new Map<string, DeclaredPayload>();
  const slots = new Map<Slot<unknown>, unknown>();
  const memos = new Map<object, { value?: unknown; making: boolean }>();
  return {
    eventResource: (tableName, loader) => void resources.set(tableName, loader),
    registeredEventResource: (tableName) => resources.get(tableName),
    organisationSeeder: (seeder) => void seeders.push(seeder),
    organisationSeeders: seeders,
    entityPayload(on, payload = on.payload) {
      if (!payload) throw new Error(`${on.entity} carries no event payload to declare`);
      if (payloads.has(on.entity)) throw new Error(`The event payload of ${on.entity} is declared twice`);
      payloads.set(on.entity, compilePayload(on.entity, payload));
    },
    payloadOf: (entityName) => payloads.get(entityName),
    entityPayloads: () => payloads,
    fill: (slot, value) => void slots.set(slot as Slot<unknown>, value),
    slot: <T>(slot: Slot<T>) =>
      (slots.has(slot as Slot<unknown>) ? slots.get(slot as Slot<unknown>) : slot.fallback) as T,
    memo<T>(owner: object, make: () => T): T {
      const known = memos.get(owner);
      if (known && !known.making) return known.value as T;
      // Two modules whose services need each other's cannot both be made first.
      if (known) throw new Error('Module services depend on each other in a cycle');
      const entry: { value?: unknown; making: boolean } = { making: true };
      memos.set(owner, entry);
      try {
        entry.value = make();
      } catch (error) {
        memos.delete(owner);
        throw error;
      }
      entry.making = false;
      return entry.value as T;
    },
  };
}
