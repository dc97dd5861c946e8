import { Anchor, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../api/auth.ts';
import { orderQueries } from '../../features/orders/api/index.ts';
import { useBrand, useImageUrl } from '../../features/portal/brand.ts';
import { OrderCards, QuoteCards } from '../../features/portal/lists.tsx';
import { quoteQueries } from '../../features/quotes/api/index.ts';
import { paths } from '../../paths.ts';
import { QueryState } from '../../ui/states.tsx';

/**
 * The buyer's home: the quotes that await their answer, their companies' latest quotes and
 * orders (with delivery state and tracking), under the seller's brand.
 */
export default function PortalHome() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const brand = useBrand();
  const logo = useImageUrl(brand.data?.logoUrl);
  const awaiting = useQuery(quoteQueries.list({ status: 'published', limit: 10, page: 1 }));
  const quotes = useQuery(quoteQueries.list({ status: 'signed,rejected,expired,draft', limit: 5, page: 1 }));
  const orders = useQuery(orderQueries.list({ limit: 5, page: 1 }));
  const name = [me?.firstName, me?.lastName].filter(Boolean).join(' ') || me?.email || '';
  return (
    <Stack data-testid="portal-home">
      <Group gap="md" wrap="nowrap">
        {logo && <Image src={logo} alt={brand.data?.name ?? ''} h={48} w="auto" maw={160} fit="contain" />}
        <div style={{ minWidth: 0 }}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {t('portal.welcome', { name })}
          </Title>
          {brand.data && (
            <Text size="sm" c="dimmed">
              {t('portal.intro', { seller: brand.data.name })}
            </Text>
          )}
        </div>
      </Group>
      <Card withBorder>
        <Title order={3} size="h4" mb="xs">
          {t('portal.awaiting')}
        </Title>
        <QueryState query={awaiting} isEmpty={(d) => d.data.length === 0} empty={t('portal.noneAwaiting')}>
          {(d) => <QuoteCards quotes={d.data} />}
        </QueryState>
      </Card>
      <Card withBorder>
        <Group justify="space-between" mb="xs">
          <Title order={3} size="h4">
            {t('portal.recentQuotes')}
          </Title>
          <Anchor component={Link} to={paths.quotes} size="sm">
            {t('portal.allQuotes')}
          </Anchor>
        </Group>
        <QueryState query={quotes} isEmpty={(d) => d.data.length === 0}>
          {(d) => <QuoteCards quotes={d.data} />}
        </QueryState>
      </Card>
      <Card withBorder>
        <Group justify="space-between" mb="xs">
          <Title order={3} size="h4">
            {t('portal.recentOrders')}
          </Title>
          <Anchor component={Link} to={paths.orders} size="sm">
            {t('portal.allOrders')}
          </Anchor>
        </Group>
        <QueryState query={orders} isEmpty={(d) => d.data.length === 0}>
          {(d) => <OrderCards orders={d.data} />}
        </QueryState>
      </Card>
    </Stack>
  );
}
