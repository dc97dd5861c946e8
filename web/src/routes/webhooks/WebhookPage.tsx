import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { webhookApi, webhookKeys, webhookQueries } from '../../features/webhooks/api/index.ts';
import { Deliveries, when } from '../../features/webhooks/Deliveries.tsx';
import { SecretModal } from '../../features/webhooks/SecretModal.tsx';
import { type Webhook, WebhookForm } from '../../features/webhooks/WebhookForm.tsx';
import { paths } from '../../paths.ts';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {children}
      </Text>
    </div>
  );
}

/** One webhook: its settings and actions (edit, enable, test, rotate, delete) and its deliveries. */
export default function WebhookPage() {
  const { id } = useParams() as { id: string };
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, edit] = useDisclosure();
  const [secret, setSecret] = useState<string>();
  const action = useApiForm();
  const webhook = useQuery({
    ...webhookQueries.detail(id),
    staleTime: 0,
    refetchInterval: 10_000, // last success, or disabled by the service after failures
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: webhookKeys.detail(id) }),
      queryClient.invalidateQueries({ queryKey: webhookKeys.lists() }),
    ]);
  const act = async <T,>(call: () => Promise<T>, done?: string) => {
    const result = await action.submit(call, done);
    if (result !== undefined) await refresh();
    return result;
  };

  return (
    <Stack>
      <Anchor component={Link} to={paths.webhooks} size="sm">
        ← {t('webhooks.back')}
      </Anchor>
      <QueryState query={webhook}>
        {(w: Webhook) => (
          <>
            <Group justify="space-between">
              <Group>
                <Title order={2}>{w.name}</Title>
                <Badge color={w.enabled ? 'teal.9' : 'gray.7'} size="lg" data-testid="webhook-state">
                  {w.enabled
                    ? t('webhooks.enabled')
                    : w.disabledReason && w.disabledReason !== 'manual'
                      ? t('webhooks.disabledBecause', { reason: w.disabledReason })
                      : t('webhooks.disabled')}
                </Badge>
              </Group>
              <Group gap="xs">
                {w.enabled && (
                  <Button
                    variant="light"
                    onClick={() =>
                      act(() => webhookApi.test(id), t('webhooks.testSent')).then(() =>
                        queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
                      )
                    }
                  >
                    {t('webhooks.sendTest')}
                  </Button>
                )}
                <Button variant="default" onClick={edit.open}>
                  {t('common.edit')}
                </Button>
                <Button
                  variant="default"
                  onClick={() => act(() => (w.enabled ? webhookApi.disable(id) : webhookApi.enable(id)))}
                >
                  {w.enabled ? t('webhooks.disable') : t('webhooks.enable')}
                </Button>
                <ConfirmButton
                  variant="default"
                  label={t('webhooks.rotate')}
                  question={t('webhooks.rotateConfirm')}
                  onConfirm={async () => {
                    const rotated = await act(() => webhookApi.rotateSecret(id));
                    if (rotated) setSecret(rotated.secret);
                  }}
                />
                <ConfirmButton
                  color="red"
                  variant="light"
                  label={t('webhooks.delete')}
                  question={t('webhooks.deleteConfirm')}
                  onConfirm={async () => {
                    if (await act(() => webhookApi.remove(id), t('webhooks.deleted')))
                      navigate(paths.webhooks);
                  }}
                />
              </Group>
            </Group>
            {action.formError && (
              <Alert color="red" role="alert" title={t('common.refused')}>
                <span data-testid="error-reason">{action.formError}</span>
              </Alert>
            )}
            <Card withBorder>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <Field label={t('webhooks.url')}>
                  {w.httpMethod.toUpperCase()} {w.url}
                </Field>
                <Field label={t('webhooks.events')}>{w.events.join(', ')}</Field>
                <Field label={t('webhooks.authenticationType')}>
                  {t(`webhooks.auth.${w.authenticationType}`)}
                  {w.credentials?.username && ` · ${w.credentials.username}`}
                  {w.credentials?.name && ` · ${w.credentials.name}`}
                </Field>
                <Field label={t('webhooks.lastSuccess')}>
                  {w.lastSuccessAt ? when(w.lastSuccessAt) : t('webhooks.never')}
                </Field>
                {w.previousSecretExpiresAt && (
                  <Field label={t('webhooks.secret')}>
                    {t('webhooks.previousUntil', { date: when(w.previousSecretExpiresAt) })}
                  </Field>
                )}
              </SimpleGrid>
            </Card>
            <Deliveries webhookId={id} enabled={w.enabled} />
            <Modal opened={editing} onClose={edit.close} title={t('webhooks.edit')} size="lg">
              <WebhookForm
                webhook={w}
                onDone={async () => {
                  edit.close();
                  await refresh();
                }}
              />
            </Modal>
          </>
        )}
      </QueryState>
      <SecretModal secret={secret} onClose={() => setSecret(undefined)} />
    </Stack>
  );
}
