import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';
import { organisations } from './platform.ts';

/**
 * Sales pipelines of an organisation (HIPE's Pipelines resource): an ordered list of steps a
 * record of one kind (`type`, e.g. `opportunity` for projects) moves through. Projects name
 * theirs with opportunityPipelineId / opportunityStepId.
 */
export const pipelines = pgTable(
  'pipelines',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    /** What the pipeline is for (HIPE's `entity` / `?type=`): `opportunity` (projects). */
    type: text('type').notNull(),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    isDefault: boolean('is_default').notNull().default(false),
    externalId: text('external_id'),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('pipelines_org_type_idx').on(t.organisationId, t.type, t.position),
    // At most one default pipeline per organisation and type.
    uniqueIndex('pipelines_default_live_uq')
      .on(t.organisationId, t.type)
      .where(sql`${t.isDefault} and ${t.deletedAt} is null`),
  ],
);

export const pipelineSteps = pgTable(
  'pipeline_steps',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id),
    name: text('name').notNull(),
    /** 0-indexed order of the step in its pipeline. */
    position: integer('position').notNull(),
    /** Chance of winning at this step, in percent (0..100). */
    probability: integer('probability'),
    /** The step ends the pipeline as won (true), lost (false), or is an open step (null). */
    isWon: boolean('is_won'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [index('pipeline_steps_pipeline_idx').on(t.pipelineId, t.position)],
);
