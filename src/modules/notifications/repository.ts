import { and, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { companies, companyUsers, organisations, users } from '../../db/schema/platform.ts';
import { quoteItems, quotes } from '../../db/schema/quotes.ts';

/** A user a notification may go to, with what decides whether and how. */
export type Recipient = {
  id: string;
  role: string;
  email: string | null;
  language: string | null;
  emailOptOuts: string[];
  firstName: string | null;
  lastName: string | null;
};

const recipientColumns = (table: typeof users) => ({
  id: table.id,
  role: table.role,
  email: table.email,
  language: table.language,
  emailOptOuts: table.emailOptOuts,
  firstName: table.firstName,
  lastName: table.lastName,
  deletedAt: table.deletedAt,
});

/** A live user of the organisation, as a recipient. */
export async function findRecipient(db: Executor, organisationId: string, userId: string | null | undefined) {
  if (!userId) return undefined;
  const [row] = await db
    .select(recipientColumns(users))
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, organisationId), isNull(users.deletedAt)));
  return row as Recipient | undefined;
}

/**
 * What the notifications of a quote say, and who its buyer contact and its owner candidates are.
 * By id alone: the id comes from a change the service itself recorded, and the row names its tenant.
 */
export async function findQuoteForNotice(db: Executor, quoteId: string) {
  const manager = alias(users, 'manager');
  const [row] = await db
    .select({
      id: quotes.id,
      organisationId: quotes.organisationId,
      code: quotes.code,
      name: quotes.name,
      state: quotes.state,
      email: quotes.email,
      contactId: quotes.contactId,
      companyId: quotes.companyId,
      createdById: quotes.createdById,
      respondedById: quotes.respondedById,
      companyName: companies.name,
      currency: quotes.currency,
      totalPrice: quotes.totalPrice,
      managedById: companies.managedById,
      organisationName: organisations.name,
      managerRole: manager.role,
    })
    .from(quotes)
    .innerJoin(companies, eq(companies.id, quotes.companyId))
    .innerJoin(organisations, eq(organisations.id, quotes.organisationId))
    .leftJoin(manager, eq(manager.id, companies.managedById))
    .where(eq(quotes.id, quoteId));
  return row;
}

export type QuoteNotice = NonNullable<Awaited<ReturnType<typeof findQuoteForNotice>>>;

/** The top lines of a quote, in order (what a reorder e-mail lists). */
export async function findQuoteLines(db: Executor, quoteId: string) {
  return db
    .select({ name: quoteItems.name, quantity: quoteItems.quantity, price: quoteItems.price })
    .from(quoteItems)
    .where(and(eq(quoteItems.quoteId, quoteId), isNull(quoteItems.parentId)))
    .orderBy(quoteItems.position);
}

/**
 * The buyer contacts of a company: its live users of role contact (linked through company_users),
 * oldest first, as recipients.
 */
export async function findCompanyContacts(db: Executor, organisationId: string, companyId: string) {
  const rows = await db
    .select(recipientColumns(users))
    .from(companyUsers)
    .innerJoin(users, eq(users.id, companyUsers.userId))
    .where(
      and(
        eq(companyUsers.companyId, companyId),
        eq(users.organisationId, organisationId),
        eq(users.role, 'contact'),
        isNull(users.deletedAt),
      ),
    )
    .orderBy(users.createdAt, users.id);
  return rows as Recipient[];
}

/** The name of a quote line (what a proof e-mail names). */
export async function findQuoteLineName(db: Executor, quoteItemId: string) {
  const [row] = await db
    .select({ name: quoteItems.name })
    .from(quoteItems)
    .where(eq(quoteItems.id, quoteItemId));
  return row?.name ?? null;
}

/** Sets a user's opt-outs; answers the stored list. */
export async function setOptOuts(db: Executor, organisationId: string, userId: string, optOuts: string[]) {
  const [row] = await db
    .update(users)
    .set({ emailOptOuts: optOuts, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.organisationId, organisationId), isNull(users.deletedAt)))
    .returning({ emailOptOuts: users.emailOptOuts });
  return row?.emailOptOuts;
}
