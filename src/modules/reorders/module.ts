import { defineModule } from '../../platform/module.ts';
import { ordersModule } from '../orders/module.ts';
import { quotesModule } from '../quotes/module.ts';
import { reorderRoutes } from './routes.ts';
import { createReorderService } from './service.ts';

/** "Order again" from a delivered order or an article (docs/portal.md). */
export const reordersModule = defineModule({
  name: 'reorders',
  aliases: ['/orders', '/articles'],
  services: (ctx) => ({
    reorders: createReorderService(ctx, {
      quotes: quotesModule.services(ctx).quotes,
      orders: ordersModule.services(ctx).orders,
    }),
  }),
  wire: (_ctx, { reorders }) => [{ plugin: reorderRoutes(reorders), aliased: true }],
});
