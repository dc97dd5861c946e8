import { Alert, Button, Code, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '../../ui/useApiForm.ts';
import { accessTokenApi } from './api.ts';

/**
 * Mint an access token: a name and an optional expiry day. The token comes back once (only its hash
 * is stored), so it is shown here with a copy button until the form is used again.
 */
export function NewTokenForm({ userId, onCreated }: { userId: string; onCreated: () => void }) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<{ name: string; token: string }>();
  return (
    <Stack>
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          setCreated(undefined);
          const body: { name: string; expiresAt?: string } = { name: name.trim() };
          // The end of the chosen day, in the browser's time zone.
          if (expires) body.expiresAt = new Date(`${expires}T23:59:59`).toISOString();
          const token = await form.submit(() => accessTokenApi.create(userId, body));
          if (token) {
            setCreated({ name: token.name, token: token.token });
            setName('');
            setExpires('');
            onCreated();
          }
        }}
      >
        <Stack gap="xs">
          {form.formError && (
            <Alert color="red" role="alert">
              {form.formError}
            </Alert>
          )}
          <Group align="flex-start">
            <TextInput
              label={t('admin.tokens.name')}
              description={t('admin.tokens.nameHelp')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={form.error('/name')}
              w={300}
            />
            <TextInput
              label={t('admin.tokens.expiresOn')}
              description={t('admin.tokens.expiresHelp')}
              type="date"
              value={expires}
              onChange={(e) => setExpires(e.currentTarget.value)}
              error={form.error('/expiresAt')}
              w={200}
            />
          </Group>
          <Group>
            <Button type="submit" loading={form.busy} disabled={!userId}>
              {t('admin.tokens.create')}
            </Button>
          </Group>
        </Stack>
      </form>
      {created && (
        <Alert
          variant="outline"
          color="teal.9"
          title={t('admin.tokens.createdTitle', { name: created.name })}
          data-testid="new-token"
        >
          <Stack gap="xs">
            <Text size="sm">{t('admin.tokens.shownOnce')}</Text>
            <Group wrap="nowrap">
              <Code data-testid="new-token-value" style={{ wordBreak: 'break-all' }}>
                {created.token}
              </Code>
              <CopyButton value={created.token}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy}>
                    {copied ? t('admin.tokens.copied') : t('admin.tokens.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="sm">{t('admin.tokens.usage')}</Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
