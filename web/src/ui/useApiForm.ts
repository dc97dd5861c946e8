import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemFields, problemMessage } from './problem.ts';

/**
 * Submitting a form to the API: the API validates, and its problem+json pointers ("/name",
 * "/email") come back as field errors shown under the matching input; any other reason is shown
 * as the form's error. Both in the user's language (ui/problem.ts), worked out at each render so a
 * language switch translates an error already shown.
 */
export function useApiForm() {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const fields = problemFields(error, t);
  return {
    busy,
    formError: error === undefined ? undefined : problemMessage(error, t),
    error: (pointer: string) => fields[pointer],
    fields,
    async submit<T>(call: () => Promise<T>, success?: string): Promise<T | undefined> {
      setBusy(true);
      setError(undefined);
      try {
        const result = await call();
        if (success) notifications.show({ color: 'teal', message: success });
        return result;
      } catch (caught) {
        setError(caught);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
  };
}
