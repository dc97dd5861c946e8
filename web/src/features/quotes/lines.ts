import type { TFunction } from 'i18next';

/** Engine codes of the tools and services a line carries (src/platform/line-parts.ts), named per language. */
const SERVICE_CODES = [
  'CUTTING_DIE',
  'ROTARY_DIE',
  'STAMPING_DIE',
  'EMBOSSING_DIE',
  'BRAILLE_DIE',
  'FLEXO_PLATES',
  'TOOLING',
  'DELIVERY',
] as const;

/** A tool's or service's name in the user's language by its code, else the name the API gave. */
export function serviceName(t: TFunction, code: string | null | undefined, name: string) {
  return code && (SERVICE_CODES as readonly string[]).includes(code) ? t(`lines.services.${code}`) : name;
}

/** Whether a line's variants are worth showing as sub-lines: several, or one with a name or artwork. */
export const showsVariants = (variants: { name: string | null; artworkReference: string | null }[]) =>
  variants.length > 1 || variants.some((v) => v.name || v.artworkReference);
