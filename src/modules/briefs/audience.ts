/**
 * The briefs module's answers for the caller's audience (platform/audience.ts): the seller's staff
 * get the service's answers as they are; every other role gets the buyer's view (buyer-views.ts),
 * and may not set the commercial margin, the one lever that is the seller's to pull.
 *
 * The buyer's views are subsets of the seller's, so each method keeps the seller's type: the
 * response schemas mark the seller-only fields optional ("costs:read only").
 */
import type { Actor } from '../../platform/actor.ts';
import { audienceOf } from '../../platform/audience.ts';
import { AppError, type ProblemIssue } from '../../platform/errors.ts';
import {
  buyerBrief,
  buyerDetails,
  buyerElement,
  buyerEstimate,
  buyerListItem,
  buyerPanel,
  buyerProcess,
  buyerValueAnalysis,
  buyerVersions,
} from './buyer-views.ts';
import type { createElementService } from './elements.ts';
import type { BriefService } from './service.ts';

type Obj = Record<string, unknown>;
type ElementService = ReturnType<typeof createElementService>;

const isBuyer = (actor: Actor) => audienceOf(actor) === 'buyer';

/** The buyer's view `view(value)` for a buyer, `value` itself for the seller. */
function forAudience<T>(actor: Actor, value: T, view: (value: never) => unknown): T {
  return isBuyer(actor) ? (view(value as never) as T) : value;
}

/** A page of a list for the caller's audience: each row through `view` for a buyer. */
function pageFor<P extends { data: unknown[] }>(actor: Actor, page: P, view: (row: never) => unknown): P {
  return isBuyer(actor) ? { ...page, data: page.data.map((row) => view(row as never)) } : page;
}

/**
 * 403 when a caller without `costs:read` sends a commercial margin (on the brief or an element):
 * a buyer setting the seller's margin would choose their own price.
 */
export function assertMayPriceMargin(actor: Actor, body: unknown) {
  if (!isBuyer(actor) || typeof body !== 'object' || body === null) return;
  const input = body as { commercialMargin?: unknown; briefElements?: unknown };
  const issues: ProblemIssue[] = [];
  if (input.commercialMargin !== undefined && input.commercialMargin !== null)
    issues.push({ pointer: '/commercialMargin', message: 'needs the costs:read permission', in: 'body' });
  if (Array.isArray(input.briefElements)) {
    input.briefElements.forEach((element: Obj, i) => {
      if (element?.commercialMargin !== undefined && element.commercialMargin !== null)
        issues.push({
          pointer: `/briefElements/${i}/commercialMargin`,
          message: 'needs the costs:read permission',
          in: 'body',
        });
    });
  }
  if (issues.length)
    throw new AppError(
      'cost_field_forbidden',
      'Only the seller’s staff (costs:read) set the commercial margin',
      {
        issues,
      },
    );
}

/** The brief service as the routes serve it: each answer for its caller's audience. */
export function briefsForAudience(service: BriefService) {
  return {
    ...service,
    async list(actor: Actor, query: Parameters<BriefService['list']>[1]) {
      return pageFor(actor, await service.list(actor, query), buyerListItem);
    },
    async get(actor: Actor, id: string) {
      return forAudience(actor, await service.get(actor, id), buyerBrief);
    },
    async create(actor: Actor, input: Parameters<BriefService['create']>[1], mode: 'sync' | 'async') {
      assertMayPriceMargin(actor, input);
      return forAudience(actor, await service.create(actor, input, mode), buyerBrief);
    },
    async update(actor: Actor, id: string, input: Parameters<BriefService['update']>[2]) {
      assertMayPriceMargin(actor, input);
      return forAudience(actor, await service.update(actor, id, input), buyerBrief);
    },
    async estimate(actor: Actor, input: Parameters<BriefService['estimate']>[1], withAnalysis = false) {
      assertMayPriceMargin(actor, input);
      return forAudience(actor, await service.estimate(actor, input, withAnalysis), buyerEstimate);
    },
    async details(actor: Actor, id: string, version?: number, withAlternatives = false) {
      return forAudience(actor, await service.details(actor, id, version, withAlternatives), buyerDetails);
    },
    async versions(actor: Actor, id: string) {
      return forAudience(actor, await service.versions(actor, id), buyerVersions);
    },
    async process(actor: Actor, id: string, position: number, version?: number) {
      return forAudience(actor, await service.process(actor, id, position, version), buyerProcess);
    },
    async valueAnalysis(actor: Actor, id: string, version?: number) {
      return forAudience(actor, await service.valueAnalysis(actor, id, version), buyerValueAnalysis);
    },
    async panel(actor: Actor, id: string, version?: number) {
      return forAudience(actor, await service.panel(actor, id, version), buyerPanel);
    },
    async element(actor: Actor, id: string) {
      return forAudience(actor, await service.element(actor, id), buyerElement);
    },
  };
}

/** `/api/brief-elements` for the caller's audience. */
export function elementsForAudience(elements: ElementService) {
  return {
    ...elements,
    async list(actor: Actor, query: Parameters<ElementService['list']>[1]) {
      return pageFor(actor, await elements.list(actor, query), buyerElement);
    },
    async create(actor: Actor, body: Obj) {
      assertMayPriceMargin(actor, body);
      return forAudience(actor, await elements.create(actor, body), buyerElement);
    },
    async update(actor: Actor, id: string, patch: Obj) {
      assertMayPriceMargin(actor, patch);
      return forAudience(actor, await elements.update(actor, id, patch), buyerElement);
    },
  };
}
