import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isStaff, useAuth } from '../../api/auth.ts';
import { useApiMutation } from '../../api/mutation.ts';
import type { components } from '../../api/schema.d.ts';
import { type OrderUpdate, orderApi, orderKeys, orderQueries } from '../../features/orders/api/index.ts';
import { DateField } from '../../features/orders/DateField.tsx';
import { EntityComments } from '../../features/orders/EntityComments.tsx';
import { EntityFiles } from '../../features/orders/EntityFiles.tsx';
import { amount, orderName } from '../../features/orders/format.ts';
import { OrderItems } from '../../features/orders/OrderItems.tsx';
import {
  StatusBadge,
  statusColours,
  statusLabel,
  useOrderStatuses,
} from '../../features/orders/statuses.tsx';
import { PortalOrder } from '../../features/portal/PortalOrder.tsx';
import { paths } from '../../paths.ts';
import { date } from '../../ui/format.ts';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';

type Order = components['schemas']['Order'];

/** One order: status (the organisation's, with colours), delivery and tracking, items, files, comments. */
export default function OrderPage() {
  const { id } = useParams() as { id: string };
  const { me } = useAuth();
  const staff = isStaff(me?.role);
  const order = useQuery(orderQueries.detail(id));
  return (
    <QueryState query={order}>
      {(o) =>
        me?.role === 'contact' ? (
          <PortalOrder order={o} />
        ) : (
          <Stack>
            <Header order={o} canWrite={staff} />
            <Details order={o} canWrite={staff} />
            <OrderItems order={o} canWrite={staff} />
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <EntityFiles owner="orders" id={o.id} canWrite={staff} />
              <EntityComments owner="orders" id={o.id} canWrite={staff} />
            </SimpleGrid>
          </Stack>
        )
      }
    </QueryState>
  );
}

