import {
  Anchor,
  Button,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isStaff, useAuth } from '../../api/auth.ts';
import { useProjectOptions } from '../../api/queries.ts';
import { orderQueries } from '../../features/orders/api/index.ts';
import { DateField } from '../../features/orders/DateField.tsx';
import { ordersQuery } from '../../features/orders/filters.ts';
import { amount, orderName } from '../../features/orders/format.ts';
import { StatusBadge, statusLabel, useOrderStatuses } from '../../features/orders/statuses.tsx';
import { useCompanyNames } from '../../features/orders/useCompanyNames.ts';
import { OrderCards } from '../../features/portal/lists.tsx';
import { paths } from '../../paths.ts';
import { CompanyPicker } from '../../ui/CompanyPicker.tsx';
import { date } from '../../ui/format.ts';
import { Pager } from '../../ui/Pager.tsx';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { Select } from '../../ui/Select.tsx';
import { Loading, QueryState } from '../../ui/states.tsx';

// The board and the new-order form are not needed for the list's first page: their code (and the
// number input) loads when they are first shown, so the list's chunk stays small.
const OrderBoard = lazy(() =>
  import('../../features/orders/OrderBoard.tsx').then((m) => ({ default: m.OrderBoard })),
);
const OrderForm = lazy(() =>
  import('../../features/orders/OrderForm.tsx').then((m) => ({ default: m.OrderForm })),
);

/** Orders: the spec's filters, all in the URL; a table (server pages) or a board by status. */
export default function OrdersPage() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const staff = isStaff(me?.role);
  // A buyer, and anyone on a phone, reads cards: dates, delivery and tracking without sideways scroll.
  const phone = useMediaQuery('(max-width: 48em)');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [creating, create] = useDisclosure();
  const page = Number(params.get('page') ?? 1);
  const view = params.get('view') === 'board' ? 'board' : 'list';
  const statuses = useOrderStatuses();
  const projects = useProjectOptions(params.get('companyId'));
  // Typed text reaches the URL (and the API) once the user pauses.
  const [text, setText] = useState({
    search: params.get('search') ?? '',
    externalId: params.get('externalId') ?? '',
  });
  const [debounced] = useDebouncedValue(text, 300);
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  const typed = { search: debounced.search || null, externalId: debounced.externalId || null };
  const stale = typed.search !== params.get('search') || typed.externalId !== params.get('externalId');
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the debounced text changes
  useEffect(() => {
    if (stale) set(typed);
  }, [debounced]);
  const filters = ordersQuery(params);
  const query = useQuery({
    ...orderQueries.list({ page, limit: 25, ...filters }),
    placeholderData: (previous) => previous,
    enabled: view === 'list',
  });
  const companyName = useCompanyNames(query.data?.data.map((o) => o.companyId) ?? []);
  const statusOf = (id: string | null) => statuses.data?.find((s) => s.id === id);
  const dateFilter = (key: string, label: string) => (
    <DateField label={label} value={params.get(key)} onChange={(value) => set({ [key]: value })} w={150} />
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('orders.title')}</Title>
        <Group>
          <SegmentedControl
            aria-label={t('orders.view')}
            value={view}
            onChange={(value) => set({ view: value === 'board' ? 'board' : null })}
            data={[
              { value: 'list', label: t('orders.list') },
              { value: 'board', label: t('orders.board') },
            ]}
          />
          {staff && <Button onClick={create.open}>{t('orders.new')}</Button>}
        </Group>
      </Group>
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t('orders.search')}
          value={text.search}
          onChange={(e) => setText({ ...text, search: e.currentTarget.value })}
          w={180}
        />
        <TextInput
          label={t('orders.externalId')}
          value={text.externalId}
          onChange={(e) => setText({ ...text, externalId: e.currentTarget.value })}
          w={150}
        />
        {staff && (
          <CompanyPicker
            label={t('common.company')}
            value={params.get('companyId')}
            clearable
            onChange={(id) => set({ companyId: id, projectId: null })}
          />
        )}
        <Select
          label={t('common.project')}
          data={projects}
          value={params.get('projectId')}
          onChange={(id) => set({ projectId: id })}
          clearable
          searchable
          w={180}
        />
        {view === 'list' && (
          <MultiSelect
            label={t('orders.statuses')}
            data={(statuses.data ?? []).map((s) => ({ value: s.id, label: statusLabel(s.internalLabel) }))}
            value={params.get('statusId')?.split(',') ?? []}
            onChange={(ids) => set({ statusId: ids.join(',') || null })}
            clearable
            w={240}
          />
        )}
        {dateFilter('orderDateStart', t('orders.orderedFrom'))}
        {dateFilter('orderDateEnd', t('orders.orderedTo'))}
        {dateFilter('expectedDeliveryDateStart', t('orders.deliveryFrom'))}
        {dateFilter('expectedDeliveryDateEnd', t('orders.deliveryTo'))}
      </Group>
      {view === 'board' ? (
        <Suspense fallback={<Loading />}>
          <OrderBoard filters={filters} canMove={staff} />
        </Suspense>
      ) : (
        <QueryState query={query} isEmpty={(d) => d.data.length === 0}>
          {(data) => (
            <>
              {phone || !staff ? (
                <OrderCards orders={data.data} />
              ) : (
                <ScrollingTable minWidth={760} label={t('orders.title')}>
                  <Table striped highlightOnHover data-testid="orders-table">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('orders.order')}</Table.Th>
                        <Table.Th>{t('common.company')}</Table.Th>
                        <Table.Th>{t('common.status')}</Table.Th>
                        <Table.Th>{t('orders.orderDate')}</Table.Th>
                        <Table.Th>{t('orders.expectedDelivery')}</Table.Th>
                        <Table.Th ta="right">{t('orders.billedAmount')}</Table.Th>
                        <Table.Th ta="right">{t('orders.itemsTotal')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.data.map((o) => (
                        <Table.Tr key={o.id}>
                          <Table.Td>
                            <Anchor component={Link} to={paths.order(o.id)}>
                              {orderName(o)}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>{companyName(o.companyId)}</Table.Td>
                          <Table.Td>
                            <StatusBadge status={statusOf(o.statusId)} />
                          </Table.Td>
                          <Table.Td>{date(o.orderDate)}</Table.Td>
                          <Table.Td>{date(o.expectedDeliveryDate)}</Table.Td>
                          <Table.Td ta="right">{amount(o.billedAmount, o.currency?.code)}</Table.Td>
                          <Table.Td ta="right">{amount(o.itemsTotal, o.currency?.code)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollingTable>
              )}
              <Pager meta={data.meta} onPage={(p) => set({ page: String(p) })} />
              {data.meta.totalIsExact === false && (
                <Text size="sm" c="dimmed" data-testid="orders-total-bound">
                  {t('orders.totalBound', { total: data.meta.total })}
                </Text>
              )}
            </>
          )}
        </QueryState>
      )}
      <Modal opened={creating} onClose={create.close} title={t('orders.new')} size="lg">
        <Suspense fallback={<Loading />}>
          <OrderForm
            companyId={params.get('companyId') ?? undefined}
            onDone={(id) => {
              create.close();
              navigate(paths.order(id));
            }}
          />
        </Suspense>
      </Modal>
    </Stack>
  );
}
