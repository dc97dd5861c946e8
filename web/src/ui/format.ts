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

/** The locale's digit-group and decimal separators, for inputs that format as the user types. */
export function separators(): { thousandSeparator: string; decimalSeparator: string } {
  const parts = new Intl.NumberFormat(i18next.language).formatToParts(12345.6);
  return {
    thousandSeparator: parts.find((p) => p.type === 'group')?.value ?? ',',
    decimalSeparator: parts.find((p) => p.type === 'decimal')?.value ?? '.',
  };
}
