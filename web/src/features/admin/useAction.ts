import { notifications } from '@mantine/notifications';
import { useState } from 'react';

/**
 * A one-click action of a list (archive, revoke, delete, move): which one is running, and the last
 * refusal, which the screen shows with the API's reason (ErrorState) until the next action.
 */
export function useAction() {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string>();
  return {
    error,
    busy,
    clear: () => setError(undefined),
    async run(key: string, call: () => Promise<unknown>, success?: string): Promise<boolean> {
      setBusy(key);
      setError(undefined);
      try {
        await call();
        if (success) notifications.show({ color: 'teal', message: success });
        return true;
      } catch (e) {
        setError(e);
        return false;
      } finally {
        setBusy(undefined);
      }
    },
  };
}
