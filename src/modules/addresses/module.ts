import { defineModule } from '../../platform/module.ts';
import { ADDRESS_ENTITY } from './repository.ts';
import { addressesRoutes } from './routes.ts';
import { createAddressService } from './service.ts';

export const addressesModule = defineModule({
  name: 'addresses',
  services: (ctx) => ({ addresses: createAddressService(ctx) }),
  wire: (ctx, { addresses }) => {
    ctx.registry.entityPayload(ADDRESS_ENTITY);
    return [{ plugin: addressesRoutes(addresses) }];
  },
});
