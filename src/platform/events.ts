import type { TObject, TSchema } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import type { Database, Db, Executor, Tx } from '../db/client.ts';
import { type EventType, events } from '../db/schema/platform.ts';
import type { Actor } from './actor.ts';
import { decorateAnswer } from './hipe.ts';

/** Version of the event payload format; bumped when the delivered shape changes. */
export const EVENT_VERSION = '1.0';

/**
 * How an entity is named in events: `event.<plural>.<verb>`, `entity` in upper case. `payload`,
 * when its repository gives one, is what its module declares in the app's registry.
 */
export type EntityDescriptor = { entity: string; plural: string; tableName: string; payload?: EntityPayload };

/**
 * What an event delivers as `entity` (webhooks, `GET /api/events`): the output of the entity's GET
 * presenter for a staff audience that reads costs (events and webhooks are the admins', who hold
 * `costs:read`: test/webhooks/payloads.test.ts checks it), serialised by the GET answer's schema as
 * Fastify serialises the answer (fast-json-stringify: properties the schema does not declare are
 * left out). `present` turns the stored row into what the presenter makes of it (computed
 * fields); without it the row is serialised as it is. The schema is the entity's in the OpenAPI
 * document's `webhooks` section.
 */
export type EntityPayload = {
  /** The GET answer's schema, without what the GET answer reads from other tables. */
  schema: TObject;
  /** The schemas `schema` names with `Type.Ref` (each with its `$id`). */
  refs?: TSchema[];
  /** The GET presenter of one stored row (may read with `db`: the change's transaction). */
  present?: (
    row: Record<string, unknown>,
    db: Executor,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
};

/** A declared payload with its compiled serialiser (platform/registry.ts holds them, per app). */
export type DeclaredPayload = EntityPayload & { name: string; stringify: (value: unknown) => string };

/** The payload of an entity ready to serialise (compiled on its first event). */
export function compilePayload(name: string, payload: EntityPayload): DeclaredPayload {
  let compiled: ((value: unknown) => string) | undefined;
  return {
    ...payload,
    name,
    stringify: (value) => {
      // Serialised without `required`: a snapshot that lacks a property leaves it out rather than
      // failing the change; test/webhooks/payloads.test.ts validates against the schema itself.
      compiled ??= fastJson(withoutRequired(payload.schema) as Parameters<typeof fastJson>[0], {
        schema: Object.fromEntries(
          (payload.refs ?? []).map((ref) => [ref.$id!, withoutRequired(ref)]),
        ) as never,
      });
      return compiled(value);
    },
  };
}

/**
 * A document as an answer with `schema` is sent (fast-json-stringify, as Fastify serialises the
 * answer: undeclared properties left out), for answers built outside a route's serialiser.
 */
export function answerSerializer(schema: TSchema, refs: TSchema[] = []) {
  let compiled: ((value: unknown) => string) | undefined;
  return (value: unknown): Record<string, unknown> => {
    compiled ??= fastJson(withoutRequired(schema) as Parameters<typeof fastJson>[0], {
      schema: Object.fromEntries(refs.map((ref) => [ref.$id!, withoutRequired(ref)])) as never,
    });
    return JSON.parse(compiled(decorateAnswer(structuredClone(value))));
  };
}

/** A copy of a JSON schema without its `required` lists (at every depth). */
function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'required')
      .map(([key, value]) => [key, withoutRequired(value)]),
  );
}

/**
 * The descriptor of an entity; with `payload`, what its events deliver, which its module declares
 * (`ctx.registry.entityPayload(DESCRIPTOR)` in its module.ts).
 */
export const entity = (
  name: string,
  plural: string,
  tableName = plural,
  payload?: EntityPayload,
): EntityDescriptor => ({ entity: name, plural, tableName, ...(payload ? { payload } : {}) });

/** Where the declared payloads are looked up (the app's registry, platform/registry.ts). */
export type PayloadLookup = { payloadOf(entityName: string): DeclaredPayload | undefined };

/**
 * The `entity` an event delivers: the snapshot through its entity's GET presenter and schema;
 * the snapshot as it is (JSON-safe) for an entity that declares no payload.
 */
export async function presentSnapshot(
  payloads: PayloadLookup,
  tx: Tx,
  change: Change,
): Promise<Record<string, unknown> | null> {
  if (!change.snapshot) return null;
  // A repository's payload its module forgot to declare would deliver the raw row: refused.
  if (change.on.payload && !payloads.payloadOf(change.on.entity))
    throw new Error(`The event payload of ${change.on.entity} is not declared by its module`);
  return presentEntity(payloads, tx, change.on.entity, change.snapshot);
}

/** One row of an entity through its declared payload (JSON-safe as it is without one). */
export async function presentEntity(
  payloads: PayloadLookup,
  db: Executor,
  entityName: string,
  row: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const payload = payloads.payloadOf(entityName);
  if (!payload) return toJsonSafe(row);
  const presented = payload.present ? await payload.present(row, db) : row;
  // HIPE's names, as every GET answer has them (platform/hipe.ts), on a copy of the row.
  return JSON.parse(payload.stringify(decorateAnswer(structuredClone(presented))));
}

