import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import type { Sections } from './en.ts';
import { isLanguage, LANGUAGES, type Language, languageOf } from './languages.ts';

export { LANGUAGES } from './languages.ts';

/**
 * Each language's messages are a chunk of their own, fetched when the language is first used (at
 * start, the user's; another when the user switches): the shell carries none of them (issue 31;
 * web/vite.config.ts keeps the French and German sentences of the feature files out of the English
 * chunk). The messages most pages need are the default namespace (`translation`); a section only
 * a few pages use (SECTIONS) is a namespace of its own, loaded with those pages (router.tsx,
 * `page(load, sections)`).
 */
const catalogues: Record<Language, () => Promise<{ messages: object; sections: Sections }>> = {
  en: () => import('./en.ts').then((m) => ({ messages: m.en, sections: m.enSections })),
  fr: () => import('./fr.ts').then((m) => ({ messages: m.fr, sections: m.frSections })),
  de: () => import('./de.ts').then((m) => ({ messages: m.de, sections: m.deSections })),
};

/**
 * The sections loaded on demand, each named by the top-level keys it holds. Their keys are written
 * as every other (`t('imports.title')`): i18next looks a key up in the default namespace, then in
 * the sections loaded (`fallbackNS`). A top-level key can be split: `admin.nav` and `admin.roles`
 * (the frame's) are in the default namespace, the rest of `admin` in its section.
 */
export const SECTIONS = {
  operations: ['imports', 'webhooks'],
  proofs: ['proofs'],
  admin: ['admin'],
} as const satisfies Record<keyof Sections, readonly string[]>;
export type Section = keyof typeof SECTIONS;
const isSection = (namespace: string): namespace is Section => namespace in SECTIONS;
const sectionOf = (key: string): Section | undefined =>
  (Object.keys(SECTIONS) as Section[]).find((section) =>
    (SECTIONS[section] as readonly string[]).includes(key.split('.')[0] ?? ''),
  );

const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem('pqs.language');
const browser = typeof navigator === 'undefined' ? 'en' : navigator.language;
const initial = isLanguage(stored) ? stored : languageOf(browser);

/** Resolves once the user's language is loaded: the app is drawn after it (main.tsx), never with keys. */
export const i18nReady = i18next
  .use(
    resourcesToBackend(async (language: string, namespace: string) => {
      const catalogue = await catalogues[isLanguage(language) ? language : 'en']();
      return isSection(namespace) ? catalogue.sections[namespace]() : catalogue.messages;
    }),
  )
  .use(initReactI18next)
  .init({
    lng: initial,
    supportedLngs: LANGUAGES.map((l) => l.value),
    ns: ['translation'],
    defaultNS: 'translation',
    fallbackNS: Object.keys(SECTIONS),
    // No fallback language to fetch as well: every catalogue has every key (typed by the English
    // one, and web/src/i18n/catalogue.test.ts checks the plural forms and the registry's codes).
    fallbackLng: false,
    interpolation: { escapeValue: false },
    // A section's key asked for before its section was loaded (a page that did not declare it in
    // router.tsx): said in the console, shown empty rather than as a key, and the section is
    // loaded; the screens re-render when it arrives (`loaded` below). A page that declares its
    // sections never gets here: it is drawn once they are loaded.
    parseMissingKeyHandler: (key: string, defaultValue?: string) => {
      const section = sectionOf(key);
      if (!section || i18next.hasLoadedNamespace(section)) return defaultValue ?? key;
      console.error(
        `Messages "${section}" used before they were loaded (key ${key}): declare them on the page`,
      );
      void i18next.loadNamespaces(section);
      return defaultValue ?? '';
    },
    react: { bindI18n: 'languageChanged loaded' },
  });
document.documentElement.lang = initial;
i18next.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
  localStorage.setItem('pqs.language', lng);
});

/**
 * Loads message sections (in the current language; a later language switch loads them in the new
 * one before it takes effect, as i18next does for every namespace it has loaded). Rejects when one
 * could not be loaded (i18next's own promise resolves anyway), so the page fails as when its own
 * chunk cannot be loaded, instead of drawing itself without its words.
 */
export async function loadSections(sections: readonly Section[]) {
  if (sections.length === 0) return;
  // The router starts loading the first page as it is created, before i18next is initialised.
  await i18nReady;
  await i18next.loadNamespaces([...sections]);
  const missing = sections.filter((section) => !i18next.hasLoadedNamespace(section));
  if (missing.length > 0) throw new Error(`Messages not loaded: ${missing.join(', ')}`);
}

export default i18next;
