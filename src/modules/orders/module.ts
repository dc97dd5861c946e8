import { defineModule } from '../../platform/module.ts';
import { filesModule } from '../files/module.ts';
import { createOrderItemService, type OrderItemService } from './items-service.ts';
import { ORDER_ENTITY, ORDER_ITEM_ENTITY } from './repository.ts';
import { ordersRoutes } from './routes.ts';
import { createOrderService, type OrderService } from './service.ts';

export type OrdersServices = { orders: OrderService; items: OrderItemService };

/** Orders and their items (quotes convert into orders: `ordersModule.services(ctx).orders`). */
export const ordersModule = defineModule<OrdersServices>({
  name: 'orders',
  aliases: ['/orders', '/order-items'],
  services: (ctx) => ({ orders: createOrderService(ctx), items: createOrderItemService(ctx) }),
  wire: (ctx, services) => {
    ctx.registry.entityPayload(ORDER_ENTITY);
    ctx.registry.entityPayload(ORDER_ITEM_ENTITY);
    return [{ plugin: ordersRoutes(services, filesModule.services(ctx)), aliased: true }];
  },
});
