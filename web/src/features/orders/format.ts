import i18next from 'i18next';

/**
 * How an order is named on screen: its number in the organisation (never its id; issue 26), with
 * its ERP id beside it when it has one.
 */
export const orderName = (order: { id: string; code?: number | null; externalId?: string | null }) => {
  const number = order.code == null ? undefined : i18next.t('orders.number', { code: order.code });
  return [number, order.externalId].filter(Boolean).join(' · ') || '—';
};

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
