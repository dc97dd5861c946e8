import { defineModule } from '../../platform/module.ts';
import { contactsRoutes } from './routes.ts';
import { createContactService } from './service.ts';

/** Buyers' contacts (users with the contact role): their events are the users module's CONTACT. */
export const contactsModule = defineModule({
  name: 'contacts',
  services: (ctx) => ({ contacts: createContactService(ctx) }),
  wire: (_ctx, { contacts }) => [{ plugin: contactsRoutes(contacts) }],
});
