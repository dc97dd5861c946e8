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

type LineText = { name: string; description: string | null };

/** A line as the API gives it: its snapshot name and, per language, the catalogue's (`localised`). */
type NamedLine = {
  name: string | null;
  localised?: { en: LineText; fr: LineText; de: LineText } | null;
};

const languageOf = (language: string) => language.slice(0, 2) as 'en' | 'fr' | 'de';

/**
 * A quote or order line's name in the user's language: the API's `localised` name (an element
 * line named by its style's catalogue name in that language, unless a user typed the line's name),
 * else the snapshot taken when the line was added.
 */
export const lineName = (line: NamedLine, language: string) =>
  line.localised?.[languageOf(language)]?.name ?? line.name ?? '';

/** A line's specification (board · colours · finishes) in the user's language, or null. */
export const lineDescription = (line: NamedLine & { description?: string | null }, language: string) =>
  line.localised?.[languageOf(language)]?.description ?? line.description ?? null;
