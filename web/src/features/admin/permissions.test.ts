import { describe, expect, it } from 'vitest';
import { assignableRoles, mayActFor, mayManageUser } from './permissions.ts';

const superadmin = { id: 's', role: 'superadmin' as const };
const admin = { id: 'a', role: 'admin' as const };
const otherAdmin = { id: 'a2', role: 'admin' as const };
const sales = { id: 'x', role: 'sales' as const };
const contact = { id: 'c', role: 'contact' as const };

describe('administration: what the screens offer by role', () => {
  it('access tokens: oneself; an admin those below admin; a superadmin anyone', () => {
    expect(mayActFor(sales, sales)).toBe(true);
    expect(mayActFor(sales, contact)).toBe(false);
    expect(mayActFor(admin, sales)).toBe(true);
    expect(mayActFor(admin, otherAdmin)).toBe(false);
    expect(mayActFor(admin, superadmin)).toBe(false);
    expect(mayActFor(superadmin, otherAdmin)).toBe(true);
  });
  it('only a superadmin gives or manages the superadmin role', () => {
    expect(assignableRoles('admin')).not.toContain('superadmin');
    expect(assignableRoles('superadmin')).toContain('superadmin');
    expect(mayManageUser(admin, superadmin, 'edit')).toBe(false);
    expect(mayManageUser(superadmin, superadmin, 'edit')).toBe(true);
    expect(mayManageUser(admin, otherAdmin, 'archive')).toBe(true);
  });
  it('nobody archives themselves', () => {
    expect(mayManageUser(admin, admin, 'archive')).toBe(false);
    expect(mayManageUser(admin, admin, 'edit')).toBe(true);
  });
});
