/** The languages of the app, which are also those the quote PDFs are written in (server quotes/i18n.ts). */
export const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'Français' },
  { value: 'de', label: 'Deutsch' },
] as const;

export type Language = (typeof LANGUAGES)[number]['value'];

export const isLanguage = (lng: string | null | undefined): lng is Language =>
  LANGUAGES.some((l) => l.value === lng);

/** The app language to write a document in by default: the user's own ("de-AT" -> de), else English. */
export const languageOf = (lng: string | null | undefined): Language => {
  const primary = lng?.slice(0, 2);
  return isLanguage(primary) ? primary : 'en';
};
