import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { isLanguage, LANGUAGES, type Language, languageOf } from './languages.ts';

export { LANGUAGES } from './languages.ts';

/**
 * Each language's messages are a chunk of their own, fetched when the language is first used (at
 * start, the user's; another when the user switches): the shell carries none of them (issue 31;
 * web/vite.config.ts keeps the French and German sentences of the feature files out of the English
 * chunk).
 */
const catalogues: Record<Language, () => Promise<object>> = {
  en: () => import('./en.ts').then((m) => m.en),
  fr: () => import('./fr.ts').then((m) => m.fr),
  de: () => import('./de.ts').then((m) => m.de),
};

const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem('pqs.language');
const browser = typeof navigator === 'undefined' ? 'en' : navigator.language;
const initial = isLanguage(stored) ? stored : languageOf(browser);

/** Resolves once the user's language is loaded: the app is drawn after it (main.tsx), never with keys. */
export const i18nReady = i18next
  .use(resourcesToBackend((language: string) => catalogues[isLanguage(language) ? language : 'en']()))
  .use(initReactI18next)
  .init({
    lng: initial,
    supportedLngs: LANGUAGES.map((l) => l.value),
    // No fallback language to fetch as well: every catalogue has every key (typed by the English
    // one, and web/src/i18n/catalogue.test.ts checks the plural forms and the registry's codes).
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
document.documentElement.lang = initial;
i18next.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
  localStorage.setItem('pqs.language', lng);
});

export default i18next;
