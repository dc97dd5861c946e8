import { Type } from '@sinclair/typebox';
import type { Registry } from '../../platform/registry.ts';
import { AcceptanceSchema } from '../acceptances/schemas.ts';
import { loadCatalogueWithNames } from '../catalogue/loader.ts';
import {
  QUOTE_ENTITY,
  QUOTE_GUEST_LINK_ENTITY,
  QUOTE_ITEM_ENTITY,
  type QuoteItemRow,
  quoteCurrencyOf,
} from './repository.ts';
import { GuestLinkSchema, QuoteItemChildSchema, QuoteSchema } from './schemas.ts';
import { itemView, presentQuoteRow } from './service.ts';

/**
 * What the events of the quote tables deliver (docs/webhooks.md, "Entity payloads"): the GET
 * presenters' output for staff who read costs. Declared here rather than with the descriptors in
 * repository.ts because the schemas import the lifecycle, which imports the repository.
 */

/**
 * GET /quotes/{id} without what it reads from other tables or decides per caller (project,
 * company, contact, address, items, pdfs, order, price-break columns, allowedActions): items have
 * their own events; `acceptance` is the buyer's evidence on the accept / decline event.
 */
export const QuoteEventSchema = Type.Composite(
  [
    Type.Omit(QuoteSchema, [
      'project',
      'company',
      'contact',
      'address',
      'items',
      'pdfs',
      'order',
      'priceBreakColumns',
      'allowedActions',
    ]),
    Type.Object({
      acceptance: Type.Optional(
        Type.Ref('QuoteAcceptance', { description: 'Accept and decline events: the buyer’s evidence' }),
      ),
    }),
  ],
  { $id: 'QuoteEventEntity', description: 'A quote as its events deliver it' },
);

/** Declares the payloads of the quote tables in the app's registry (quotes module.ts). */
export function declareQuotePayloads(registry: Pick<Registry, 'entityPayload'>): void {
  registry.entityPayload(QUOTE_ENTITY, {
    schema: QuoteEventSchema,
    refs: [AcceptanceSchema],
    present: (row) => presentQuoteRow(row as { totalPrice: number; vatRate: number | null }),
  });

  // One line of a quote as GET /quotes/{id} shows it to staff (without its children: each has its events).
  registry.entityPayload(QUOTE_ITEM_ENTITY, {
    schema: QuoteItemChildSchema,
    present: async (row, tx) => {
      const item = row as unknown as QuoteItemRow;
      const currency = await quoteCurrencyOf(tx, item.quoteId);
      const catalogue = await loadCatalogueWithNames(tx, item.organisationId);
      return itemView('seller', currency ?? '', catalogue)(item) as Record<string, unknown>;
    },
  });

  // A guest link's snapshot is already its presenter's output (presentLink).
  registry.entityPayload(QUOTE_GUEST_LINK_ENTITY, { schema: GuestLinkSchema });
}
