import type { Executor } from '../../db/client.ts';
import { type Actor, assertCompanyWritable } from '../../platform/actor.ts';
import { unprocessable } from '../../platform/errors.ts';
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
    throw unprocessable('The company does not exist', 'unknown_company', [
      { pointer, message: 'is not a company of the organisation', in: 'body' },
    ]);
  }
}