export type Change = {
  on: EntityDescriptor;
  type: EventType;
  entityId: string;
  /** The entity's state after the change (before it, for a delete): delivered as `entity`. */
  snapshot?: Record<string, unknown>;
  /** For a child that changed (an order item of an order): the parent's kind and id. */
  relation?: EntityDescriptor;
  relationId?: string;
  fieldName?: string;
  updatedColumns?: string[];
  updatedRelations?: string[];
  /** Brief-related process name, e.g. PREDICTION. */
  process?: string;
  /** The tenant of the event when it is not the actor's (only while creating a tenant). */
  organisationId?: string;
};

/** Who makes a change; null for the service itself (first-start bootstrap). */
export type ChangeActor = { organisationId: string; userId: string | null } | null;

const VERBS: Record<EventType, string> = { CREATE: 'created', UPDATE: 'updated', DELETE: 'deleted' };

/**
 * The events row of a change, its payload the snapshot as it is: the recorder presents it
 * (`presentSnapshot`), as the imports' bulk insert and the webhooks' test event do.
 */
export function eventRow(change: Change, organisationId: string, actorId: string | null) {
  const verb = VERBS[change.type];
  return {
    organisationId,
    eventName: `event.${change.on.plural}.${verb}`,
    category: `${change.on.plural}.${verb}`,
    type: change.type,
    entity: change.on.entity,
    tableName: change.on.tableName,
    entityId: change.entityId,
    relation: change.relation?.entity ?? null,
    relationId: change.relationId ?? null,
    fieldName: change.fieldName ?? null,
    updatedColumns: change.updatedColumns ?? null,
    updatedRelations: change.updatedRelations ?? null,
    process: change.process ?? null,
    version: EVENT_VERSION,
    payload: change.snapshot ?? null,
    actorId,
  };
}

export type CommittedListener = (organisationId: string) => void;

/**
 * Work done inside the transaction of every change, after the change itself and just before the
 * commit, with the changes it recorded; it may throw to roll the change back, and may answer a
 * function to run once the transaction has committed. (Idempotency keys store their answer here:
 * platform/idempotency.ts.)
 */
export type CommitHook = (tx: Tx, recorded: readonly Change[]) => Promise<(() => void) | undefined>;

/** Records change events inside the transaction of the change itself (transactional outbox). */
export type EventRecorder = (change: Change) => Promise<void>;

export type ChangeRunner = {
  /**
   * Runs `work` in one transaction; every event it records commits or rolls back with it.
   * Listeners are told after a commit that recorded events, so delivery can start at once.
   */
  <T>(actor: ChangeActor | Actor, work: (tx: Tx, record: EventRecorder) => Promise<T>): Promise<T>;
  onCommitted(listener: CommittedListener): void;
  beforeCommit(hook: CommitHook): void;
  /** An event's `entity` (`presentSnapshot` with the app's payloads), for events written by hand. */
  present(tx: Tx, change: Change): Promise<Record<string, unknown> | null>;
};

export function toJsonSafe(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value));
}

export function createChangeRunner(database: Pick<Database, 'db'>, payloads: PayloadLookup): ChangeRunner {
  const listeners: CommittedListener[] = [];
  const hooks: CommitHook[] = [];
  const run = async <T>(
    actor: ChangeActor | Actor,
    work: (tx: Tx, record: EventRecorder) => Promise<T>,
  ): Promise<T> => {
    const touched = new Set<string>();
    const recorded: Change[] = [];
    const afterCommit: Array<() => void> = [];
    const result = await (database.db as Db).transaction(async (tx) => {
      const record: EventRecorder = async (change) => {
        const organisationId = change.organisationId ?? actor?.organisationId;
        if (!organisationId) throw new Error(`Event ${change.on.entity} ${change.type} has no organisation`);
        touched.add(organisationId);
        recorded.push(change);
        await tx.insert(events).values({
          ...eventRow(change, organisationId, actor?.userId ?? null),
          payload: await presentSnapshot(payloads, tx, change),
        });
      };
      const value = await work(tx, record);
      for (const hook of hooks) {
        const then = await hook(tx, recorded);
        if (then) afterCommit.push(then);
      }
      return value;
    });
    for (const then of afterCommit) then();
    for (const organisationId of touched) for (const listener of listeners) listener(organisationId);
    return result;
  };
  return Object.assign(run, {
    onCommitted: (listener: CommittedListener) => void listeners.push(listener),
    beforeCommit: (hook: CommitHook) => void hooks.push(hook),
    present: (tx: Tx, change: Change) => presentSnapshot(payloads, tx, change),
  });
}

/** The names of the fields whose values differ between two versions of a row. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const ignored = new Set(['updatedAt']);
  return Object.keys(after).filter(
    (key) => !ignored.has(key) && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}
