import type { Executor } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { findLivePipeline } from '../pipelines/repository.ts';
import { findLivePipelineStep } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const refused = (pointer: string, message: string) =>
  new AppError('invalid_reference', 'The sales pipeline or step does not exist', {
    issues: [{ pointer, message, in: 'body' }],
  });

type PipelineRefs = { opportunityPipelineId?: string | null; opportunityStepId?: string | null };

/**
 * The pipeline and step a project names must be a live `opportunity` pipeline of the organisation
 * and one of its steps (another tenant's or an unknown id: 422 with a pointer, nothing stored).
 * `next` is what the project will hold; a step sent alone brings its pipeline. Returns the values to
 * store.
 */
export async function resolvePipelineRefs(
  db: Executor,
  organisationId: string,
  next: PipelineRefs,
): Promise<PipelineRefs> {
  let pipelineId = next.opportunityPipelineId ?? null;
  const stepId = next.opportunityStepId ?? null;
  if (pipelineId !== null) {
    const pipeline = UUID.test(pipelineId)
      ? await findLivePipeline(db, organisationId, pipelineId)
      : undefined;
    if (pipeline?.type.toLowerCase() !== 'opportunity')
      throw refused('/opportunityPipelineId', 'is not an opportunity pipeline of the organisation');
  }
  if (stepId !== null) {
    const step = UUID.test(stepId) ? await findLivePipelineStep(db, organisationId, stepId) : undefined;
    if (!step) throw refused('/opportunityStepId', 'is not a pipeline step of the organisation');
    if (pipelineId === null) {
      pipelineId = step.pipelineId;
      await resolvePipelineRefs(db, organisationId, { opportunityPipelineId: pipelineId });
    } else if (step.pipelineId !== pipelineId)
      throw refused('/opportunityStepId', 'is not a step of the project’s pipeline');
  }
  return { opportunityPipelineId: pipelineId, opportunityStepId: stepId };
}

/**
 * The references an update stores, checked, when it changes either of them (else nothing): a step
 * sent alone brings its pipeline; a pipeline sent alone keeps the step, which must then be one of its steps;
 * and clearing the pipeline clears the step.
 */
export async function updatedPipelineRefs(
  db: Executor,
  organisationId: string,
  current: { opportunityPipelineId: string | null; opportunityStepId: string | null },
  input: PipelineRefs,
): Promise<PipelineRefs> {
  const pipelineSent =
    input.opportunityPipelineId !== undefined &&
    input.opportunityPipelineId !== current.opportunityPipelineId;
  const stepSent =
    input.opportunityStepId !== undefined && input.opportunityStepId !== current.opportunityStepId;
  if (!pipelineSent && !stepSent) return {};
  if (pipelineSent && input.opportunityPipelineId === null && input.opportunityStepId == null)
    return { opportunityPipelineId: null, opportunityStepId: null };
  const stepId = input.opportunityStepId !== undefined ? input.opportunityStepId : current.opportunityStepId;
  const pipelineId =
    input.opportunityPipelineId !== undefined
      ? input.opportunityPipelineId
      : stepSent && stepId !== null
        ? null
        : current.opportunityPipelineId;
  return resolvePipelineRefs(db, organisationId, {
    opportunityPipelineId: pipelineId,
    opportunityStepId: stepId,
  });
}
