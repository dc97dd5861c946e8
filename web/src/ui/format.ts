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
