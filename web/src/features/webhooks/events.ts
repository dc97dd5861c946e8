/**
 * What the webhooks console knows of events: the entity names patterns can use (for the help), and
 * where the app shows an event's resource. The API decides what a pattern matches; this is help.
 */
export const EVENT_ENTITIES = [
  'addresses',
  'articles',
  'briefs',
  'brief_elements',
  'brief_predictions',
  'comments',
  'companies',
  'contacts',
  'currencies',
  'custom_fields',
  'exports',
  'files',
  'imports',
  'orders',
  'order_items',
  'organisations',
  'projects',
  'quotes',
  'quote_items',
  'quote_guest_links',
  'statuses',
  'users',
  'webhooks',
] as const;

/** The app's page of each entity that has one (orders and articles: the part-2 screens). */
const SCREENS: Record<string, (id: string) => string> = {
  BRIEF: (id) => `/briefs/${id}`,
  COMPANY: (id) => `/companies/${id}`,
  QUOTE: (id) => `/quotes/${id}`,
  ORDER: (id) => `/orders/${id}`,
  ARTICLE: (id) => `/articles/${id}`,
  IMPORT: (id) => `/imports/${id}`,
  WEBHOOK: (id) => `/webhooks/${id}`,
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
