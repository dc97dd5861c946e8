import type { Role } from '../db/schema/platform.ts';

/**
 * The permission matrix: which roles may perform each operation. It is the single source of truth,
 * enforced by the route hook in route-security.ts, written into every operation of the OpenAPI document,
 * and published in docs/permissions.md (generated from this table by `npm run docs:permissions`).
 *
 * Row-level rules live in the services: `external_sales` and `contact` only ever see and change
 * rows of the companies they are linked to; `guest` reads only.
 */
const STAFF: Role[] = ['superadmin', 'admin', 'sales', 'external_sales'];
const ADMINS: Role[] = ['superadmin', 'admin'];
const EVERYONE: Role[] = ['superadmin', 'admin', 'sales', 'external_sales', 'contact', 'guest'];
const READERS: Role[] = EVERYONE;
/** The seller's own estimating staff: the only roles that see costs, margins and rates. */
const COST_READERS: Role[] = ['superadmin', 'admin', 'sales'];

export const PERMISSIONS = {
  'organisations:create': { roles: ['superadmin'], description: 'Create another organisation (tenant)' },
  'profile:read': { roles: EVERYONE, description: 'Read one’s own user record' },
  'profile:preferences': { roles: EVERYONE, description: 'Change one’s own notification preferences' },
  'access_tokens:manage': {
    roles: EVERYONE,
    description:
      'Create, list and revoke access tokens (one’s own; admins: users below admin; superadmins: any user of the organisation)',
  },
  'roles:read': { roles: EVERYONE, description: 'List the roles' },
  'users:read': {
    roles: ['superadmin', 'admin', 'sales', 'external_sales', 'guest'],
    description: 'Read users',
  },
  'users:manage': { roles: ADMINS, description: 'Create, change, archive and unarchive users' },
  'contacts:read': { roles: READERS, description: 'Read contacts' },
  'contacts:write': { roles: STAFF, description: 'Create, change, archive and link contacts' },
  'companies:read': { roles: READERS, description: 'Read companies' },
  'companies:write': { roles: STAFF, description: 'Create, change and archive companies' },
  'projects:read': { roles: READERS, description: 'Read projects' },
  'pipelines:read': { roles: [...STAFF, 'guest'], description: 'Read the sales pipelines and their steps' },
  'projects:write': { roles: STAFF, description: 'Create, change and delete projects' },
  'addresses:read': { roles: READERS, description: 'Read addresses' },
  'addresses:write': { roles: STAFF, description: 'Create, change and delete addresses' },
  'settings:read': { roles: EVERYONE, description: 'Read statuses, currencies and custom field definitions' },
  'settings:manage': {
    roles: ADMINS,
    description: 'Manage statuses, currencies and custom field definitions',
  },
  'organisation_settings:read': {
    roles: STAFF,
    description:
      'Read the seller’s identity and commercial settings (buyers see only what their quote PDF prints)',
  },
  'brand:read': {
    roles: EVERYONE,
    description: 'Read the seller’s name and logo (the buyer portal’s header; what every quote PDF prints)',
  },
  'organisation_settings:manage': {
    roles: ADMINS,
    description: 'Change the seller’s identity, logo, bank details, commercial terms and VAT rates',
  },
  'files:read': { roles: READERS, description: 'List and download files and comments' },
  'files:write': { roles: [...STAFF, 'contact'], description: 'Upload and delete files, write comments' },
  'catalogue:read': {
    roles: EVERYONE,
    description:
      'Read the estimating reference catalogue (without `costs:read`: names and specifications, no rates or prices)',
  },
  'catalogue:manage': { roles: ADMINS, description: 'Edit the estimating reference catalogue (rates)' },
  'briefs:read': {
    roles: READERS,
    description:
      'Read briefs, their prediction and process (without `costs:read`: the buyer’s view, prices without costs or margins)',
  },
  'costs:read': {
    roles: COST_READERS,
    description:
      'See the seller’s costs: cost lines and shares, margins, operations’ times and costs, machine and material rates, supplier prices, value-analysis internals; set a brief’s commercial margin',
  },
  'briefs:write': { roles: [...STAFF, 'contact'], description: 'Create, change and delete briefs' },
  'articles:read': { roles: READERS, description: 'Read articles' },
  'articles:write': { roles: STAFF, description: 'Create, change and delete articles' },
  'orders:read': { roles: READERS, description: 'Read orders and order items' },
  'orders:write': { roles: STAFF, description: 'Create, change and delete orders and order items' },
  'quotes:read': { roles: READERS, description: 'Read quotes and download their PDFs' },
  'quotes:write': { roles: STAFF, description: 'Create, edit, publish, render and convert quotes' },
  'quotes:respond': {
    roles: ['superadmin', 'admin', 'sales', 'external_sales', 'contact'],
    description: 'Accept (sign) or decline (reject) a published quote',
  },
  'quotes:reorder': {
    roles: [...STAFF, 'contact'],
    description:
      'Order again: a draft quote re-priced at today’s prices from a delivered order or an article (docs/portal.md)',
  },
  'events:read': { roles: ADMINS, description: 'Read the event log and event resources' },
  'webhooks:manage': { roles: ADMINS, description: 'Manage webhooks and their deliveries' },
  'imports:manage': { roles: ADMINS, description: 'Run and read CSV imports' },
  'exports:manage': { roles: ADMINS, description: 'Request, read and download CSV exports' },
} as const satisfies Record<string, { roles: readonly Role[]; description: string }>;

export type Permission = keyof typeof PERMISSIONS;

export function isAllowed(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission].roles as readonly Role[]).includes(role);
}

/** Roles whose access is limited to the companies they are linked to. */
export const COMPANY_SCOPED_ROLES: readonly Role[] = ['external_sales', 'contact'];

/** The role hierarchy, strongest first: no role may act as (or reach above) a stronger one. */
export const ROLE_RANK: Record<Role, number> = {
  superadmin: 5,
  admin: 4,
  sales: 3,
  external_sales: 2,
  contact: 1,
  guest: 0,
};

/**
 * Whether `actor` may act for `target`, i.e. hold a credential of theirs (mint, list or revoke their
 * access tokens, set their password): a user for themself; an admin for users below admin; a
 * superadmin for anyone. Equal rank is refused too: an admin taking over another admin's
 * credentials would act under a name that is not theirs.
 */
export function mayActFor(
  actor: { userId: string; role: Role },
  target: { id: string; role: Role },
): boolean {
  if (actor.userId === target.id) return true;
  if (actor.role === 'superadmin') return true;
  return actor.role === 'admin' && ROLE_RANK[target.role] < ROLE_RANK.admin;
}