function Header({ order, canWrite }: { order: Order; canWrite: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const statuses = useOrderStatuses();
  const [deleting, del] = useDisclosure();
  const status = statuses.data?.find((s) => s.id === order.statusId);
  const change = useApiMutation({
    mutationFn: (body: OrderUpdate) => orderApi.update(order.id, body),
    success: t('common.saved'),
    invalidates: [orderKeys.all],
  });
  const remove = useApiMutation({
    mutationFn: () => orderApi.remove(order.id),
    invalidates: [orderKeys.lists()],
    onSuccess: () => navigate(paths.orders),
  });
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2} data-testid="order-title">
            {t('orders.order')} {orderName(order)}
          </Title>
          <Group gap="xs">
            <StatusBadge status={status} testId="order-status" />
            <Text size="sm">
              {order.company ? (
                <Anchor component={Link} to={paths.company(order.company.id)}>
                  {order.company.name}
                </Anchor>
              ) : (
                t('orders.noCompany')
              )}
              {order.project ? ` · ${order.project.name}` : ''}
              {order.orderDate ? ` · ${t('orders.orderDate')} ${date(order.orderDate)}` : ''}
            </Text>
          </Group>
        </Stack>
        {canWrite && (
          <Button color="red" variant="outline" onClick={del.open}>
            {t('orders.delete')}
          </Button>
        )}
      </Group>
      {canWrite && (
        <Group>
          <Select
            searchable
            label={t('orders.moveTo')}
            data={(statuses.data ?? []).map((s) => ({ value: s.id, label: statusLabel(s.internalLabel) }))}
            value={order.statusId}
            onChange={(statusId) => statusId && statusId !== order.statusId && change.mutate({ statusId })}
            allowDeselect={false}
            disabled={change.isPending || !statuses.data?.length}
            placeholder={statuses.data?.length ? undefined : t('orders.noStatuses')}
            renderOption={({ option }) => {
              const s = statuses.data?.find((x) => x.id === option.value);
              const c = s ? statusColours(s) : undefined;
              return (
                <Group gap="xs" wrap="nowrap">
                  <span
                    aria-hidden
                    style={{
                      width: 12,
                      height: 12,
                      borderRadius: 6,
                      background: c?.background,
                      flex: 'none',
                    }}
                  />
                  {option.label}
                </Group>
              );
            }}
            w={220}
            data-testid="order-status-select"
          />
        </Group>
      )}
      {change.error ? <ErrorState error={change.error} /> : null}
      <Modal opened={deleting} onClose={del.close} title={t('orders.delete')}>
        <Stack>
          <Text>{t('orders.deleteConfirm', { name: orderName(order) })}</Text>
          {remove.error ? <ErrorState error={remove.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={del.close}>
              {t('common.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('orders.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : null);

/** Amount, ERP id, tracking and the three dates; staff edit them (only what changed is sent). */
function Details({ order, canWrite }: { order: Order; canWrite: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useApiForm();
  const initial = {
    billedAmount: order.billedAmount as number | string,
    externalId: order.externalId ?? '',
    trackingId: order.trackingId ?? '',
    poNumber: order.poNumber ?? '',
    orderDate: day(order.orderDate),
    expectedDeliveryDate: day(order.expectedDeliveryDate),
    actualDeliveryDate: day(order.actualDeliveryDate),
  };
  const [v, setV] = useState(initial);
  const changed = Object.fromEntries(
    Object.entries(v)
      .filter(([k, value]) => value !== initial[k as keyof typeof initial])
      .map(([k, value]) => [k, k === 'billedAmount' ? Number(value) : value === '' ? null : value]),
  );
  const dateField = (key: 'orderDate' | 'expectedDeliveryDate' | 'actualDeliveryDate', label: string) => (
    <DateField
      label={label}
      value={v[key]}
      onChange={(value) => setV({ ...v, [key]: value })}
      readOnly={!canWrite}
      error={form.error(`/${key}`)}
    />
  );
  return (
    <Card withBorder>
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const saved = await form.submit(() => orderApi.update(order.id, changed), t('common.saved'));
          if (saved) {
            await queryClient.invalidateQueries({ queryKey: orderKeys.all });
          }
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('orders.delivery')}
          </Title>
          {form.formError && (
            <Alert color="red" role="alert">
              {form.formError}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={t('orders.billedAmount')}
              description={t('orders.itemsTotalIs', {
                amount: amount(order.itemsTotal, order.currency?.code),
              })}
              value={v.billedAmount}
              onChange={(billedAmount) => setV({ ...v, billedAmount })}
              min={0}
              decimalScale={2}
              readOnly={!canWrite}
              error={form.error('/billedAmount')}
              rightSection={<Text size="xs">{order.currency?.code ?? ''}</Text>}
            />
            <TextInput
              label={t('orders.externalId')}
              value={v.externalId}
              onChange={(e) => setV({ ...v, externalId: e.currentTarget.value })}
              readOnly={!canWrite}
              error={form.error('/externalId')}
            />
            <TextInput
              label={t('orders.trackingId')}
              value={v.trackingId}
              onChange={(e) => setV({ ...v, trackingId: e.currentTarget.value })}
              readOnly={!canWrite}
              error={form.error('/trackingId')}
            />
            <TextInput
              label={t('orders.poNumber')}
              value={v.poNumber}
              onChange={(e) => setV({ ...v, poNumber: e.currentTarget.value })}
              readOnly={!canWrite}
              error={form.error('/poNumber')}
              data-testid="order-po-number"
            />
            {dateField('orderDate', t('orders.orderDate'))}
            {dateField('expectedDeliveryDate', t('orders.expectedDelivery'))}
            {dateField('actualDeliveryDate', t('orders.actualDelivery'))}
          </SimpleGrid>
          {canWrite && (
            <Group justify="flex-end">
              <Button type="submit" loading={form.busy} disabled={!Object.keys(changed).length}>
                {t('common.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
