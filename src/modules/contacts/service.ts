import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { type Actor, isCompanyScoped } from '../../platform/actor.ts';
import { parseCrudQuery } from '../../platform/crud-query.ts';
import { type CrudQueryString, crudParams } from '../../platform/crud-search.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import { pageResult } from '../../platform/pagination.ts';
import { COMPANY_ENTITY, findVisibleCompany } from '../companies/repository.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import {
  assertIdentityFree,
  relinkCompanies,
  rereadPerson,
  savePersonUpdate,
} from '../users/person-update.ts';
import {
  addCompanyLinks,
  assertLinkableCompanies,
  assertUserUnique,
  CONTACT_ENTITY,
  credentialsOf,
  findUserWithCompanies,
  insertUser,
  peopleSearchOrder,
  presentUser,
  touchUser,
  userColumnValues,
} from '../users/repository.ts';
import {
  CONTACT_CRUD_FIELDS,
  contactsOfCompany,
  removeCompanyLink,
  searchVisibleContacts,
} from './repository.ts';
import type { CreateContact, UpdateContact } from './schemas.ts';

export const CONTACT_SEARCH = { defaultLimit: 25, maxLimit: 100 };

/** A company-scoped actor must keep every contact it writes linked to one of its companies. */
function assertKeepsScope(actor: Actor, collaborationIds: string[] | undefined) {
  if (isCompanyScoped(actor) && !collaborationIds?.length) {
    throw new AppError('collaboration_required', 'Link the contact to at least one of your companies', {
      issues: [
        { pointer: '/collaborationIds', message: 'must name at least one of your companies', in: 'body' },
      ],
    });
  }
}

/** What identifies a contact: at least one must be set (issue 26: an empty contact was accepted). */
const IDENTITY_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'mobilePhone',
  'externalId',
] as const;

function assertNotEmpty(
  values: Partial<Record<(typeof IDENTITY_FIELDS)[number], string | null | undefined>>,
  customFields: Record<string, unknown> | null | undefined,
) {
  if (IDENTITY_FIELDS.some((field) => values[field]?.trim())) return;
  // Values of the organisation's own contact fields are something to keep too.
  if (Object.values(customFields ?? {}).some((value) => value !== null && value !== '')) return;
  throw new AppError(
    'empty_contact',
    'A contact needs a name, an e-mail, a phone number, an external id or a custom field',
    {
      issues: ['/firstName', '/lastName', '/email'].map((pointer) => ({
        pointer,
        message:
          'at least one of firstName, lastName, email, phoneNumber, mobilePhone, externalId is required',
        in: 'body' as const,
        keyword: 'emptyContact',
      })),
    },
  );
}

