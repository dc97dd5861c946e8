import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.ts';
import type { users } from '../../db/schema/platform.ts';
import type { Change } from '../../platform/events.ts';
import { CONTACT_ENTITY, presentUser } from '../users/repository.ts';
import {
  addCompanyLinks,
  archiveAbsentContacts,
  type ContactRow,
  countAbsentContacts,
  findContactsByKey,
  findUsernameOwners,
  findUsersWithCompanies,
  insertContacts,
  removeCompanyLinks,
  touchUsers,
  updateContacts,
} from './contact-repository.ts';
import { unknownCompany } from './references.ts';
import { companiesByExternalId } from './repository.ts';
import { emptyOutcome, fail, type ImportType, type InputRow } from './types.ts';
import { differences, RowReader } from './values.ts';

const PLAIN_FIELDS = ['email', 'firstName', 'lastName', 'phoneNumber'] as const;

const externalKey = (externalId: string) => `x:${externalId}`;
const emailKey = (email: string) => `e:${email.toLowerCase()}`;

async function snapshots(tx: Tx, ids: string[]) {
  if (ids.length === 0) return new Map<string, ReturnType<typeof presentUser>>();
  const rows = await findUsersWithCompanies(tx, ids);
  return new Map(rows.map((row) => [row.id, presentUser(row)]));
}

