import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import type { EntityDescriptor, EventRecorder } from '../../platform/events.ts';
import {
  assertLinkableCompanies,
  assertUserUnique,
  findUserWithCompanies,
  presentUser,
  type Role,
  replaceCompanyLinks,
  type UserUpdate,
  updateUser,
} from './repository.ts';

/**
 * The steps PATCH /users/{id} and PATCH /contacts/{id} share (a contact is a user of role
 * `contact`): each route decides what may change, these check and write it the same way.
 */

/** Refuses a username, e-mail or external id that changes to one another live user holds. */
export function assertIdentityFree(
  tx: Tx,
  organisationId: string,
  id: string,
  before: { username: string | null; email: string | null; externalId: string | null },
  next: { username: string | null; email: string | null; externalId?: string | null },
) {
  return assertUserUnique(
    tx,
    organisationId,
    {
      username: next.username !== before.username ? next.username : undefined,
      email: next.email?.toLowerCase() !== before.email?.toLowerCase() ? next.email : undefined,
      externalId: next.externalId !== before.externalId ? next.externalId : undefined,
    },
    id,
  );
}

/** Replaces the person's company links when the body names them; whether anything changed. */
export async function relinkCompanies(
  tx: Tx,
  actor: Actor,
  id: string,
  companyIds: string[] | undefined,
  pointer: string,
): Promise<boolean> {
  if (!companyIds) return false;
  await assertLinkableCompanies(tx, actor, companyIds, pointer);
  return replaceCompanyLinks(tx, actor, id, companyIds);
}

/** Re-reads a person after a change, whatever the actor's scope, for the response and the event. */
export async function rereadPerson(tx: Tx, actor: Actor, id: string, archived = false) {
  const person = await findUserWithCompanies(tx, actor, id, { anyScope: true, archived });
  if (!person) throw new Error(`user ${id} vanished during its change`);
  return person;
}

/** Writes the changed columns, records the UPDATE event and answers the person as the actor sees it. */
export async function savePersonUpdate(
  tx: Tx,
  actor: Actor,
  record: EventRecorder,
  change: {
    id: string;
    set: UserUpdate;
    changed: string[];
    relationsChanged: boolean;
    entityOf: (role: Role) => EntityDescriptor;
  },
) {
  await updateUser(tx, change.id, change.set);
  const person = await rereadPerson(tx, actor, change.id);
  await record({
    on: change.entityOf(person.role),
    type: 'UPDATE',
    entityId: change.id,
    snapshot: presentUser(person),
    updatedColumns: change.changed,
    ...(change.relationsChanged ? { updatedRelations: ['companies'] } : {}),
  });
  return presentUser(person, actor);
}
