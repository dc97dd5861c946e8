/**
 * Kept apart from the service (no database imports): the web app's tests read it to check that
 * every default status is shown in each language (web/src/i18n/catalogue.test.ts).
 */
/** The order workflow every new organisation starts with (Pending is the default). */
export const DEFAULT_ORDER_STATUSES: ReadonlyArray<{ label: string; color: string }> = [
  { label: 'Pending', color: '#9E9E9E' },
  { label: 'Processing', color: '#2196F3' },
  { label: 'Shipped', color: '#3F51B5' },
  { label: 'Delivered', color: '#4CAF50' },
  { label: 'Cancelled', color: '#F44336' },
  { label: 'On Hold', color: '#FF9800' },
  { label: 'Backordered', color: '#795548' },
];
