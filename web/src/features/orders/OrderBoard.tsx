import { Anchor, Badge, Button, Card, Group, Menu, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiMutation } from '../../api/mutation.ts';
import { paths } from '../../paths.ts';
import { date } from '../../ui/format.ts';
import { Empty, ErrorState, Loading } from '../../ui/states.tsx';
import { orderApi, orderKeys, orderQueries } from './api/index.ts';
import { amount, orderName } from './format.ts';
import { type OrderStatus, statusColours, statusLabel, useOrderStatuses } from './statuses.tsx';
import { useCompanyNames } from './useCompanyNames.ts';

type Filters = Record<string, string>;
const PER_COLUMN = 20;

/**
 * Orders by status, one column per status of the organisation (its order and colours). An order
 * moves by drag and drop or, for the keyboard, by its "Move to" menu; both PATCH statusId, and a
 * refusal shows the API's reason.
 */
export function OrderBoard({ filters, canMove }: { filters: Filters; canMove: boolean }) {
  const { t } = useTranslation();
  const statuses = useOrderStatuses();
  const move = useApiMutation({
    mutationFn: ({ id, statusId }: { id: string; statusId: string }) => orderApi.update(id, { statusId }),
    success: (order) => t('orders.moved', { name: orderName(order) }),
    invalidates: [orderKeys.all],
  });
  const error = move.error ?? undefined;
  if (statuses.isPending) return <Loading />;
  if (statuses.error) return <ErrorState error={statuses.error} onRetry={() => void statuses.refetch()} />;
  if (!statuses.data?.length) return <Empty>{t('orders.noStatuses')}</Empty>;
  return (
    <Stack>
      {error ? <ErrorState error={error} /> : null}
      <ScrollArea type="auto" offsetScrollbars>
        <Group align="flex-start" wrap="nowrap" gap="sm" data-testid="order-board">
          {statuses.data.map((status) => (
            <Column
              key={status.id}
              status={status}
              statuses={statuses.data}
              filters={filters}
              canMove={canMove}
              onMove={(id, statusId) => move.mutate({ id, statusId })}
            />
          ))}
        </Group>
      </ScrollArea>
    </Stack>
  );
}

function Column({
  status,
  statuses,
  filters,
  canMove,
  onMove,
}: {
  status: OrderStatus;
  statuses: OrderStatus[];
  filters: Filters;
  canMove: boolean;
  onMove: (id: string, statusId: string) => void;
}) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const query = useQuery({
    ...orderQueries.list({ ...filters, statusId: status.id, page: 1, limit: PER_COLUMN }),
  });
  // Each card names its company (issue 26: cards without the company).
  const companyName = useCompanyNames(query.data?.data.map((o) => o.companyId) ?? []);
  const colours = statusColours(status);
  return (
    <Card
      withBorder
      w={260}
      p="xs"
      miw={260}
      data-testid={`board-column-${status.internalLabel}`}
      style={over ? { outline: `3px solid ${colours.background}` } : undefined}
      onDragOver={(e) => {
        if (!canMove) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        const id = e.dataTransfer.getData('text/order-id');
        const from = e.dataTransfer.getData('text/status-id');
        if (id && from !== status.id) onMove(id, status.id);
      }}
    >
      <Group
        justify="space-between"
        mb="xs"
        p={4}
        style={{ background: colours.background, borderRadius: 4 }}
      >
        <Title order={3} size="h6" style={{ color: colours.color }}>
          {statusLabel(status.internalLabel)}
        </Title>
        {query.data && (
          <Badge variant="white" color="dark">
            {query.data.meta.total}
          </Badge>
        )}
      </Group>
      {query.isPending ? (
        <Loading />
      ) : query.error ? (
        <ErrorState error={query.error} />
      ) : query.data.data.length === 0 ? (
        <Empty />
      ) : (
        <Stack gap="xs">
          {query.data.data.map((o) => (
            <Card
              key={o.id}
              withBorder
              p="xs"
              draggable={canMove}
              onDragStart={(e) => {
                e.dataTransfer.setData('text/order-id', o.id);
                e.dataTransfer.setData('text/status-id', status.id);
              }}
              style={canMove ? { cursor: 'grab' } : undefined}
            >
              <Group justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={paths.order(o.id)} size="sm" fw={600}>
                  {orderName(o)}
                </Anchor>
                {canMove && (
                  <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
                    <Menu.Target>
                      <Button
                        size="compact-xs"
                        variant="default"
                        aria-label={`${t('orders.moveTo')} · ${orderName(o)}`}
                      >
                        {t('orders.moveTo')}
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {statuses
                        .filter((s) => s.id !== status.id)
                        .map((s) => (
                          <Menu.Item key={s.id} onClick={() => onMove(o.id, s.id)}>
                            {statusLabel(s.internalLabel)}
                          </Menu.Item>
                        ))}
                    </Menu.Dropdown>
                  </Menu>
                )}
              </Group>
              {o.companyId && (
                <Text size="xs" fw={500} data-testid="board-card-company">
                  {companyName(o.companyId)}
                </Text>
              )}
              <Text size="xs">
                {date(o.expectedDeliveryDate)} · {amount(o.billedAmount, o.currency?.code)}
              </Text>
            </Card>
          ))}
          {query.data.meta.hasNextPage && (
            <Text size="xs" c="dimmed">
              {t('orders.more', { count: query.data.meta.total - query.data.data.length })}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}
