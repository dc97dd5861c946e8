/**
 * The statuses repository on the real database (PGlite, or PostgreSQL with DATABASE_URL): each
 * write and count stays within the organisation, the entity and the live rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import {
  clearDefaultStatus,
  countOtherLiveStatuses,
  findDefaultStatus,
  insertStatuses,
  listLiveStatuses,
  updateLiveStatus,
} from '../../src/modules/statuses/repository.ts';
import { STATUS_PAGE } from '../../src/modules/statuses/schemas.ts';
import type { Actor } from '../../src/platform/actor.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import type { TestApp } from '../helpers/app.ts';
import { buildTwoTenants } from '../helpers/tenants.ts';

describe('statuses repository', () => {
  let t: TestApp;
  let db: Db;
  let admin: Actor;
  let other: Actor;
  const page = resolvePage({}, STATUS_PAGE);

  beforeAll(async () => {
    ({ t, db, admin, other } = await buildTwoTenants());
  });
  afterAll(() => t.close());

  it('lists the live statuses of the organisation (of one entity when asked) in position order', async () => {
    const [project] = await insertStatuses(db, [
      {
        organisationId: admin.organisationId,
        entity: 'project',
        internalLabel: 'Open',
        externalLabel: 'Open',
        position: 0,
      },
    ]);
    const orders = await listLiveStatuses(db, admin.organisationId, 'order', page);
    expect(orders.total).toBeGreaterThan(1);
    expect(orders.rows.every((s) => s.entity === 'order')).toBe(true);
    const positions = orders.rows.map((s) => s.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const all = await listLiveStatuses(db, admin.organisationId, undefined, page);
    expect(all.total).toBe(orders.total + 1);
    expect(all.rows.map((s) => s.id)).toContain(project!.id);
    expect((await listLiveStatuses(db, other.organisationId, 'project', page)).total).toBe(0);
  });

  it('clears the default of one organisation and entity only, and returns what it cleared', async () => {
    const before = (await findDefaultStatus(db, admin.organisationId, 'order'))!;
    expect(await clearDefaultStatus(db, admin.organisationId, 'order', before.id)).toEqual([]);
    const cleared = await clearDefaultStatus(db, admin.organisationId, 'order');
    expect(cleared.map((s) => [s.id, s.isDefault])).toEqual([[before.id, false]]);
    expect(await findDefaultStatus(db, admin.organisationId, 'order')).toBeUndefined();
    expect(await findDefaultStatus(db, other.organisationId, 'order')).toBeDefined();
  });

  it('counts the other live statuses of the entity; updates only live statuses of the organisation', async () => {
    const { rows } = await listLiveStatuses(db, admin.organisationId, 'order', page);
    const [first, second] = rows;
    expect(await countOtherLiveStatuses(db, admin.organisationId, 'order', first!.id)).toBe(rows.length - 1);
    const deleted = await updateLiveStatus(db, admin.organisationId, second!.id, { deletedAt: new Date() });
    expect(deleted?.id).toBe(second!.id);
    expect(await countOtherLiveStatuses(db, admin.organisationId, 'order', first!.id)).toBe(rows.length - 2);
    expect(
      await updateLiveStatus(db, admin.organisationId, second!.id, { color: '#000000' }),
    ).toBeUndefined();
    expect(await updateLiveStatus(db, other.organisationId, first!.id, { color: '#000000' })).toBeUndefined();
  });
});