export const contactsImport: ImportType = {
  code: '17',
  name: 'contacts',
  description: 'Contacts (users with role contact), matched by external id, else by e-mail',
  entity: CONTACT_ENTITY,
  customFieldEntity: 'contact',
  columns: [
    {
      name: 'externalId',
      description: 'The contact’s id in the ERP: the first match key (at most 200 characters)',
    },
    {
      name: 'email',
      description:
        'E-mail, unique among the users of the organisation: the match key when the external id matches no contact',
    },
    { name: 'firstName', description: 'At most 200 characters' },
    { name: 'lastName', description: 'At most 200 characters' },
    { name: 'phoneNumber', description: 'At most 50 characters' },
    {
      name: 'companyExternalIds',
      description:
        'External ids of the linked companies, separated by `|`; replaces the links; empty removes them',
    },
  ],
  required: [],
  checkHeader: (columns) =>
    columns.has('externalId') || columns.has('email')
      ? undefined
      : 'the header must have an externalId or an email column (the match keys)',

  keysOf(row: InputRow) {
    const keys: string[] = [];
    const externalId = row.values.externalId?.trim();
    const email = row.values.email?.trim();
    if (externalId) keys.push(externalKey(externalId));
    if (email) keys.push(emailKey(email));
    return keys;
  },

  async applyBatch(c, rows) {
    const out = emptyOutcome();
    const parsed = rows.map((input) => {
      const reader = new RowReader(input);
      const externalId = reader.text('externalId', 200);
      const email = reader.email('email');
      const fields = {
        email,
        firstName: reader.text('firstName', 200),
        lastName: reader.text('lastName', 200),
        phoneNumber: reader.text('phoneNumber', 50),
      };
      const companyKeys = reader.list('companyExternalIds', 200);
      if (!externalId && !email && !reader.failed) {
        reader.error(null, 'needs an externalId or an email to be matched');
      }
      out.keys.push(...contactsImport.keysOf(input));
      return { input, reader, externalId, email, fields, companyKeys };
    });

    const externalIds = parsed.flatMap((p) => (p.externalId ? [p.externalId] : []));
    const emails = parsed.flatMap((p) => (p.email ? [p.email.toLowerCase()] : []));
    const found =
      externalIds.length || emails.length
        ? await findContactsByKey(c.tx, c.organisationId, externalIds, emails)
        : [];
    const byExternalId = new Map<string, ContactRow>();
    const byEmail = new Map<string, ContactRow>();
    for (const user of found) {
      if (user.externalId) byExternalId.set(user.externalId, user);
      if (user.email) byEmail.set(user.email.toLowerCase(), user);
    }
    // Usernames are unique across the service: a contact who signs in follows its e-mail.
    const takenUsernames = new Map<string, string>();
    if (emails.length) {
      const rows = await findUsernameOwners(c.tx, emails);
      for (const row of rows) takenUsernames.set(row.username!.toLowerCase(), row.id);
    }
    const companyIds = await companiesByExternalId(
      c.tx,
      c.organisationId,
      parsed.flatMap((p) => p.companyKeys ?? []),
    );

    const creates: Array<typeof users.$inferInsert & { id: string }> = [];
    const updates: Array<{ id: string; changed: string[]; values: Record<string, unknown> }> = [];
    const updateFields = new Set<string>();
    const linksToAdd: Array<{ userId: string; companyId: string }> = [];
    const linksToRemove: Array<{ user_id: string; company_id: string }> = [];
    const relinked = new Set<string>();
    const createdIds: string[] = [];

    for (const p of parsed) {
      const { reader } = p;
      if (reader.failed) {
        fail(out, reader);
        continue;
      }
      let match: ContactRow | undefined;
      if (p.externalId) {
        match = byExternalId.get(p.externalId);
        if (match && match.role !== 'contact') {
          reader.error('externalId', 'belongs to a user who is not a contact');
        }
      }
      if (!match && p.email && !reader.failed) {
        const other = byEmail.get(p.email.toLowerCase());
        if (other && other.role !== 'contact') {
          reader.error('email', 'is the e-mail of a user who is not a contact');
        } else if (other?.externalId && p.externalId && other.externalId !== p.externalId) {
          reader.error('email', `is the e-mail of the contact with external id "${other.externalId}"`);
        } else match = other;
      }
      if (match && p.email && p.email.toLowerCase() !== match.email?.toLowerCase()) {
        const holder = byEmail.get(p.email.toLowerCase());
        if (holder && holder.id !== match.id) reader.error('email', 'is already the e-mail of another user');
      }
      let username: string | null | undefined;
      if (match?.hasPassword && p.email !== undefined) {
        if (p.email === null) reader.error('email', 'is required: the contact signs in with it');
        else if (p.email.toLowerCase() !== match.username?.toLowerCase()) {
          const holder = takenUsernames.get(p.email.toLowerCase());
          if (holder && holder !== match.id) reader.error('email', 'is already the username of another user');
          else username = p.email.toLowerCase();
        }
      }
      let desired: string[] | undefined;
      if (p.companyKeys) {
        desired = [];
        for (const key of p.companyKeys) {
          const id = companyIds.get(key);
          if (!id) reader.error('companyExternalIds', unknownCompany(key));
          else if (!desired.includes(id)) desired.push(id);
        }
      }
      const customFields = reader.customFields(c.definitions, match?.customFields);
      if (reader.failed) {
        fail(out, reader);
        continue;
      }

      if (!match) {
        const id = uuidv7();
        creates.push({
          id,
          organisationId: c.organisationId,
          role: 'contact',
          username: null,
          email: p.email ?? null,
          passwordHash: null,
          firstName: p.fields.firstName ?? null,
          lastName: p.fields.lastName ?? null,
          phoneNumber: p.fields.phoneNumber ?? null,
          externalId: p.externalId ?? null,
          customFields: customFields ?? {},
          createdById: c.actorId,
        });
        for (const companyId of desired ?? []) linksToAdd.push({ userId: id, companyId });
        createdIds.push(id);
        const key = p.externalId ? externalKey(p.externalId) : emailKey(p.email!);
        out.createdKeys.push({ key, id });
        continue;
      }
      const next: Record<string, unknown> = {};
      for (const field of PLAIN_FIELDS) if (p.fields[field] !== undefined) next[field] = p.fields[field];
      if (p.externalId && !match.externalId) next.externalId = p.externalId;
      if (username !== undefined) next.username = username;
      if (Object.keys(p.input.customFields).length) next.customFields = customFields;
      const changed = differences(match, next);
      let linksChanged = false;
      if (desired) {
        const current = new Set(match.companyIds);
        for (const companyId of desired) {
          if (!current.has(companyId)) {
            linksToAdd.push({ userId: match.id, companyId });
            linksChanged = true;
          }
        }
        for (const companyId of current) {
          if (!desired.includes(companyId)) {
            linksToRemove.push({ user_id: match.id, company_id: companyId });
            linksChanged = true;
          }
        }
      }
      if (changed.length === 0 && !linksChanged) {
        out.unchanged++;
        continue;
      }
      if (linksChanged) relinked.add(match.id);
      for (const field of changed) updateFields.add(field);
      updates.push({ id: match.id, changed, values: { ...match, ...next } });
    }

    await insertContacts(c.tx, creates);
    if (updates.length && updateFields.size) {
      await updateContacts(
        c.tx,
        c.organisationId,
        [...updateFields],
        updates.filter((u) => u.changed.length).map((u) => ({ ...u.values, id: u.id })),
      );
    }
    const relinkedOnly = updates.filter((u) => u.changed.length === 0).map((u) => u.id);
    if (relinkedOnly.length) await touchUsers(c.tx, relinkedOnly);
    if (linksToRemove.length) await removeCompanyLinks(c.tx, linksToRemove);
    await addCompanyLinks(c.tx, c.organisationId, linksToAdd);

    const after = await snapshots(c.tx, [...createdIds, ...updates.map((u) => u.id)]);
    for (const id of createdIds) {
      out.changes.push({ on: CONTACT_ENTITY, type: 'CREATE', entityId: id, snapshot: after.get(id) });
    }
    for (const update of updates) {
      out.changes.push({
        on: CONTACT_ENTITY,
        type: 'UPDATE',
        entityId: update.id,
        snapshot: after.get(update.id),
        updatedColumns: update.changed,
        ...(relinked.has(update.id) ? { updatedRelations: ['companies'] } : {}),
      });
    }
    out.created += creates.length;
    out.updated += updates.length;
    return out;
  },

  async archiveAbsent(c, limit) {
    const ids = await archiveAbsentContacts(c.tx, c, limit);
    const after = await snapshots(c.tx, ids);
    return ids.map(
      (id): Change => ({ on: CONTACT_ENTITY, type: 'DELETE', entityId: id, snapshot: after.get(id) }),
    );
  },

  countAbsent: (c) => countAbsentContacts(c.tx, c),
};
