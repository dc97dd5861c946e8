import { Button, Group, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signOut } from '../api/client.ts';
import { startKeepAlive, staySignedIn, useSessionWarning } from '../api/keepAlive.ts';
import { Dialog } from './Dialog.tsx';

/** "m:ss" until `until`. */
const remaining = (until: number) => {
  const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** Keeps the session alive while the user works, and warns before it ends (api/keepAlive.ts). */
export function SessionWarning() {
  const { t } = useTranslation();
  const until = useSessionWarning();
  const [, setNow] = useState(0);
  const [busy, setBusy] = useState(false);
  useEffect(() => startKeepAlive(), []);
  useEffect(() => {
    if (until === undefined) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return (
    <Dialog
      opened={until !== undefined}
      onClose={() => void staySignedIn()}
      title={t('session.warningTitle')}
      data-testid="session-warning"
    >
      <Text mb="md" role="status">
        {t('session.warning', { time: until === undefined ? '' : remaining(until) })}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => void signOut()}>
          {t('session.signOut')}
        </Button>
        <Button
          loading={busy}
          data-testid="stay-signed-in"
          onClick={async () => {
            setBusy(true);
            await staySignedIn();
            setBusy(false);
          }}
        >
          {t('session.stay')}
        </Button>
      </Group>
    </Dialog>
  );
}
