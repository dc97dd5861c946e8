import type { FeatureModule } from '../../platform/module.ts';
import { ordersModule } from '../orders/module.ts';
import { quotesModule } from '../quotes/module.ts';
import { reorderRoutes } from './routes.ts';
import { createReorderService } from './service.ts';

/** "Order again" from a delivered order or an article (docs/portal.md). */
export const reordersFeature: FeatureModule = {
  name: 'reorders',
  aliases: ['/orders', '/articles'],
  wire: (ctx) => {
    const service = createReorderService(ctx, {
      quotes: quotesModule(ctx).service,
      orders: ordersModule(ctx).orders,
    });
    return [{ plugin: reorderRoutes(ctx, service), aliased: true }];
  },
};
