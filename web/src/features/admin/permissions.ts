import type { Role } from '../../api/auth.ts';

/**
 * The role rules the administration screens follow to decide what to offer. The operations
 * themselves (users:manage, settings:manage, catalogue:manage...) come from the API's matrix
 * (GET /api/roles, see useCan.ts); these are the hierarchy rules beyond it (docs/permissions.md,
 * "Rules beyond the matrix"). They only choose what is shown: the API decides, and a refusal shows
 * its reason.
 */
export const ROLES: Role[] = ['superadmin', 'admin', 'sales', 'external_sales', 'contact', 'guest'];

const RANK: Record<Role, number> = {
  superadmin: 5,
  admin: 4,
  sales: 3,
  external_sales: 2,
  contact: 1,
  guest: 0,
};

type Actor = { id: string; role: Role };
type Target = { id: string; role: Role };

/** Whether the actor may mint, list or revoke the target's access tokens (or set its password). */
export function mayActFor(actor: Actor, target: Target): boolean {
  if (actor.id === target.id) return true;
  if (actor.role === 'superadmin') return true;
  return actor.role === 'admin' && RANK[target.role] < RANK.admin;
}

/** The roles an actor who manages users may give: only a superadmin makes superadmins. */
export function assignableRoles(actor: Role): Role[] {
  return actor === 'superadmin' ? ROLES : ROLES.filter((r) => r !== 'superadmin');
}

/**
 * Whether an actor who holds users:manage may change or archive the target: not a superadmin unless
 * the actor is one. Archiving oneself is refused (the screen does not offer it).
 */
export function mayManageUser(actor: Actor, target: Target, action: 'edit' | 'archive'): boolean {
  if (target.role === 'superadmin' && actor.role !== 'superadmin') return false;
  if (action === 'archive' && actor.id === target.id) return false;
  return true;
}
