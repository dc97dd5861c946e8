import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Actor } from './actor.ts';
import type { Authenticator, CurrentUser } from './auth.ts';
import { forbidden } from './errors.ts';
import { isAllowed, PERMISSIONS, type Permission } from './permissions.ts';
import type { SessionCookies } from './session.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation of the permission matrix this route performs. */
    permission?: Permission;
    /** Served without credentials (sign-in, health, docs, guest links). */
    public?: boolean;
  }
  interface FastifyRequest {
    actorOrNull: Actor | null;
    currentUserOrNull: CurrentUser | null;
  }
}

/** The record of the acting user, loaded with the credential check. */
export function currentUserOf(request: FastifyRequest): CurrentUser {
  if (!request.currentUserOrNull) throw new Error('currentUserOf() called on a route without authentication');
  return request.currentUserOrNull;
}

/** The acting user of an authenticated route. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actorOrNull) throw new Error('actorOf() called on a route without authentication');
  return request.actorOrNull;
}

/** Every protected route with its permission, for the docs generator and the matrix test. */
export type ProtectedRoute = { method: string; url: string; permission: Permission };
/** A route declared `public` (no credential), so the contract test can hold the list to the documented few. */
export type PublicRoute = { method: string; url: string };
/** The app's route table as the security hook saw it. */
export type RouteTable = { protectedRoutes: ProtectedRoute[]; publicRoutes: PublicRoute[] };

export const SECURITY: { [scheme: string]: string[] }[] = [{ bearerAuth: [] }, { accessToken: [] }];

/**
 * One hook for every route: authenticates the caller, checks the permission matrix before the body
 * is even parsed, and writes the route's security and allowed roles into its OpenAPI operation.
 * A route that declares neither `permission` nor `public` refuses to register.
 */
export function registerRouteSecurity(
  app: FastifyInstance,
  authenticator: Authenticator,
  session: SessionCookies,
  /** Unprefixed paths the specification names as the same operations as their /api forms (the modules' `aliases`). */
  aliasedPrefixes: readonly string[],
): RouteTable {
  const protectedRoutes: ProtectedRoute[] = [];
  const publicRoutes: PublicRoute[] = [];
  app.decorateRequest('actorOrNull', null);
  app.decorateRequest('currentUserOrNull', null);

  app.addHook('onRoute', (route: RouteOptions) => {
    const config = (route.config ?? {}) as { permission?: Permission; public?: boolean };
    const url = route.url ?? '';
    const isAlias = aliasedPrefixes.some((p) => url === p || url.startsWith(`${p}/`));
    if (isAlias && route.schema) route.schema = { ...route.schema, hide: true };
    if (config.public) {
      if (route.method !== 'HEAD')
        for (const method of [route.method].flat()) publicRoutes.push({ method: String(method), url });
      // Documented as needing no credential (`security: []`), so a generated client sends none
      // and a linter does not read the absence as an oversight.
      if (route.schema && !route.schema.hide) route.schema = { ...route.schema, security: [] };
      return;
    }
    if (!url.startsWith('/api') && !isAlias) return; // framework routes such as the docs page
    const permission = config.permission;
    if (!permission) throw new Error(`Route ${String(route.method)} ${url} declares no permission`);

    // Fastify's automatic HEAD route of a GET (the service declares no HEAD route itself) copies
    // the options the GET was declared with, `config.permission` included, and comes through this
    // hook on its own: it is authorized exactly like its GET, but listed and documented only as
    // the GET (issue 23: it used to be skipped, so HEAD ran the GET handler unauthenticated).
    const automaticHead = route.method === 'HEAD';
    if (!automaticHead)
      for (const method of [route.method].flat())
        protectedRoutes.push({ method: String(method), url, permission });
    const roles = PERMISSIONS[permission].roles.join(', ');
    if (route.schema && !route.schema.hide && !automaticHead) {
      const note = `Permission \`${permission}\` - roles: ${roles}.`;
      route.schema = {
        ...route.schema,
        security: SECURITY,
        description: route.schema.description ? `${route.schema.description}\n\n${note}` : note,
      };
    }
    const authorize = async (request: FastifyRequest) => {
      const sessionToken = session.credentialOf(request);
      const { actor, user } = await authenticator.authenticate(
        sessionToken ? { authorization: `Bearer ${sessionToken}` } : request.headers,
      );
      request.actorOrNull = actor;
      request.currentUserOrNull = user;
      if (!isAllowed(actor.role, permission)) throw forbidden();
    };
    const existing = route.onRequest
      ? Array.isArray(route.onRequest)
        ? route.onRequest
        : [route.onRequest]
      : [];
    route.onRequest = [authorize, ...existing];
  });
  return { protectedRoutes, publicRoutes };
}
