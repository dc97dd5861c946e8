import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { de } from './de.ts';
import { en } from './en.ts';
import { fr } from './fr.ts';

import { isLanguage, languageOf } from './languages.ts';

export { LANGUAGES } from './languages.ts';

const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem('pqs.language');
const browser = typeof navigator === 'undefined' ? 'en' : navigator.language;
const initial = isLanguage(stored) ? stored : languageOf(browser);

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, fr: { translation: fr }, de: { translation: de } },
  lng: initial,
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});
document.documentElement.lang = initial;
i18next.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
  localStorage.setItem('pqs.language', lng);
});

export default i18next;
