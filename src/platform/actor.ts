import { type Column, inArray, type SQL, sql } from 'drizzle-orm';
import type { Role } from '../db/schema/platform.ts';
import { forbidden, notFound } from './errors.ts';
import { COMPANY_SCOPED_ROLES } from './permissions.ts';

/** Who is calling: every service method receives the actor and scopes its reads and writes by it. */
export type Actor = {
  userId: string;
  organisationId: string;
  role: Role;
  /** Companies the user is linked to; for scoped roles the only companies they may see. */
  companyIds: string[];
  credential: 'jwt' | 'access_token' | 'system';
};

export const isCompanyScoped = (actor: Actor) => COMPANY_SCOPED_ROLES.includes(actor.role);

/**
 * The company ids a scoped actor is limited to, or undefined when the actor sees every company of
 * its organisation.
 */
export const companyScope = (actor: Actor): string[] | undefined =>
  isCompanyScoped(actor) ? actor.companyIds : undefined;

/**
 * The condition that keeps a scoped actor to the rows of its companies (`companyColumn` names the
 * row's company); undefined for actors who see every company, and no row at all for a scoped
 * actor linked to none.
 */
export function inCompanyScope(actor: Actor, companyColumn: Column): SQL | undefined {
  const scope = companyScope(actor);
  if (!scope) return undefined;
  return scope.length ? inArray(companyColumn, scope) : sql`false`;
}

/** Whether the actor sees rows of the company (a scoped actor only its linked companies'). */
export function isCompanyVisible(actor: Actor, companyId: string | null | undefined): boolean {
  return !isCompanyScoped(actor) || (!!companyId && actor.companyIds.includes(companyId));
}

/** A scoped actor may only read a row of a company it is linked to; others look missing. */
export function assertCompanyVisible(actor: Actor, companyId: string | null | undefined, what = 'Resource') {
  if (!isCompanyVisible(actor, companyId)) throw notFound(what);
}

/** A scoped actor may only create or move rows into companies it is linked to. */
export function assertCompanyWritable(actor: Actor, companyId: string | null | undefined) {
  if (!isCompanyScoped(actor)) return;
  if (!companyId || !actor.companyIds.includes(companyId)) {
    throw forbidden('You may only work on the companies you are linked to');
  }
}

/** The actor used by background jobs acting on behalf of an organisation. */
export const systemActor = (organisationId: string, userId: string): Actor => ({
  userId,
  organisationId,
  role: 'admin',
  companyIds: [],
  credential: 'system',
});
