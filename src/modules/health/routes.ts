import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';

/** GET /health: 200 once the service and its database answer; 503 while shutting down. */
export const healthRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        config: { public: true },
        schema: {
          tags: ['platform'],
          operationId: 'getHealth',
          summary: 'Readiness probe',
          response: { 200: Type.Object({ status: Type.Literal('ok'), database: Type.String() }) },
        },
      },
      async () => {
        await ctx.database.query('select 1');
        return { status: 'ok' as const, database: ctx.database.kind };
      },
    );
  };
