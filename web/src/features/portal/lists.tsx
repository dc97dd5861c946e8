import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { components } from '../../api/schema.d.ts';
import { paths } from '../../paths.ts';
import { date, money } from '../../ui/format.ts';
import { amount, orderName } from '../orders/format.ts';
import { StatusBadge, useOrderStatuses } from '../orders/statuses.tsx';
import { STATE_COLOURS } from './PortalQuote.tsx';

type QuoteSummary = components['schemas']['QuoteSummary'];
type OrderSummary = components['schemas']['OrderSummary'];

/** Quotes as cards (a phone's list): code and state, name, company, validity and total, no sideways scroll. */
export function QuoteCards({ quotes }: { quotes: QuoteSummary[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="quote-cards">
      {quotes.map((q) => (
        <Paper key={q.id} withBorder p="sm" data-testid="quote-card">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Anchor component={Link} to={paths.quote(q.id)} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {q.code ?? `${t('quotes.states.draft')} v${q.version}`}
            </Anchor>
            <Badge color={STATE_COLOURS[q.state]} style={{ flexShrink: 0 }}>
              {t(`quotes.states.${q.state}`)}
            </Badge>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {q.name}
          </Text>
          <Group justify="space-between" gap="xs">
            <Text size="xs" c="dimmed">
              {q.company?.name ?? ''}
              {q.validUntil ? ` · ${t('portal.validUntil', { date: date(q.validUntil) })}` : ''}
            </Text>
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {money(q.totalPrice, q.currency)}
            </Text>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** Orders as cards: name and status, dates of ordering and delivery, tracking number, amount. */
export function OrderCards({ orders }: { orders: OrderSummary[] }) {
  const { t } = useTranslation();
  const statuses = useOrderStatuses();
  return (
    <Stack gap="xs" data-testid="order-cards">
      {orders.map((o) => (
        <Paper key={o.id} withBorder p="sm" data-testid="order-card">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Anchor component={Link} to={paths.order(o.id)} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {orderName(o)}
            </Anchor>
            <StatusBadge status={statuses.data?.find((s) => s.id === o.statusId)} />
          </Group>
          <Group justify="space-between" gap="xs">
            <Text size="xs" c="dimmed">
              {t('portal.ordered')} {date(o.orderDate)} ·{' '}
              {o.actualDeliveryDate
                ? `${t('portal.delivered')} ${date(o.actualDeliveryDate)}`
                : `${t('portal.expected')} ${date(o.expectedDeliveryDate)}`}
              {o.trackingId ? ` · ${o.trackingId}` : ''}
            </Text>
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {amount(o.itemsTotal || o.billedAmount, o.currency?.code)}
            </Text>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
