import i18next from 'i18next';

/**
 * Date and time of a version (several can be priced the same day). Apart from VersionChanges.tsx,
 * so the configurator, which only dates its versions, does not load the comparison's code.
 */
export const when = (value: string) =>
  new Intl.DateTimeFormat(i18next.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(value),
  );
