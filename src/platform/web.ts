import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where the web application lives; its own URLs never collide with the API's (see ARCHITECTURE.md). */
export const WEB_PREFIX = '/app';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web app not built</title></head>
<body><main><h1>The web application is not built</h1><p>Run <code>npm run build</code> (which <code>npm start</code> does)
or <code>npm run dev</code>. The API is served under <a href="/docs">/api (documentation)</a>.</p></main></body></html>`;

/**
 * Serves the built web application (Vite's output in `webDir`) at /app/: hashed assets with a long
 * cache life, and index.html for every other /app URL so that a reload of any app route gives the
 * app (SPA fallback). `/` redirects to /app/. Nothing outside /app is touched, so /api, /docs,
 * /health and the unprefixed API aliases keep answering as before.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const built = existsSync(join(webDir, 'index.html'));
  const routeConfig = { public: true };

  app.get('/', { config: routeConfig, schema: { hide: true } }, async (_request, reply) =>
    reply.redirect(`${WEB_PREFIX}/`, 302),
  );

  await app.register(
    async (scope) => {
      const sendIndex = (reply: FastifyReply) => {
        // The page names the current hashed bundles: never cached, so a deploy is picked up at once.
        reply.header('cache-control', 'no-cache');
        if (!built) return reply.status(503).type('text/html; charset=utf-8').send(NOT_BUILT);
        return reply.sendFile('index.html', { cacheControl: false });
      };
      if (built) {
        await scope.register(fastifyStatic, {
          root: webDir,
          prefix: '/',
          index: false,
          wildcard: true,
          // scripts/build.ts writes .br and .gz beside each asset: sent to browsers that accept them.
          preCompressed: true,
          // Vite names assets by content hash: they may be cached for good.
          setHeaders: (res, path) => {
            if (/[\\/]assets[\\/]/.test(path))
              res.header('cache-control', 'public, max-age=31536000, immutable');
          },
        });
      }
      scope.get('/', { config: routeConfig, schema: { hide: true } }, async (_request, reply) =>
        sendIndex(reply),
      );
      // Any other /app URL without a file is one of the app's own (client-side) routes: index.html.
      // A missing file under /app/assets/ stays a 404: a stale bundle name must not get HTML back.
      scope.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
        const path = request.url.split('?')[0] ?? '';
        if (
          (request.method !== 'GET' && request.method !== 'HEAD') ||
          path.startsWith(`${WEB_PREFIX}/assets/`)
        ) {
          return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
        }
        return sendIndex(reply);
      });
    },
    { prefix: WEB_PREFIX },
  );
}
