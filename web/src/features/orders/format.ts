import i18next from 'i18next';

/** How an order is named on screen: its ERP id when it has one, else the start of its id. */
export const orderName = (order: { id: string; externalId?: string | null }) =>
  order.externalId ?? `#${order.id.slice(0, 8)}`;

/** An amount with two decimals (a list entry carries a currency id, not its code). */
export const amount = (value: number | null | undefined) =>
  value === null || value === undefined
    ? '—'
    : new Intl.NumberFormat(i18next.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
        value,
      );

/** A unit price: up to 4 decimals, as the API keeps them. */
export const unitPrice = (value: number | null | undefined) =>
  value === null || value === undefined
    ? '—'
    : new Intl.NumberFormat(i18next.language, { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(
        value,
      );
