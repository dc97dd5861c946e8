import type { AppContext, OrganisationSeeder } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { notFound } from '../../platform/errors.ts';
import { entity } from '../../platform/events.ts';
import {
  findLivePipeline,
  insertPipeline,
  insertPipelineSteps,
  listLivePipelines,
  listLiveSteps,
  type PipelineRow,
  type PipelineStepRow,
} from './repository.ts';

export const PIPELINE_ENTITY = entity('PIPELINE', 'pipelines');

/** The pipeline every organisation starts with (also seeded for existing ones by migration 0020). */
export const DEFAULT_PIPELINE = {
  type: 'opportunity',
  name: 'Sales',
  steps: [
    { name: 'Lead', probability: 10, isWon: null },
    { name: 'Qualified', probability: 25, isWon: null },
    { name: 'Proposal', probability: 50, isWon: null },
    { name: 'Negotiation', probability: 75, isWon: null },
    { name: 'Won', probability: 100, isWon: true },
    { name: 'Lost', probability: 0, isWon: false },
  ],
} as const;

/** A pipeline with its steps; `entity` = HIPE's name of `type`. */
export function presentPipeline(row: PipelineRow, steps: PipelineStepRow[]) {
  return {
    id: row.id,
    type: row.type,
    entity: row.type,
    name: row.name,
    position: row.position,
    isDefault: row.isDefault,
    externalId: row.externalId,
    steps: steps.map((s) => ({
      id: s.id,
      pipelineId: s.pipelineId,
      name: s.name,
      position: s.position,
      probability: s.probability,
      isWon: s.isWon,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    })),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function withSteps(db: Executor, rows: PipelineRow[]) {
  if (!rows.length) return [];
  const steps = await listLiveSteps(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    presentPipeline(
      row,
      steps.filter((s) => s.pipelineId === row.id),
    ),
  );
}

export async function findPipeline(db: Executor, organisationId: string, id: string) {
  const row = await findLivePipeline(db, organisationId, id);
  return row ? (await withSteps(db, [row]))[0] : undefined;
}

/** Seeds the default opportunity pipeline of a new organisation, inside its creation transaction. */
export const seedPipelines: OrganisationSeeder = async (tx, organisation, record) => {
  const pipeline = await insertPipeline(tx, {
    organisationId: organisation.id,
    type: DEFAULT_PIPELINE.type,
    name: DEFAULT_PIPELINE.name,
    position: 0,
    isDefault: true,
    createdById: organisation.adminUserId,
  });
  const steps = await insertPipelineSteps(
    tx,
    DEFAULT_PIPELINE.steps.map((step, position) => ({
      organisationId: organisation.id,
      pipelineId: pipeline.id,
      position,
      ...step,
    })),
  );
  await record({
    on: PIPELINE_ENTITY,
    type: 'CREATE',
    entityId: pipeline.id,
    snapshot: presentPipeline(pipeline, steps),
  });
};

export function createPipelineService(ctx: Pick<AppContext, 'db'>) {
  const { db } = ctx;
  return {
    async list(actor: Actor, type?: string) {
      const rows = await listLivePipelines(db, actor.organisationId, type?.toLowerCase());
      return withSteps(db, rows);
    },
    async get(actor: Actor, id: string) {
      const found = await findPipeline(db, actor.organisationId, id);
      if (!found) throw notFound('Pipeline');
      return found;
    },
  };
}
