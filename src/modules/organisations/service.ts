import { randomBytes } from 'node:crypto';
import type { AppContext, OrganisationSeeder } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import { type EventRecorder, entity } from '../../platform/events.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { USER_ENTITY } from '../users/repository.ts';
import {
  countAllUsers,
  insertOrganisation,
  insertUserReturningColumns,
  lockBootstrap,
  usernameTaken,
} from './repository.ts';
import { OrganisationSchema } from './schemas.ts';

export const ORGANISATION_ENTITY = entity('ORGANISATION', 'organisations', 'organisations', {
  schema: OrganisationSchema,
});

type NewOrganisation = { name: string; admin: { email: string; password: string } };

export function createOrganisationService(
  ctx: Pick<AppContext, 'db' | 'change' | 'config'> & {
    /** Every module's seeders of a new organisation (`ctx.registry.organisationSeeders`). */
    organisationSeeders: readonly OrganisationSeeder[];
  },
) {
  /**
   * Creates the tenant, its first user and its seeded reference data in one transaction. The
   * events belong to the new tenant, so its own webhooks and event log see them.
   */
  async function createTenant(
    tx: Tx,
    record: EventRecorder,
    input: NewOrganisation & { role: 'admin' | 'superadmin' },
    createdById: string | null,
  ) {
    const email = input.admin.email.trim();
    if (await usernameTaken(tx, email)) {
      throw new AppError('username_taken', 'A user with this e-mail already exists');
    }
    const organisation = await insertOrganisation(tx, input.name);
    const organisationId = organisation.id;
    // The whole user (no secret): its CREATE event delivers the user as GET /users/{id} does.
    const admin = await insertUserReturningColumns(tx, {
      organisationId,
      role: input.role,
      username: email.toLowerCase(),
      email,
      passwordHash: await hashPassword(input.admin.password),
      createdById,
    });
    const recordInTenant: EventRecorder = (change) => record({ ...change, organisationId });
    await recordInTenant({
      on: ORGANISATION_ENTITY,
      type: 'CREATE',
      entityId: organisationId,
      snapshot: organisation,
    });
    await recordInTenant({ on: USER_ENTITY, type: 'CREATE', entityId: admin.id, snapshot: admin });
    for (const seed of ctx.organisationSeeders) {
      await seed(tx, { id: organisationId, adminUserId: admin.id }, recordInTenant);
    }
    const { id, email: adminEmail, role, organisationId: adminOrganisationId } = admin;
    return { ...organisation, admin: { id, email: adminEmail, role, organisationId: adminOrganisationId } };
  }

  return {
    create: (actor: Actor, input: NewOrganisation) =>
      ctx.change(actor, (tx, record) => createTenant(tx, record, { ...input, role: 'admin' }, actor.userId)),

    /**
     * First start: when no user exists, create the first organisation and its superadmin from
     * ADMIN_EMAIL / ADMIN_PASSWORD, or with a generated password that the caller prints once.
     */
    async bootstrap(): Promise<
      { created: false } | { created: true; email: string; generatedPassword?: string }
    > {
      if ((await countAllUsers(ctx.db)) > 0) return { created: false };
      const generatedPassword = ctx.config.adminPassword ? undefined : randomBytes(18).toString('base64url');
      const password = ctx.config.adminPassword ?? generatedPassword!;
      const email = ctx.config.adminEmail;
      // Several nodes starting together on a new database: the first creates, the others wait for
      // it here and then find the user (instead of failing their start on the unique e-mail).
      const created = await ctx.change(null, async (tx, record) => {
        await lockBootstrap(tx);
        if ((await countAllUsers(tx)) > 0) return false;
        await createTenant(
          tx,
          record,
          { name: 'Default organisation', admin: { email, password }, role: 'superadmin' },
          null,
        );
        return true;
      });
      if (!created) return { created: false };
      return { created: true, email, generatedPassword };
    },
  };
}
