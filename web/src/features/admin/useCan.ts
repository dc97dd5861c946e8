import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../api/auth.ts';
import { rolesQuery } from './frameQueries.ts';

/**
 * The signed-in role's operations, from the API's own matrix (GET /api/roles): what a role may not
 * do is not offered. Until the matrix has loaded nothing is offered.
 */
export function useCan() {
  const { me } = useAuth();
  const roles = useQuery({ ...rolesQuery(), enabled: !!me });
  const permissions = new Set(roles.data?.find((r) => r.name === me?.role)?.permissions ?? []);
  return (operation: string) => permissions.has(operation);
}