export function createContactService(ctx: Pick<AppContext, 'db' | 'change'>) {
  const { db } = ctx;

  async function findContact(tx: Executor, actor: Actor, id: string) {
    const contact = await findUserWithCompanies(tx, actor, id, { role: 'contact' });
    if (!contact) throw notFound('Contact');
    return contact;
  }

  /** Links or unlinks a contact and a company, recorded as an update of the contact's relations. */
  function changeLink(actor: Actor, companyId: string, contactId: string, link: boolean) {
    return ctx.change(actor, async (tx, record) => {
      if (!(await findVisibleCompany(tx, actor, companyId))) throw notFound('Company');
      const current = await findContact(tx, actor, contactId);
      const changed = link
        ? (await addCompanyLinks(tx, actor.organisationId, contactId, [companyId])) > 0
        : await removeCompanyLink(tx, contactId, companyId);
      if (!link && !changed) throw notFound('Link between the company and the contact');
      if (!changed) return presentUser(current, actor);
      await touchUser(tx, contactId);
      const contact = await rereadPerson(tx, actor, contactId);
      await record({
        on: CONTACT_ENTITY,
        type: 'UPDATE',
        entityId: contactId,
        snapshot: presentUser(contact),
        relation: COMPANY_ENTITY,
        relationId: companyId,
        updatedRelations: ['companies'],
      });
      return presentUser(contact, actor);
    });
  }

  return {
    async get(actor: Actor, id: string) {
      return presentUser(await findContact(db, actor, id), actor);
    },

    /** The @nestjsx/crud grammar: a plain array, or the page envelope when `page` is given. */
    async search(actor: Actor, query: CrudQueryString) {
      const crud = parseCrudQuery(crudParams(query), {
        fields: CONTACT_CRUD_FIELDS,
        ...CONTACT_SEARCH,
        defaultSort: peopleSearchOrder(),
      });
      const { rows, total } = await searchVisibleContacts(db, actor, crud);
      const contacts = rows.map((c) => presentUser(c, actor));
      if (!crud.page) return contacts;
      return pageResult(contacts, total ?? 0, { page: crud.page, limit: crud.limit });
    },

    async listForCompany(actor: Actor, companyId: string) {
      if (!(await findVisibleCompany(db, actor, companyId))) throw notFound('Company');
      const rows = await contactsOfCompany(db, actor, companyId);
      return rows.map((c) => presentUser(c, actor));
    },

    create(actor: Actor, input: CreateContact) {
      assertKeepsScope(actor, input.collaborationIds);
      return ctx.change(actor, async (tx, record) => {
        const email = input.email?.trim() || null;
        await assertUserUnique(tx, actor.organisationId, { email, externalId: input.externalId });
        const collaborationIds = input.collaborationIds ?? [];
        await assertLinkableCompanies(tx, actor, collaborationIds, '/collaborationIds');
        const customFields = await validateCustomFields(
          tx,
          actor.organisationId,
          'contact',
          input.customFields,
        );
        // After the scope, links and custom fields, whose refusals say more.
        assertNotEmpty({ ...input, email }, customFields);
        const contactId = await insertUser(tx, {
          organisationId: actor.organisationId,
          role: 'contact',
          username: null,
          email,
          passwordHash: null,
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null,
          phoneNumber: input.phoneNumber ?? null,
          mobilePhone: input.mobilePhone ?? null,
          jobTitle: input.jobTitle ?? null,
          language: input.language ?? null,
          externalId: input.externalId ?? null,
          customFields,
          createdById: actor.userId,
        });
        await addCompanyLinks(tx, actor.organisationId, contactId, collaborationIds);
        const contact = await rereadPerson(tx, actor, contactId);
        await record({
          on: CONTACT_ENTITY,
          type: 'CREATE',
          entityId: contact.id,
          snapshot: presentUser(contact),
        });
        return presentUser(contact, actor);
      });
    },

    update(actor: Actor, id: string, input: UpdateContact) {
      if (input.collaborationIds) assertKeepsScope(actor, input.collaborationIds);
      return ctx.change(actor, async (tx, record) => {
        const current = await findContact(tx, actor, id);
        const credentials = (await credentialsOf(tx, id))!;
        const email = input.email !== undefined ? input.email?.trim() || null : current.email;
        // A contact who was given a password signs in with its e-mail: it keeps one, and follows it.
        let username = credentials.username;
        if (credentials.hasPassword) {
          if (!email) {
            throw new AppError('email_required', 'This contact signs in with its e-mail', {
              issues: [
                { pointer: '/email', message: 'is required: the contact signs in with it', in: 'body' },
              ],
            });
          }
          username = email.toLowerCase();
        }
        await assertIdentityFree(
          tx,
          actor.organisationId,
          id,
          { ...current, username: credentials.username },
          { username, email, externalId: input.externalId },
        );
        const relationsChanged = await relinkCompanies(
          tx,
          actor,
          id,
          input.collaborationIds,
          '/collaborationIds',
        );
        const customFields = await validateCustomFields(
          tx,
          actor.organisationId,
          'contact',
          input.customFields,
          current.customFields,
        );
        const { collaborationIds: _links, customFields: _custom, email: _email, ...fields } = input;
        const values = { ...fields, email, username, customFields };
        assertNotEmpty({ ...current, ...fields, email }, customFields);
        const changed = changedFields(userColumnValues(current), { ...userColumnValues(current), ...values });
        if (changed.length === 0 && !relationsChanged) return presentUser(current, actor);
        return savePersonUpdate(tx, actor, record, {
          id,
          set: values,
          changed,
          relationsChanged,
          entityOf: () => CONTACT_ENTITY,
        });
      });
    },

    link: (actor: Actor, companyId: string, contactId: string) =>
      changeLink(actor, companyId, contactId, true),
    unlink: (actor: Actor, companyId: string, contactId: string) =>
      changeLink(actor, companyId, contactId, false),
  };
}
