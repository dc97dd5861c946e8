import type { AppContext } from '../../context.ts';
import type { Executor, Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import type { EventRecorder } from '../../platform/events.ts';
import type { Slot } from '../../platform/registry.ts';

/** The nested `briefElement` object of an article payload; its shape is owned by the briefs module. */
export type BriefElementInput = Record<string, unknown>;

/**
 * How articles reach brief elements without depending on the briefs module. The briefs module
 * registers its implementation once per app (in `ctx.registry`), from its module.ts `wire`:
 *
 *   registerBriefElementLinker(ctx, { exists, createStandalone });
 *
 * Both methods run inside the article's transaction (`tx`), so a refused article leaves no
 * element behind and the element's own events commit or roll back with the article's.
 */
export interface BriefElementLinker {
  /** Whether a live brief element (of a brief, or standalone) with this id exists in the organisation. */
  exists(tx: Executor, organisationId: string, id: string): Promise<boolean>;
  /**
   * Creates a standalone element (one that belongs to no brief) from the nested payload, prices it
   * when it has enough data, records its events with `record`, and returns its id. Throws an
   * AppError (400/422) with pointers under `/briefElement` when the payload is not valid.
   */
  createStandalone(
    tx: Tx,
    actor: Actor,
    input: BriefElementInput,
    record: EventRecorder,
    /** Where the element sits in the request body, for error pointers (default `/briefElement`). */
    base?: string,
  ): Promise<{ id: string }>;
}

const unavailable = () =>
  new AppError(
    'brief_elements_unavailable',
    'Brief elements are not available yet on this service: an article can be created without a brief element ' +
      '(accessories, services) and linked later',
  );

/** Used until the briefs module registers the real linker: no element can exist yet. */
export const unavailableBriefElementLinker: BriefElementLinker = {
  exists: async () => {
    throw unavailable();
  },
  createStandalone: async () => {
    throw unavailable();
  },
};

/** The linker's place in the app's registry: unavailable until the briefs module fills it. */
const BRIEF_ELEMENT_LINKER: Slot<BriefElementLinker> = {
  name: 'brief element linker',
  fallback: unavailableBriefElementLinker,
};

/** Plugs the briefs module's implementation into the articles of this app. */
export function registerBriefElementLinker(ctx: Pick<AppContext, 'registry'>, linker: BriefElementLinker) {
  ctx.registry.fill(BRIEF_ELEMENT_LINKER, linker);
}

export function briefElementLinkerOf(ctx: Pick<AppContext, 'registry'>): BriefElementLinker {
  return ctx.registry.slot(BRIEF_ELEMENT_LINKER);
}
