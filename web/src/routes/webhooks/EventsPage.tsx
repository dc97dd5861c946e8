import { Anchor, Button, Code, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { components } from '../../api/schema.d.ts';
import { webhookQueries } from '../../features/webhooks/api/index.ts';
import { when } from '../../features/webhooks/Deliveries.tsx';
import { EVENT_ENTITIES, resourcePath } from '../../features/webhooks/events.ts';
import { Pager } from '../../ui/Pager.tsx';
import { Select } from '../../ui/Select.tsx';
import { QueryState } from '../../ui/states.tsx';

type Event = components['schemas']['Event'];
const TYPES = ['CREATE', 'UPDATE', 'DELETE'] as const;
const ENTITY_TYPES = EVENT_ENTITIES.map((e) => e.entity).sort();

/** The event log (filters in the URL); each event opens its resource where the app has a page. */
export default function EventsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1);
  const entity = params.get('entity');
  const type = params.get('type') as (typeof TYPES)[number] | null;
  const [eventName, setEventName] = useState(params.get('eventName') ?? '');
  const [entityId, setEntityId] = useState(params.get('entityId') ?? '');
  const [name] = useDebouncedValue(eventName.trim(), 300);
  const [id] = useDebouncedValue(entityId.trim(), 300);
  const [shown, setShown] = useState<Event>();
  const validId = /^[0-9a-f-]{36}$/i.test(id);
  const events = useQuery({
    ...webhookQueries.events({
      page,
      limit: 25,
      entity: entity ?? undefined,
      type: type ?? undefined,
      eventName: name || undefined,
      entityId: validId ? id : undefined,
    }),
    placeholderData: (previous) => previous,
  });
  const setFilter = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next, { replace: true });
  };

  return (
    <Stack>
      <Title order={2}>{t('webhooks.log.title')}</Title>
      <Group align="flex-end">
        <Select
          label={t('webhooks.log.entity')}
          data={ENTITY_TYPES}
          value={entity}
          onChange={(value) => setFilter('entity', value)}
          placeholder={t('common.any')}
          searchable
          clearable
          w={200}
        />
        <Select
          label={t('webhooks.log.type')}
          data={TYPES.map((ty) => ({ value: ty, label: t(`webhooks.log.types.${ty}`) }))}
          value={type}
          onChange={(value) => setFilter('type', value)}
          placeholder={t('common.any')}
          clearable
          w={160}
        />
        <TextInput
          label={t('webhooks.log.eventName')}
          placeholder="event.orders.created"
          value={eventName}
          onChange={(e) => {
            setEventName(e.currentTarget.value);
            setFilter('eventName', e.currentTarget.value.trim());
          }}
          w={240}
        />
        <TextInput
          label={t('webhooks.log.entityId')}
          value={entityId}
          onChange={(e) => {
            setEntityId(e.currentTarget.value);
            setFilter('entityId', e.currentTarget.value.trim());
          }}
          w={320}
        />
      </Group>
      <QueryState query={events} isEmpty={(d) => d.data.length === 0}>
        {(data) => (
          <>
            <Table striped highlightOnHover data-testid="events-list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('webhooks.log.code')}</Table.Th>
                  <Table.Th>{t('webhooks.log.at')}</Table.Th>
                  <Table.Th>{t('webhooks.log.eventName')}</Table.Th>
                  <Table.Th>{t('webhooks.log.entity')}</Table.Th>
                  <Table.Th>{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((item) => {
                  const to = resourcePath(item.event);
                  return (
                    <Table.Tr key={item.event.id} data-event={item.eventName}>
                      <Table.Td>{item.event.code}</Table.Td>
                      <Table.Td>{when(item.event.createdAt)}</Table.Td>
                      <Table.Td>{item.eventName}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{item.event.entity}</Text>
                        <Text size="xs" c="dimmed">
                          {item.event.entityId}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button size="xs" variant="default" onClick={() => setShown(item)}>
                            {t('webhooks.log.payload')}
                          </Button>
                          {to ? (
                            <Anchor component={Link} to={to} size="sm">
                              {t('webhooks.log.open')}
                            </Anchor>
                          ) : (
                            <Text size="xs" c="dimmed">
                              {t('webhooks.log.noScreen')}
                            </Text>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
            <Pager
              meta={data.meta}
              onPage={(p) => {
                const next = new URLSearchParams(params);
                next.set('page', String(p));
                setParams(next);
              }}
            />
          </>
        )}
      </QueryState>
      <Modal
        opened={!!shown}
        onClose={() => setShown(undefined)}
        size="xl"
        title={t('webhooks.log.details', { code: shown?.event.code ?? '' })}
      >
        <Code block>{JSON.stringify(shown, null, 2)}</Code>
      </Modal>
    </Stack>
  );
}
