import { defineModule } from '../../platform/module.ts';
import { CUSTOM_FIELD_ENTITY } from './repository.ts';
import { customFieldsRoutes } from './routes.ts';
import { createCustomFieldService } from './service.ts';

export const customFieldsModule = defineModule({
  name: 'custom-fields',
  services: (ctx) => ({ customFields: createCustomFieldService(ctx) }),
  wire: (ctx, { customFields }) => {
    ctx.registry.entityPayload(CUSTOM_FIELD_ENTITY);
    return [{ plugin: customFieldsRoutes(customFields) }];
  },
});
