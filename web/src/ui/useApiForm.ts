import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ApiError } from '../api/client.ts';

/**
 * Submitting a form to the API: the API validates, and its problem+json pointers ("/name",
 * "/email") come back as field errors shown under the matching input; any other reason is shown
 * as the form's error.
 */
export function useApiForm() {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return {
    busy,
    formError,
    error: (pointer: string) => fieldErrors[pointer],
    fields: fieldErrors,
    async submit<T>(call: () => Promise<T>, success?: string): Promise<T | undefined> {
      setBusy(true);
      setFieldErrors({});
      setFormError(undefined);
      try {
        const result = await call();
        if (success) notifications.show({ color: 'teal', message: success });
        return result;
      } catch (error) {
        if (error instanceof ApiError) {
          setFieldErrors(error.fields);
          setFormError(error.message);
        } else setFormError(String(error));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
  };
}
