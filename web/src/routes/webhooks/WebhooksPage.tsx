import { Anchor, Badge, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { webhookKeys, webhookQueries } from '../../features/webhooks/api/index.ts';
import { SecretModal } from '../../features/webhooks/SecretModal.tsx';
import { WebhookForm } from '../../features/webhooks/WebhookForm.tsx';
import { paths } from '../../paths.ts';
import { Pager } from '../../ui/Pager.tsx';
import { Select } from '../../ui/Select.tsx';
import { QueryState } from '../../ui/states.tsx';

/** The organisation's webhooks (filter enabled in the URL); a new one shows its secret once. */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1);
  const enabled = params.get('enabled');
  const [opened, { open, close }] = useDisclosure();
  const [created, setCreated] = useState<{ id: string; secret?: string }>();
  const list = useQuery({
    ...webhookQueries.list({ page, limit: 25, enabled: enabled === null ? undefined : enabled === 'true' }),
    placeholderData: (previous) => previous,
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('webhooks.title')}</Title>
        <Group>
          <Button variant="default" component={Link} to={paths.events}>
            {t('webhooks.eventsNav')}
          </Button>
          <Button onClick={open}>{t('webhooks.new')}</Button>
        </Group>
      </Group>
      <Select
        label={t('common.status')}
        data={[
          { value: 'true', label: t('webhooks.enabled') },
          { value: 'false', label: t('webhooks.disabled') },
        ]}
        value={enabled}
        onChange={(value) => setParams(value ? { enabled: value } : {})}
        placeholder={t('common.any')}
        clearable
        w={200}
      />
      <QueryState query={list} isEmpty={(d) => d.data.length === 0}>
        {(data) => (
          <>
            <Table striped highlightOnHover data-testid="webhooks-list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('webhooks.name')}</Table.Th>
                  <Table.Th>{t('webhooks.url')}</Table.Th>
                  <Table.Th>{t('webhooks.events')}</Table.Th>
                  <Table.Th>{t('common.status')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((w) => (
                  <Table.Tr key={w.id}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.webhook(w.id)}>
                        {w.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ wordBreak: 'break-all' }}>
                        {w.httpMethod.toUpperCase()} {w.url}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{w.events.join(', ')}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={w.enabled ? 'teal.9' : 'gray.7'}>
                        {w.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager
              meta={data.meta}
              onPage={(p) => setParams({ ...(enabled ? { enabled } : {}), page: String(p) })}
            />
          </>
        )}
      </QueryState>
      <Modal opened={opened} onClose={close} title={t('webhooks.new')} size="lg">
        <WebhookForm
          onDone={async (webhook) => {
            close();
            await queryClient.invalidateQueries({ queryKey: webhookKeys.lists() });
            setCreated({ id: webhook.id, secret: webhook.secret });
          }}
        />
      </Modal>
      <SecretModal
        secret={created?.secret}
        onClose={() => {
          const id = created?.id;
          setCreated(undefined);
          if (id) navigate(paths.webhook(id));
        }}
      />
    </Stack>
  );
}
