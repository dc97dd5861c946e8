import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';

/**
 * GET /health: 200 once the service and its database answer; 503 while shutting down. It names the
 * Node.js that runs the service, so an operator can see the project's own runtime is in use.
 */
export const healthRoutes =
  (ctx: Pick<AppContext, 'database'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        config: { public: true },
        schema: {
          tags: ['platform'],
          operationId: 'getHealth',
          summary: 'Readiness probe',
          response: {
            200: Type.Object({
              status: Type.Literal('ok'),
              database: Type.String(),
              node: Type.String({ description: 'Node.js version running the service, e.g. v24.21.0' }),
            }),
          },
        },
      },
      async () => {
        await ctx.database.query('select 1');
        return { status: 'ok' as const, database: ctx.database.kind, node: process.version };
      },
    );
  };
