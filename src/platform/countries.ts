/**
 * ISO 3166-1 alpha-2 codes from what people type: a code in any case (`fr`, `FR`) or a country
 * name in English or French, accents and case ignored (`France`, `Royaume-Uni`, `germany`). The
 * names come from the runtime's CLDR data (Intl.DisplayNames), so no list is kept here.
 */

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Withdrawn, private-use and non-country codes that CLDR still names. */
const NOT_COUNTRIES = /^(AA|AN|BU|CS|DD|EU|EZ|FX|NT|Q[M-Z]|SU|TP|UN|X[A-Z]|YU|ZR|ZZ)$/;

let byName: Map<string, string> | undefined;
let codes: Set<string> | undefined;

function load() {
  if (byName && codes) return { byName, codes };
  byName = new Map();
  codes = new Set();
  const languages = ['en', 'fr'];
  const displays = languages.map(
    (language) => new Intl.DisplayNames([language], { type: 'region', fallback: 'none' }),
  );
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b;
      if (NOT_COUNTRIES.test(code)) continue;
      for (const display of displays) {
        let name: string | undefined;
        try {
          name = display.of(code);
        } catch {
          name = undefined;
        }
        if (!name || name === code) continue;
        codes.add(code);
        const key = fold(name);
        if (!byName.has(key)) byName.set(key, code);
      }
    }
  }
  return { byName, codes };
}

/** The ISO 3166-1 alpha-2 code of a code or a country name, or undefined when unknown. */
export function countryCodeOf(value: string): string | undefined {
  const text = value.trim();
  const { byName, codes } = load();
  if (/^[A-Za-z]{2}$/.test(text) && codes.has(text.toUpperCase())) return text.toUpperCase();
  return byName.get(fold(text));
}
