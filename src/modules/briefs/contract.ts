import type { BodyRequirement } from '../../platform/openapi-contract.ts';

/**
 * What the brief service requires of a creation body beyond its schema (it checks it itself, with
 * its own pointer: 400 at `/companyId`), stated in the OpenAPI document so a generated client's
 * type demands it (platform/openapi-contract.ts). An estimate belongs to no company: not stated.
 */
export const BRIEF_BODY_REQUIREMENTS: readonly BodyRequirement[] = [
  // companyId unless projectId (the project's company).
  { method: 'post', path: '/api/briefs', anyOfRequired: [['companyId'], ['projectId']] },
  { method: 'post', path: '/api/briefs/async', anyOfRequired: [['companyId'], ['projectId']] },
];
