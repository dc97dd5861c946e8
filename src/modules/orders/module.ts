import type { AppContext } from '../../context.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { createOrderItemService } from './items-service.ts';
import { ordersRoutes } from './routes.ts';
import { createOrderService, type OrderService } from './service.ts';

export type OrdersModule = { orders: OrderService; items: ReturnType<typeof createOrderItemService> };
const modules = new WeakMap<AppContext, OrdersModule>();

/** The order and order item services of an app, made once per context (quotes convert into orders). */
export function ordersModule(ctx: AppContext): OrdersModule {
  const existing = modules.get(ctx);
  if (existing) return existing;
  const module = { orders: createOrderService(ctx), items: createOrderItemService(ctx) };
  modules.set(ctx, module);
  return module;
}

export const ordersFeature: FeatureModule = {
  name: 'orders',
  aliases: ['/orders', '/order-items'],
  wire: (ctx) => [{ plugin: ordersRoutes(ctx, ordersModule(ctx)), aliased: true }],
};
