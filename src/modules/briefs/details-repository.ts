import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { briefElements, briefs } from '../../db/schema/briefs.ts';
import { projects, statuses } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';

/**
 * The statement behind the brief-details cache (details-cache.ts): a live brief of the organisation
 * by id, its company (for the caller's visibility) and a stamp of everything GET /briefs/{id}/details
 * is built from, in one indexed read of small rows.
 *
 * The stamp is made of row versions: PostgreSQL gives every version of a row the id of the
 * transaction that wrote it (`xmin`), so any committed write to the brief's row (its current
 * prediction included), to the project, company or status it shows by name, or to one of its live
 * elements, and any element added or removed, gives another stamp, whoever wrote it and however.
 * A prediction version is never rewritten once stored (only its value analysis is added later,
 * which the details do not show), so its id in the brief's row stands for its output. Row versions
 * rather than the rows' text: turning the rows into text cost four times the whole read. Nulls
 * keep their place in `row(...)::text`, so no two stamps can read alike by a value moving over.
 */
export function prepareDetailsStamp(db: Db) {
  const elements = sql`(select string_agg(${briefElements.id}::text || '@' || ${briefElements}.xmin::text, ',' order by ${briefElements.position}, ${briefElements.id})
    from ${briefElements}
    where ${briefElements.briefId} = ${briefs.id} and ${briefElements.deletedAt} is null)`;
  return db
    .select({
      companyId: briefs.companyId,
      stamp: sql<string>`md5(row(${briefs}.xmin, ${projects}.xmin, ${companies}.xmin, ${statuses}.xmin, ${elements})::text)`,
    })
    .from(briefs)
    .leftJoin(projects, eq(projects.id, briefs.projectId))
    .leftJoin(companies, eq(companies.id, briefs.companyId))
    .leftJoin(statuses, eq(statuses.id, briefs.statusId))
    .where(
      and(
        eq(briefs.id, sql.placeholder('id')),
        eq(briefs.organisationId, sql.placeholder('organisationId')),
        isNull(briefs.deletedAt),
      ),
    )
    .limit(1)
    .prepare('brief_details_stamp');
}

export type DetailsStampQuery = ReturnType<typeof prepareDetailsStamp>;
