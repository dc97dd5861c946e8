import { Badge, Button, Code, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import type { components } from '../../api/schema.d.ts';
import { number } from '../../ui/format.ts';
import { Pager } from '../../ui/Pager.tsx';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, QueryState } from '../../ui/states.tsx';
import { webhookApi, webhookKeys, webhookQueries } from './api/index.ts';

type Delivery = components['schemas']['WebhookDelivery'];
const STATES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
const COLORS: Record<Delivery['status'], string> = {
  pending: 'blue.8',
  succeeded: 'teal.9',
  failed: 'red.8',
  cancelled: 'gray.7',
};
/** Deliveries are read again this often while one of the page is pending (retries, a replay). */
const POLL_MS = 1500;
const IDLE_POLL_MS = 10_000;

/** Date and time to the second (attempts and retries are seconds apart), the date spelt out by the locale: a short date reads 11/25/26 in English, ambiguous elsewhere. */
export const when = (value: string | null) =>
  value
    ? new Intl.DateTimeFormat(i18next.language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
        new Date(value),
      )
    : '—';

/** The attempts of one delivery: status code, duration, error and the response's first characters. */
function Attempts({
  webhookId,
  delivery,
  onClose,
}: {
  webhookId: string;
  delivery?: Delivery;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const attempts = useQuery({ ...webhookQueries.attempts(webhookId, delivery?.id), enabled: !!delivery });
  return (
    <Modal
      opened={!!delivery}
      onClose={onClose}
      size="xl"
      title={t('webhooks.showAttempts', {
        event: delivery?.eventName ?? '',
        code: delivery?.eventCode ?? '',
      })}
    >
      <QueryState query={attempts} isEmpty={(d) => d.length === 0}>
        {(data) => (
          <Table data-testid="delivery-attempts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('webhooks.attempt')}</Table.Th>
                <Table.Th>{t('webhooks.startedAt')}</Table.Th>
                <Table.Th>{t('webhooks.statusCode')}</Table.Th>
                <Table.Th>{t('webhooks.duration')}</Table.Th>
                <Table.Th>{t('webhooks.error')}</Table.Th>
                <Table.Th>{t('webhooks.response')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>{a.attempt}</Table.Td>
                  <Table.Td>{when(a.startedAt)}</Table.Td>
                  <Table.Td>{a.statusCode ?? '—'}</Table.Td>
                  <Table.Td>{number(a.durationMs)} ms</Table.Td>
                  <Table.Td>{a.error ?? '—'}</Table.Td>
                  <Table.Td>{a.responseExcerpt ? <Code>{a.responseExcerpt}</Code> : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Modal>
  );
}

/** A webhook's deliveries, newest first, with a status filter; each can be replayed. */
export function Deliveries({ webhookId, enabled }: { webhookId: string; enabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<Delivery>();
  const [refusal, setRefusal] = useState<unknown>();
  const deliveries = useQuery({
    ...webhookQueries.deliveries(webhookId, {
      page,
      limit: 25,
      status: (status ?? undefined) as Delivery['status'] | undefined,
    }),
    placeholderData: (previous) => previous,
    // New events reach the webhook at any time: read on every visit, often while one is pending.
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.data.some((d) => d.status === 'pending') ? POLL_MS : IDLE_POLL_MS,
  });
  const replay = async (delivery: Delivery) => {
    setRefusal(undefined);
    try {
      await webhookApi.replay(webhookId, delivery.id);
      notifications.show({ color: 'teal', message: t('webhooks.replayed') });
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) });
    } catch (error) {
      if (error instanceof ApiError) setRefusal(error);
      else throw error;
    }
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={3}>{t('webhooks.deliveries')}</Title>
        <Select
          label={t('webhooks.deliveryStatus')}
          data={STATES.map((s) => ({ value: s, label: t(`webhooks.deliveryStates.${s}`) }))}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          placeholder={t('common.any')}
          clearable
          w={200}
        />
      </Group>
      {refusal !== undefined && <ErrorState error={refusal} />}
      <QueryState query={deliveries} isEmpty={(d) => d.data.length === 0}>
        {(data) => (
          <>
            <Table striped data-testid="deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('webhooks.event')}</Table.Th>
                  <Table.Th>{t('common.status')}</Table.Th>
                  <Table.Th>{t('webhooks.attempts')}</Table.Th>
                  <Table.Th>{t('webhooks.lastStatus')}</Table.Th>
                  <Table.Th>{t('webhooks.nextAttempt')}</Table.Th>
                  <Table.Th>{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((d) => (
                  <Table.Tr key={d.id} data-event={d.eventName} data-status={d.status}>
                    <Table.Td>
                      <Text size="sm">
                        {d.eventName}{' '}
                        <Text span c="dimmed" size="sm">
                          #{d.eventCode}
                        </Text>
                      </Text>
                      <Text size="xs" c="dimmed">
                        {when(d.createdAt)}
                        {d.replayOf && ` · ${t('webhooks.replayOf')}`}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={COLORS[d.status]}>{t(`webhooks.deliveryStates.${d.status}`)}</Badge>
                    </Table.Td>
                    <Table.Td>{d.attempts}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{d.lastStatusCode ?? '—'}</Text>
                      {d.lastError && (
                        <Text size="xs" c="red.9" lineClamp={2}>
                          {d.lastError}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{d.status === 'pending' ? when(d.nextAttemptAt) : '—'}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setShown(d)}
                          disabled={d.attempts === 0}
                        >
                          {t('webhooks.attempts')}
                        </Button>
                        {enabled && (
                          <Button size="xs" variant="default" onClick={() => replay(d)}>
                            {t('webhooks.replay')}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager meta={data.meta} onPage={setPage} />
          </>
        )}
      </QueryState>
      <Attempts webhookId={webhookId} delivery={shown} onClose={() => setShown(undefined)} />
    </Stack>
  );
}
