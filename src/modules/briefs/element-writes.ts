/**
 * Writes to an element of a brief through /api/brief-elements (HIPE's BriefElements Create with a
 * `briefId`, Update, Delete). Each is turned into the same PUT /briefs/{id} a client would send
 * (every element of the brief, by id, with the one change), and run by the brief's own update path:
 * validation, permissions, the brief's re-pricing into a new version and the events are those of a
 * brief update, so a change through either route gives the same brief.
 *
 * An element created without a board takes the board of the brief's first element (the node sends
 * none). The update path runs in a change runner wrapped around the application's: before it, the brief
 * is locked and its elements compared with those the request was built from (another writer in
 * between: 409 `stale_write`, nothing changed); after it, in the same transaction, HIPE's
 * `externalId` is stored on the element and the new element's id is read back.
 */
import { Value } from '@sinclair/typebox/value';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound, type ProblemIssue } from '../../platform/errors.ts';
import type { ChangeRunner, EventRecorder } from '../../platform/events.ts';
import { liveElementIdAt, setElementExternalId } from './element-repository.ts';
import type { ElementRow } from './mapping.ts';
import { findBriefRow, liveElementsOf } from './repository.ts';
import { type BriefElementUpdate, BriefElementUpdateSchema } from './schemas.ts';
import { type BriefServiceOptions, createBriefService } from './service.ts';

type Spec = Record<string, unknown>;

/** The fields that say what an element is made of. */
const BOARD_FIELDS = [
  'matterId',
  'materialTypeId',
  'materialReferenceId',
  'grammage',
  'corrugatedMaterialId',
] as const;
type Hook = (tx: Tx, record: EventRecorder) => Promise<void>;

/** The brief's elements as PUT /briefs/{id} takes them: each by id, with its stored values. */
function specsOf(elements: ElementRow[], inputOf: (row: ElementRow) => Spec): Spec[] {
  return elements.map((row) => ({ ...inputOf(row), id: row.id, position: row.position }));
}

/** Positions 0..n-1 in the given order (the brief's rule). */
const renumber = (specs: Spec[]) => specs.map((spec, position) => ({ ...spec, position }));

/** 400 with pointers when an element lacks what an element of a brief needs (or has a bad value). */
function checkSpec(spec: Spec, pointerOf: (path: string) => string = (p) => p) {
  const issues: ProblemIssue[] = [...Value.Errors(BriefElementUpdateSchema, spec)].map((e) => ({
    pointer: pointerOf(e.path || '/'),
    message: e.message,
    in: 'body' as const,
  }));
  if (issues.length) throw badRequest('The element is not a valid element of a brief', issues);
}

export function createElementWrites(
  ctx: Pick<AppContext, 'db' | 'change'>,
  options: BriefServiceOptions,
  inputOf: (row: ElementRow) => Spec,
) {
  /** Runs PUT /briefs/{briefId} with `specs`, checking the elements did not change since `seen`. */
  async function putElements(actor: Actor, briefId: string, seen: ElementRow[], specs: Spec[], after?: Hook) {
    const run: ChangeRunner = ((changeActor, work) =>
      ctx.change(changeActor, async (tx, record) => {
        if (!(await findBriefRow(tx, actor.organisationId, briefId, { forUpdate: true })))
          throw notFound('Brief');
        const now = await liveElementsOf(tx, briefId);
        const stamp = (rows: ElementRow[]) =>
          rows.map((r) => `${r.id}@${r.updatedAt.toISOString()}`).join(',');
        if (stamp(now) !== stamp(seen)) {
          throw new AppError(
            'stale_write',
            'The brief’s elements changed while this request was prepared: read them again and retry',
          );
        }
        const result = await work(tx, record);
        if (after) await after(tx, record);
        return result;
      })) as ChangeRunner;
    run.onCommitted = ctx.change.onCommitted;
    run.beforeCommit = ctx.change.beforeCommit;
    const service = createBriefService({ db: ctx.db, change: run, ...options });
    return service.update(actor, briefId, {
      briefElements: renumber(specs) as unknown as BriefElementUpdate[],
    });
  }

  async function setExternalId(tx: Tx, id: string, externalId: unknown) {
    if (externalId === undefined) return;
    await setElementExternalId(tx, id, externalId as string | null);
  }

  const elementOf = (brief: { briefElements: { id: string }[] }, id: string) =>
    brief.briefElements.find((e) => e.id === id)!;

  return {
    /** POST /brief-elements with `briefId`: the element is added to the brief (at `position`, else last). */
    async create(actor: Actor, briefId: string, body: Spec) {
      const { externalId, position, ...element } = body;
      const brief = await findBriefRow(ctx.db, actor.organisationId, briefId);
      if (!brief) {
        throw new AppError('invalid_reference', 'The brief does not exist', {
          issues: [{ pointer: '/briefId', message: 'is not a brief of the organisation', in: 'body' }],
        });
      }
      const seen = await liveElementsOf(ctx.db, briefId);
      const at = Math.min(typeof position === 'number' ? position : seen.length, seen.length);
      // HIPE's node has no board field: an element sent without one is made of the board of the
      // brief's first element (an element of a brief is priced, so it needs one).
      if (element.materialReferenceId === undefined && seen[0]) {
        const first = inputOf(seen[0]);
        for (const key of BOARD_FIELDS) if (first[key] !== undefined) element[key] = first[key];
      }
      checkSpec({ ...element, position: at });
      const specs = specsOf(seen, inputOf);
      specs.splice(at, 0, element);
      let createdId = '';
      const answer = await putElements(actor, briefId, seen, specs, async (tx) => {
        createdId = (await liveElementIdAt(tx, briefId, at))!;
        await setExternalId(tx, createdId, externalId);
      });
      return elementOf(answer, createdId);
    },

    /** PATCH /brief-elements/{id} of an element of a brief: the properties sent replace the stored ones. */
    async update(actor: Actor, row: ElementRow, patch: Spec) {
      const briefId = row.briefId!;
      const { externalId, position, briefId: moveTo, ...changes } = patch;
      if (moveTo !== undefined && moveTo !== briefId) {
        throw badRequest('An element stays in its brief', [
          { pointer: '/briefId', message: 'is not the element’s brief (elements do not move)', in: 'body' },
        ]);
      }
      const seen = await liveElementsOf(ctx.db, briefId);
      const specs = specsOf(seen, inputOf);
      const index = specs.findIndex((s) => s.id === row.id);
      const [target] = specs.splice(index, 1);
      const next = { ...target, ...changes };
      checkSpec(next);
      const at = Math.min(typeof position === 'number' ? position : index, specs.length);
      specs.splice(at, 0, next);
      const answer = await putElements(actor, briefId, seen, specs, (tx) =>
        setExternalId(tx, row.id, externalId),
      );
      return elementOf(answer, row.id);
    },

    /** DELETE /brief-elements/{id} of an element of a brief: the brief keeps the others (renumbered). */
    async remove(actor: Actor, row: ElementRow) {
      const briefId = row.briefId!;
      const seen = await liveElementsOf(ctx.db, briefId);
      if (seen.length === 1) {
        throw new AppError(
          'last_element',
          'This is the brief’s only element: a brief has at least one; delete the brief instead (DELETE /briefs/{id})',
        );
      }
      await putElements(
        actor,
        briefId,
        seen,
        specsOf(seen, inputOf).filter((s) => s.id !== row.id),
      );
      return { id: row.id, deleted: true as const };
    },
  };
}
