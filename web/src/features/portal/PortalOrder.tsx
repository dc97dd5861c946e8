import { Button, Card, Group, Stack, Text, Timeline, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { date, money, number } from '../../ui/format.ts';
import { EntityComments } from '../orders/EntityComments.tsx';
import { EntityFiles } from '../orders/EntityFiles.tsx';
import { orderName } from '../orders/format.ts';
import { StatusBadge, useOrderStatuses } from '../orders/statuses.tsx';
import { lineName } from '../quotes/lines.ts';
import { ReorderResult, useReorder } from './Reorder.tsx';

type Order = components['schemas']['Order'];

/**
 * The buyer's order page: its status and delivery tracking (ordered, expected, delivered, the
 * tracking number), the items with "order again" per article, "order again" for the whole order
 * once delivered, files and comments.
 */
export function PortalOrder({ order: o }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const statuses = useOrderStatuses();
  const status = statuses.data?.find((s) => s.id === o.statusId);
  const reorder = useReorder();
  const currency = o.currency?.code ?? 'EUR';
  const delivered = Boolean(o.actualDeliveryDate);
  const steps = [
    { label: t('portal.ordered'), value: o.orderDate ? date(o.orderDate) : '—', done: Boolean(o.orderDate) },
    {
      label: t('portal.expected'),
      value: o.expectedDeliveryDate ? date(o.expectedDeliveryDate) : '—',
      done: Boolean(o.expectedDeliveryDate),
    },
    {
      label: t('portal.delivered'),
      value: delivered ? date(o.actualDeliveryDate) : t('portal.notDelivered'),
      done: delivered,
    },
  ];
  const active = steps.reduce((last, step, i) => (step.done ? i : last), -1);
  const items = o.items.filter((item) => !item.parentId);
  return (
    <Stack data-testid="portal-order">
      <Card withBorder>
        <Stack gap="xs">
          <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="order-title">
            {t('orders.order')} {orderName(o)}
          </Title>
          <Group gap="xs">
            <StatusBadge status={status} testId="order-status" />
            <Text size="sm" fw={600}>
              {money(o.itemsTotal || o.billedAmount, currency)}
            </Text>
          </Group>
          {delivered && (
            <Group gap="xs">
              <Button
                onClick={() => reorder.mutate({ type: 'order', id: o.id })}
                loading={reorder.isPending}
                data-testid="reorder-order"
              >
                {t('portal.orderAgain')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('portal.orderAgainHint')}
              </Text>
            </Group>
          )}
        </Stack>
      </Card>

      <Card withBorder data-testid="tracking">
        <Title order={3} size="h4" mb="sm">
          {t('portal.tracking')}
        </Title>
        <Timeline active={active} bulletSize={18} lineWidth={2}>
          {steps.map((step) => (
            <Timeline.Item key={step.label} title={step.label}>
              <Text size="sm" c={step.done ? undefined : 'dimmed'}>
                {step.value}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
        <Text size="sm" mt="sm" data-testid="tracking-number">
          {t('portal.trackingNumber')}: {o.trackingId ?? t('portal.noTracking')}
        </Text>
      </Card>

      <Card withBorder>
        <Title order={3} size="h4" mb="xs">
          {t('portal.items')}
        </Title>
        <Stack gap={0}>
          {items.map((item) => (
            <div
              key={item.id}
              style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', padding: '8px 0' }}
              data-testid="order-line"
            >
              <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {item.article
                    ? `${item.article.code} · ${item.localised ? lineName(item, i18n.language) : item.article.name}`
                    : (item.unit ?? '—')}
                </Text>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="line-total">
                  {money(item.totalPrice, currency)}
                </Text>
              </Group>
              <Group justify="space-between" gap="xs">
                <Text size="xs" c="dimmed">
                  {number(item.quantity)} × {money(item.unitPrice, currency, 4)}
                </Text>
                {item.articleId && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={() => reorder.mutate({ type: 'article', id: item.articleId! })}
                    aria-label={t('portal.orderArticleAgain', { name: item.article?.name ?? '' })}
                  >
                    {t('portal.orderAgain')}
                  </Button>
                )}
              </Group>
            </div>
          ))}
        </Stack>
      </Card>

      <EntityComments owner="orders" id={o.id} canWrite />
      <EntityFiles owner="orders" id={o.id} canWrite />

      <ReorderResult result={reorder.data} error={reorder.error} onClose={() => reorder.reset()} />
    </Stack>
  );
}
