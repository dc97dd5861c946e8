/**
 * What the webhooks console knows of events: the entity names patterns can use (for the help), and
 * where the app shows an event's resource. The API decides what a pattern matches; this is help.
 */

import { paths } from '../../paths.ts';

/** Event entities: the plural of event names (`event.companies.created`) and the `entity` type. */
export const EVENT_ENTITIES: readonly { plural: string; entity: string }[] = [
  { plural: 'addresses', entity: 'ADDRESS' },
  { plural: 'articles', entity: 'ARTICLE' },
  { plural: 'briefs', entity: 'BRIEF' },
  { plural: 'brief_elements', entity: 'BRIEF_ELEMENT' },
  { plural: 'brief_predictions', entity: 'BRIEF_PREDICTION' },
  { plural: 'comments', entity: 'COMMENT' },
  { plural: 'companies', entity: 'COMPANY' },
  { plural: 'contacts', entity: 'CONTACT' },
  { plural: 'currencies', entity: 'CURRENCY' },
  { plural: 'custom_fields', entity: 'CUSTOM_FIELD' },
  { plural: 'exports', entity: 'EXPORT' },
  { plural: 'files', entity: 'FILE' },
  { plural: 'imports', entity: 'IMPORT' },
  { plural: 'orders', entity: 'ORDER' },
  { plural: 'order_items', entity: 'ORDER_ITEM' },
  { plural: 'organisations', entity: 'ORGANISATION' },
  { plural: 'projects', entity: 'PROJECT' },
  { plural: 'quotes', entity: 'QUOTE' },
  { plural: 'quote_items', entity: 'QUOTE_ITEM' },
  { plural: 'quote_guest_links', entity: 'QUOTE_GUEST_LINK' },
  { plural: 'statuses', entity: 'STATUS' },
  { plural: 'users', entity: 'USER' },
  { plural: 'webhooks', entity: 'WEBHOOK' },
];

/** The app's page of each entity that has one (orders and articles: the part-2 screens). */
const SCREENS: Record<string, (id: string) => string> = {
  BRIEF: paths.brief,
  COMPANY: paths.company,
  QUOTE: paths.quote,
  ORDER: paths.order,
  ARTICLE: paths.article,
  IMPORT: paths.import,
  WEBHOOK: paths.webhook,
};

type EventRef = {
  type: string;
  entity: string;
  entityId: string | null;
  relation: string | null;
  relationId: string | null;
};

/**
 * The app path that shows an event's resource: the entity's own page, else (a line of a quote, an
 * element of a brief) its parent's page; none for a deletion of an entity that has no parent page.
 */
export function resourcePath(event: EventRef): string | undefined {
  const own = SCREENS[event.entity];
  if (own && event.entityId && event.type !== 'DELETE') return own(event.entityId);
  const parent = event.relation ? SCREENS[event.relation] : undefined;
  if (parent && event.relationId) return parent(event.relationId);
  return undefined;
}

/** Patterns as typed: one per line or comma-separated, blanks dropped (the API checks each). */
export const parsePatterns = (text: string) =>
  text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);
