import type { Database, Db, Tx } from '../db/client.ts';
import { type EventType, events } from '../db/schema/platform.ts';
import type { Actor } from './actor.ts';

/** Version of the event payload format; bumped when the delivered shape changes. */
export const EVENT_VERSION = '1.0';

/** How an entity is named in events: `event.<plural>.<verb>`, `entity` in upper case. */
export type EntityDescriptor = { entity: string; plural: string; tableName: string };

export const entity = (name: string, plural: string, tableName = plural): EntityDescriptor => ({
  entity: name,
  plural,
  tableName,
});

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
 * The events row of a change, its payload the snapshot as it is: the recorder makes it JSON-safe,
 * the imports' bulk insert serialises it with the whole batch.
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
};

export function toJsonSafe(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value));
}

export function createChangeRunner(database: Pick<Database, 'db'>): ChangeRunner {
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
          payload: change.snapshot ? toJsonSafe(change.snapshot) : null,
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
  });
}

/** The names of the fields whose values differ between two versions of a row. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const ignored = new Set(['updatedAt']);
  return Object.keys(after).filter(
    (key) => !ignored.has(key) && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}
