import type { BodyRequirement } from '../../platform/openapi-contract.ts';

/**
 * What the quote service requires of a creation body beyond its schema (it checks them itself,
 * with its own codes and pointers: `quote_without_items`, the project's company), stated in the
 * OpenAPI document so a generated client's type demands it (platform/openapi-contract.ts).
 */
export const QUOTE_BODY_REQUIREMENTS: readonly BodyRequirement[] = [
  // companyId unless projectId (the project's company).
  { method: 'post', path: '/api/quotes', anyOfRequired: [['companyId'], ['projectId']] },
  // At least one item: a brief of briefIds or an entry of items.
  { method: 'post', path: '/api/quotes', anyOfRequired: [['briefIds'], ['items']] },
];
