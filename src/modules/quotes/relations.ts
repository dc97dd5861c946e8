import type { Executor } from '../../db/client.ts';
import { type Actor, assertCompanyWritable } from '../../platform/actor.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { invalidReference, liveAddress, liveCompany, liveProject } from '../../platform/references.ts';
import { baseCurrencyOf, briefsOfElements, currenciesOfPricedBriefs, findContact } from './repository.ts';
import type { CreateQuoteInput } from './schemas.ts';

/** What a quote refers to, checked as it will be after a create or an update. */

/**
 * Checks the relations of a quote as they will be after a change: the project, contact and
 * address must belong to the company (422), the company must be writable by the actor (403).
 */
export async function resolveRelations(
  tx: Executor,
  actor: Actor,
  next: {
    companyId: string | null;
    projectId: string | null;
    contactId: string | null;
    addressId: string | null;
  },
  sent: Partial<Record<'companyId' | 'projectId' | 'contactId' | 'addressId', unknown>>,
) {
  const org = actor.organisationId;
  const companyChanged = 'companyId' in sent;
  if (next.projectId && ('projectId' in sent || companyChanged)) {
    const project = await liveProject(tx, org, next.projectId);
    if (!next.companyId) next.companyId = project.companyId;
    if (project.companyId !== next.companyId) {
      throw new AppError(
        'project_company_mismatch',
        'The project belongs to another company than the quote',
        { issues: [{ pointer: '/projectId', message: 'is a project of another company', in: 'body' }] },
      );
    }
  }
  if (!next.companyId) {
    throw badRequest('A quote is for a company: send companyId (or a projectId, whose company is taken)', [
      { pointer: '/companyId', message: 'is required when projectId is not given', in: 'body' },
    ]);
  }
  assertCompanyWritable(actor, next.companyId);
  if (companyChanged) await liveCompany(tx, org, next.companyId);
  let contact: Awaited<ReturnType<typeof findContact>>;
  if (next.contactId && ('contactId' in sent || companyChanged)) {
    contact = await findContact(tx, org, next.contactId, next.companyId);
    if (!contact) throw invalidReference('/contactId', 'contact');
    if (!contact.linked) {
      throw new AppError('contact_company_mismatch', 'The contact is not a contact of the quote company', {
        issues: [{ pointer: '/contactId', message: 'is not linked to the company', in: 'body' }],
      });
    }
  }
  if (next.addressId && ('addressId' in sent || companyChanged)) {
    const address = await liveAddress(tx, org, next.addressId, '/addressId');
    if (address.companyId !== next.companyId) {
      throw new AppError('address_company_mismatch', 'The address must be an address of the quote company', {
        issues: [{ pointer: '/addressId', message: 'is not an address of the company', in: 'body' }],
      });
    }
  }
  return { companyId: next.companyId, contact };
}

/**
 * The currency of a new quote: that of the first requested brief already priced, else the
 * organisation's base currency. Items priced in another currency are not valid.
 */
export async function currencyOf(tx: Executor, organisationId: string, input: CreateQuoteInput) {
  const elementIds = (input.items ?? []).flatMap((i) => (i.briefElementId ? [i.briefElementId] : []));
  const briefOfElement = await briefsOfElements(tx, organisationId, elementIds);
  const ordered = [
    ...(input.briefIds ?? []),
    ...(input.items ?? []).flatMap((i) =>
      i.briefElementId ? [briefOfElement.get(i.briefElementId) ?? ''] : i.briefId ? [i.briefId] : [],
    ),
  ].filter(Boolean);
  if (ordered.length) {
    const byId = await currenciesOfPricedBriefs(tx, organisationId, ordered);
    for (const id of ordered) {
      const currency = byId.get(id);
      if (currency) return currency;
    }
  }
  return (await baseCurrencyOf(tx, organisationId)) ?? 'EUR';
}
