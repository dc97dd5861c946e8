import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.ts';
import { fr } from './fr.ts';

export const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'Français' },
] as const;

const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem('pqs.language');
const browser = typeof navigator === 'undefined' ? 'en' : navigator.language.slice(0, 2);
const initial = stored ?? (browser === 'fr' ? 'fr' : 'en');

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, fr: { translation: fr } },
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
