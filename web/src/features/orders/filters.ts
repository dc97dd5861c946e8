/**
 * The orders list's filters as they live in the URL (shareable links) and as the API takes them
 * (GET /api/orders: statusId is a comma-separated list; date ranges are inclusive, a date alone
 * covers its whole day).
 */
export const ORDER_FILTERS = [
  'companyId',
  'projectId',
  'statusId',
  'externalId',
  'search',
  'orderDateStart',
  'orderDateEnd',
  'expectedDeliveryDateStart',
  'expectedDeliveryDateEnd',
] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

export function ordersQuery(params: URLSearchParams) {
  const query: Partial<Record<OrderFilter, string>> = {};
  for (const key of ORDER_FILTERS) {
    const value = params.get(key);
    if (value) query[key] = value;
  }
  return query;
}
