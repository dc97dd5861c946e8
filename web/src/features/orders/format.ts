import i18next from 'i18next';

/**
 * How an order is named on screen: its number in the organisation (never its id; issue 26), with
 * its ERP id beside it when it has one.
 */
export const orderName = (order: { id: string; code?: number | null; externalId?: string | null }) => {
  const number = order.code == null ? undefined : i18next.t('orders.number', { code: order.code });
  return [number, order.externalId].filter(Boolean).join(' · ') || '—';
};

/** Number options with the currency when it is known (an order without currency shows the figure alone). */
const withCurrency = (currency: string | null | undefined, digits: number): Intl.NumberFormatOptions =>
  currency
    ? { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: digits }
    : { minimumFractionDigits: 2, maximumFractionDigits: digits };

/** An amount with two decimals, in the order's currency (its code, from the API's `currency`). */
export const amount = (value: number | null | undefined, currency?: string | null) =>
  value === null || value === undefined
    ? '—'
    : new Intl.NumberFormat(i18next.language, withCurrency(currency, 2)).format(value);

/** A unit price: up to 4 decimals, as the API keeps them, in the order's currency. */
export const unitPrice = (value: number | null | undefined, currency?: string | null) =>
  value === null || value === undefined
    ? '—'
    : new Intl.NumberFormat(i18next.language, withCurrency(currency, 4)).format(value);
