import i18next from 'i18next';

export function money(amount: number | null | undefined, currency = 'EUR', decimals?: number): string {
  if (amount === null || amount === undefined) return '—';
  return new Intl.NumberFormat(i18next.language, {
    style: 'currency',
    currency,
    minimumFractionDigits: decimals ?? 2,
    maximumFractionDigits: decimals ?? 2,
  }).format(amount);
}

export const number = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : new Intl.NumberFormat(i18next.language).format(value);

export const date = (value: string | null | undefined) =>
  value ? new Intl.DateTimeFormat(i18next.language, { dateStyle: 'medium' }).format(new Date(value)) : '—';

/**
 * A percentage as the locale writes it ("12.6%", "12,6 %", "12,6 %"), from a value in percent
 * (12.6, as the API gives shares and savings).
 */
export const percent = (value: number | null | undefined, maximumFractionDigits = 1) =>
  value === null || value === undefined
    ? '—'
    : new Intl.NumberFormat(i18next.language, { style: 'percent', maximumFractionDigits }).format(
        value / 100,
      );

/** A duration in seconds as the locale writes it ("1.5 sec", "1,5 s"). */
export const seconds = (value: number) =>
  new Intl.NumberFormat(i18next.language, {
    style: 'unit',
    unit: 'second',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
