import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The signing secret, shown once (after creation or rotation): the API never shows it again. */
export function SecretModal({ secret, onClose }: { secret?: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={!!secret} onClose={onClose} title={t('webhooks.secret')} size="lg">
      <Stack>
        <Alert color="yellow">
          <Text size="sm">{t('webhooks.secretOnce')}</Text>
        </Alert>
        <Code block data-testid="webhook-secret">
          {secret}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? t('quotes.copied') : t('quotes.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>{t('webhooks.secretDone')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
