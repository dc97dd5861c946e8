import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORDER_STATUSES } from '../../../src/modules/statuses/defaults.ts';
import { ERROR_CODES } from '../../../src/platform/error-codes.ts';
import {
  COST_NATURE_KEYS,
  COST_SHARE_KEYS,
  OPERATION_CODES,
  OPTIMISATION_TYPES,
  PRINTING_PROCESSES,
} from '../../../src/pricing/message-codes.ts';
import { suggestionText } from '../features/configurator/suggestion.ts';
import { statusLabel } from '../features/orders/statuses.tsx';
import { de, deSections } from './de.ts';
import { en, enSections } from './en.ts';
import { fr, frSections } from './fr.ts';
import { LANGUAGES } from './languages.ts';

/**
 * Issue 26: a user reads every message in their language. Fails on an error code of the registry
 * or an engine code without its sentence in a language, and on any key of one language missing
 * (or empty) in another: the types catch a missing key of fr/de at typecheck, this catches the
 * registry and the engine lists at run time and keeps the plural forms each language needs.
 */
const catalogues: Record<string, Record<string, unknown>> = { en, fr, de };
/** Each language's sections loaded with their pages (i18n/index.ts), checked as the rest. */
const sections = { en: enSections, fr: frSections, de: deSections };
const languages = LANGUAGES.map((l) => l.value);

/** Every leaf key ("common.problems.not_found") with its value. */
function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') for (const [k, v] of leaves(value, path)) out.set(k, v);
    else out.set(path, value);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

