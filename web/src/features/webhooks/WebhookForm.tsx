import {
  Alert,
  Anchor,
  Button,
  Code,
  Collapse,
  Group,
  PasswordInput,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { Select } from '../../ui/Select.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { webhookApi } from './api/index.ts';
import { EVENT_ENTITIES, parsePatterns } from './events.ts';

export type Webhook = components['schemas']['Webhook'];
type AuthType = Webhook['authenticationType'];
const METHODS = ['post', 'put', 'patch', 'get', 'delete'] as const;

/** The pattern syntax and the entity names, under the patterns field. */
function PatternsHelp() {
  const { t } = useTranslation();
  const [opened, { toggle }] = useDisclosure();
  return (
    <Stack gap={4}>
      <Anchor component="button" type="button" size="sm" onClick={toggle} aria-expanded={opened}>
        {t('webhooks.patternsHelp')}
      </Anchor>
      <Collapse expanded={opened}>
        <Stack gap={4} data-testid="patterns-help">
          <Text size="sm">{t('webhooks.patternsIntro')}</Text>
          <Text size="sm">{t('webhooks.patternsKnown')}</Text>
          <Text size="sm">
            {EVENT_ENTITIES.map(({ plural }, i) => (
              <span key={plural}>
                {i > 0 && ', '}
                <Code>{plural}</Code>
              </span>
            ))}
          </Text>
        </Stack>
      </Collapse>
    </Stack>
  );
}

/**
 * Create (no webhook: answers the signing secret, shown once) or edit a webhook. Credentials are
 * replaced as a whole by the API, so on edit they are sent only when typed (or the type changed).
 */
export function WebhookForm({
  webhook,
  onDone,
}: {
  webhook?: Webhook;
  onDone: (saved: Webhook & { secret?: string }) => void;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [values, setValues] = useState({
    name: webhook?.name ?? '',
    url: webhook?.url ?? '',
    events: (webhook?.events ?? ['event.**']).join('\n'),
    httpMethod: webhook?.httpMethod ?? 'post',
    enabled: webhook?.enabled ?? true,
  });
  const [authType, setAuthType] = useState<AuthType>(webhook?.authenticationType ?? 'none');
  const [credentials, setCredentials] = useState({
    username: webhook?.credentials?.username ?? '',
    password: '',
    name: webhook?.credentials?.name ?? '',
    token: '',
  });
  const set = (patch: Partial<typeof values>) => setValues({ ...values, ...patch });
  const credential = (key: keyof typeof credentials, label: string, secret = false) => {
    const Input = secret ? PasswordInput : TextInput;
    return (
      <Input
        label={label}
        value={credentials[key]}
        onChange={(e) => setCredentials({ ...credentials, [key]: e.currentTarget.value })}
        error={
          form.error(`/credentials/${key}`) ??
          (key === 'username' || key === 'name' ? form.error('/credentials') : undefined)
        }
        description={
          secret && webhook?.authenticationType === authType ? t('webhooks.credentialsKept') : undefined
        }
        autoComplete="off"
      />
    );
  };
  // Pointers on /events/<n> name one pattern: shown under the field with its position.
  const patternError =
    form.error('/events') ??
    Object.entries(form.fields)
      .filter(([pointer]) => pointer.startsWith('/events/'))
      .map(([pointer, message]) => `#${Number(pointer.split('/')[2]) + 1}: ${message}`)
      .join(' · ');

  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const typed =
          authType === 'basic' ? credentials.password : authType === 'header' ? credentials.token : '';
        // A changed user or header name needs its secret again (the API replaces both): sending
        // them lets the API point at the missing one rather than ignoring the change.
        const renamed =
          (authType === 'basic' && credentials.username !== (webhook?.credentials?.username ?? '')) ||
          (authType === 'header' && credentials.name !== (webhook?.credentials?.name ?? ''));
        const sendCredentials =
          !webhook || webhook.authenticationType !== authType || typed !== '' || renamed;
        const body = {
          name: values.name,
          url: values.url.trim(),
          events: parsePatterns(values.events),
          httpMethod: values.httpMethod,
          authenticationType: authType,
          ...(webhook ? {} : { enabled: values.enabled }),
          ...(sendCredentials
            ? {
                credentials:
                  authType === 'basic'
                    ? { username: credentials.username, password: credentials.password }
                    : authType === 'header'
                      ? { name: credentials.name, token: credentials.token }
                      : null,
              }
            : {}),
        };
        const saved = await form.submit(
          () => (webhook ? webhookApi.update(webhook.id, body) : webhookApi.create(body)),
          t('common.saved'),
        );
        if (saved) onDone(saved as Webhook & { secret?: string });
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert" title={t('common.refused')}>
            <span data-testid="error-reason">{form.formError}</span>
          </Alert>
        )}
        <TextInput
          label={t('webhooks.name')}
          value={values.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={form.error('/name')}
          required
        />
        <TextInput
          label={t('webhooks.url')}
          description={t('webhooks.urlHint')}
          value={values.url}
          onChange={(e) => set({ url: e.currentTarget.value })}
          error={form.error('/url')}
          type="url"
          required
        />
        <Textarea
          label={t('webhooks.events')}
          description={t('webhooks.eventsHint')}
          value={values.events}
          onChange={(e) => set({ events: e.currentTarget.value })}
          error={patternError || undefined}
          autosize
          minRows={2}
          required
        />
        <PatternsHelp />
        <Select
          label={t('webhooks.method')}
          data={METHODS.map((m) => ({ value: m, label: m.toUpperCase() }))}
          value={values.httpMethod}
          onChange={(value) => value && set({ httpMethod: value as Webhook['httpMethod'] })}
          allowDeselect={false}
          error={form.error('/httpMethod')}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="webhook-auth-label">
            {t('webhooks.authenticationType')}
          </Text>
          <SegmentedControl
            aria-labelledby="webhook-auth-label"
            data={(['none', 'basic', 'header'] as const).map((a) => ({
              value: a,
              label: t(`webhooks.auth.${a}`),
            }))}
            value={authType}
            onChange={(value) => setAuthType(value as AuthType)}
          />
        </Stack>
        {authType === 'basic' && (
          <Group grow align="flex-start">
            {credential('username', t('webhooks.username'))}
            {credential('password', t('webhooks.password'), true)}
          </Group>
        )}
        {authType === 'header' && (
          <Group grow align="flex-start">
            {credential('name', t('webhooks.headerName'))}
            {credential('token', t('webhooks.headerToken'), true)}
          </Group>
        )}
        {!webhook && (
          <Switch
            label={t('webhooks.enabled')}
            checked={values.enabled}
            onChange={(e) => set({ enabled: e.currentTarget.checked })}
          />
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {webhook ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
