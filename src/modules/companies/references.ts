import type { Executor } from '../../db/client.ts';
import { type Actor, assertCompanyWritable } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import { findCompany } from './repository.ts';

/**
 * The company a project or an address is attached to: a company-scoped actor may only use its own
 * companies (403); others need a live company (422).
 */
export async function assertUsableCompany(
  db: Executor,
  actor: Actor,
  companyId: string,
  pointer = '/companyId',
) {
  assertCompanyWritable(actor, companyId);
  if (!(await findCompany(db, actor.organisationId, companyId))) {
    throw new AppError('unknown_company', 'The company does not exist', {
      issues: [{ pointer, message: 'is not a company of the organisation', in: 'body' }],
    });
  }
}