beforeAll(async () => {
  for (const [lng, loaders] of Object.entries(sections))
    for (const load of Object.values(loaders)) catalogues[lng] = { ...catalogues[lng], ...(await load()) };
  await i18next.init({
    resources: Object.fromEntries(
      Object.entries(catalogues).map(([lng, translation]) => [lng, { translation }]),
    ),
    lng: 'en',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
});

describe('every message in every language', () => {
  it('offers English, French and German, each with a catalogue', () => {
    expect(languages).toEqual(['en', 'fr', 'de']);
    for (const lng of languages) expect(catalogues[lng]).toBeTruthy();
  });

  it.each(languages)('%s has a sentence for every error code of the registry', (lng) => {
    const missing = Object.keys(ERROR_CODES).filter((code) => {
      const sentence = i18next.getFixedT(lng)(`common.problems.${code}`, { defaultValue: '' });
      return !sentence || sentence === `common.problems.${code}`;
    });
    expect(missing).toEqual([]);
  });

  it.each(languages)('%s words every engine code (levers, operations, cost stages, processes)', (lng) => {
    const t = i18next.getFixedT(lng);
    const keys = [
      ...OPTIMISATION_TYPES.map((c) => `engine.optimisations.${c}`),
      ...OPERATION_CODES.map((c) => `engine.operations.${c}`),
      ...COST_SHARE_KEYS.map((c) => `engine.costShares.${c}`),
      ...COST_NATURE_KEYS.map((c) => `engine.costNatures.${c}`),
      ...PRINTING_PROCESSES.map((c) => `engine.processes.${c}`),
    ];
    expect(keys.filter((key) => !t(key, { defaultValue: '' }))).toEqual([]);
  });

  it.each(languages)('%s shows every status an organisation starts with in its words', async (lng) => {
    await i18next.changeLanguage(lng);
    for (const { label } of DEFAULT_ORDER_STATUSES) {
      const shown = statusLabel(label);
      expect(shown, label).toBeTruthy();
      if (lng === 'en') expect(shown).toBe(label);
      else expect(shown, `${lng} ${label}`).not.toBe(label);
    }
    // A label the organisation wrote itself is shown as written.
    expect(statusLabel('Waiting for artwork')).toBe('Waiting for artwork');
    await i18next.changeLanguage('en');
  });

  it.each(['fr', 'de'])('%s has every key of English and no other, none empty', (lng) => {
    const base = (key: string) => key.replace(PLURAL, '');
    const english = leaves(catalogues.en);
    const other = leaves(catalogues[lng]);
    const singular = (keys: Iterable<string>) => new Set([...keys].map(base));
    expect([...singular(english.keys())].filter((k) => !singular(other.keys()).has(k))).toEqual([]);
    expect([...singular(other.keys())].filter((k) => !singular(english.keys()).has(k))).toEqual([]);
    const empty = [...other].filter(([, value]) => typeof value !== 'string' || !value.trim());
    expect(empty.map(([key]) => key)).toEqual([]);
  });

  it.each(languages)('%s has the plural forms its plural rules need for every counted message', (lng) => {
    const keys = [...leaves(catalogues[lng]).keys()];
    const counted = new Set(keys.filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
    const rules = new Intl.PluralRules(lng);
    // The categories a count of everyday size takes (i18next falls back to the bare key for others).
    const needed = new Set([0, 1, 2, 5, 21, 100, 1.5].map((n) => rules.select(n)));
    const missing = [...counted].flatMap((key) =>
      [...needed].filter((form) => !keys.includes(`${key}_${form}`)).map((form) => `${key}_${form}`),
    );
    expect(missing).toEqual([]);
  });

  it('words the same counted message by the plural rules of each language', async () => {
    const days = (lng: string, count: number) => i18next.getFixedT(lng)('configurator.days', { count });
    expect(days('en', 1)).toBe('1 working day');
    expect(days('fr', 1)).toBe('1 jour ouvré');
    expect(days('fr', 2)).toBe('2 jours ouvrés');
    expect(days('de', 1)).toBe('1 Arbeitstag');
    expect(days('de', 3)).toBe('3 Arbeitstage');
  });

  it('words a value-analysis proposal from its type and changes, never the engine text', async () => {
    await i18next.changeLanguage('de');
    const t = i18next.t;
    expect(
      suggestionText(
        {
          type: 'GANG_RUN',
          changes: [],
        },
        t,
      ),
    ).toBe(
      'Die Motivvarianten zusammen auf einem Bogen drucken: ein Einrichten und ein Plattensatz (bereits im Preis)',
    );
    expect(
      suggestionText(
        {
          type: 'INCREASE_QUANTITY',
          changes: [
            {
              pointer: '/briefElements/0/decorationsCount',
              field: 'decorationsCount',
              from: [{ quantity: 5000 }, { quantity: 10000 }],
              to: [{ quantity: 5200 }, { quantity: 10400 }],
            },
          ],
        },
        t,
      ),
    ).toBe('15.600 statt 15.000 bestellen: jede Variante auf volle Bogen aufgerundet');
    await i18next.changeLanguage('fr');
    expect(
      suggestionText(
        {
          type: 'SIMPLIFY_FINISHING',
          changes: [
            {
              pointer: '/briefElements/0/wantLaminationRecto',
              field: 'wantLaminationRecto',
              from: true,
              to: false,
            },
            {
              pointer: '/briefElements/0/wantVarnishRecto',
              field: 'wantVarnishRecto',
              from: false,
              to: true,
            },
          ],
        },
        i18next.t,
      ),
    ).toBe('Remplacer le pelliculage par un vernis');
    expect(
      suggestionText(
        {
          type: 'ADJUST_DIMENSIONS',
          changes: [
            { pointer: '/briefElements/1/widthDimension', field: 'widthDimension', from: 120, to: 116 },
          ],
        },
        i18next.t,
      ),
    ).toBe('Réduire la largeur de 120 à 116 mm pour loger plus de poses');
    expect(
      suggestionText(
        {
          type: 'CHEAPER_TOTAL_ROUTE',
          changes: [
            {
              pointer: '/briefElements/0/printingProcess',
              field: 'printingProcess',
              from: 'offset',
              to: 'digital',
            },
          ],
        },
        i18next.t,
      ),
    ).toBe('Imprimer en numérique plutôt qu’en offset');
  });
});
