import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers on every answer (helmet; docs/security.md, "Probe 3"; docs/web.md). Three
 * policies, chosen by the path so that not-found handlers, the SPA fallback and static files are
 * covered like routes:
 *
 * - the web app (`/app`, built by Vite): scripts and styles only from this origin, plus inline
 *   styles (Mantine writes `<style>` elements for its CSS variables and responsive props); images
 *   also as `data:` (the favicon, the configurator's SVG drawings) and `blob:`; the quote PDF
 *   preview is a `blob:` frame; API calls to this origin only;
 * - Swagger UI at `/docs` (served from node_modules by @fastify/swagger-ui: scripts are files, no
 *   inline script; inline styles and `data:` icons);
 * - everything else (the API's JSON, problems, files, the OpenAPI document): nothing may load or run
 *   (`default-src 'none'`), so a file or an answer opened in a browser cannot run script.
 *
 * All of them: no framing (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), no MIME sniffing
 * (`nosniff`), `Referrer-Policy: no-referrer` (guest quote links carry their secret in the URL).
 * No `Strict-Transport-Security` and no `upgrade-insecure-requests`: TLS is the reverse proxy's
 * (docs/security.md, out of scope), and the service is also reached over plain HTTP on a loopback
 * or private network.
 */

type Directives = Record<string, string[]>;

const NO_FRAMING: Directives = {
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
};

export const APP_CSP: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'"],
  'frame-src': ['blob:'],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  ...NO_FRAMING,
};

export const DOCS_CSP: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  ...NO_FRAMING,
};

export const API_CSP: Directives = {
  'default-src': ["'none'"],
  'form-action': ["'none'"],
  ...NO_FRAMING,
};

const policy = (directives: Directives) => ({
  contentSecurityPolicy: { useDefaults: false, directives },
});

/** Helmet's other headers as it sets them (nosniff, COOP/CORP same-origin, ...), except these. */
const BASE: HelmetOptions = {
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
};

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Registers the headers for every request; `webPrefix` and `docsPrefix` get their own policies.
 * Each policy's helmet middleware is built once here: @fastify/helmet's `reply.helmet(options)`
 * built it again on every request (parsing the CSP directives each time), a few per cent of a
 * small request's CPU (issue 31). The headers are the same.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  prefixes: { web: string; docs: string },
): Promise<void> {
  const api = helmet({ ...BASE, ...policy(API_CSP) });
  const web = helmet({ ...BASE, ...policy(APP_CSP) });
  const docs = helmet({ ...BASE, ...policy(DOCS_CSP) });
  app.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const headers = under(path, prefixes.web) ? web : under(path, prefixes.docs) ? docs : api;
    headers(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
}
