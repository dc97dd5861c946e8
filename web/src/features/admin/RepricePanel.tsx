import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiAction } from '../../api/mutation.ts';
import type { components } from '../../api/schema.d.ts';
import { paths } from '../../paths.ts';
import { date, money } from '../../ui/format.ts';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, Loading } from '../../ui/states.tsx';
import { type BriefCreate, briefApi, briefQueries } from '../briefs/api/index.ts';
import { briefBody, elementForm, type PackingType } from '../configurator/form.ts';
import { adminKeys, adminQueries } from './api.ts';

type Brief = components['schemas']['Brief'];

/** The body that prices a stored brief again as it is (POST /briefs/estimate, PUT /briefs/{id}). */
function bodyOf(brief: Brief, forUpdate: boolean): BriefCreate {
  const body = briefBody(
    {
      name: brief.name,
      companyId: brief.companyId,
      projectId: brief.projectId,
      packingType: (brief.packingType as PackingType | null | undefined) ?? null,
      elements: [...brief.briefElements]
        .sort((x, y) => x.position - y.position)
        .map((e) => elementForm(e as Record<string, unknown>)),
    },
    { forUpdate },
  );
  // A stored brief's pallet is one the API accepted: one of the body's.
  if (brief.palletType) body.palletType = brief.palletType as BriefCreate['palletType'];
  if (brief.deliveryZoneId) body.deliveryZoneId = brief.deliveryZoneId;
  if (brief.commercialMargin !== null) body.commercialMargin = brief.commercialMargin;
  return body;
}

/**
 * The effect of the catalogue on a brief: its stored price beside the price today's rates give
 * (an estimate, nothing written), and "Re-price" to store a new version at those rates. Every
 * catalogue edit on this page refreshes the preview (query key 'reprice').
 */
export function RepricePanel({ canReprice }: { canReprice: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const action = useApiAction();
  const [briefId, setBriefId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const briefs = useQuery({
    ...briefQueries.list({ page: 1, limit: 20, search: debounced || undefined }),
    placeholderData: (previous) => previous,
  });
  const options = (briefs.data?.data ?? []).map((b) => ({ value: b.id, label: `${b.code} · ${b.name}` }));
  const brief = useQuery({ ...adminQueries.repriceBrief(briefId ?? ''), enabled: !!briefId });
  const preview = useQuery({
    ...adminQueries.repriceEstimate(briefId ?? '', brief.data?.updatedAt, () => bodyOf(brief.data!, false)),
    enabled: !!brief.data,
  });
  const stored = brief.data?.totalPrice ?? null;
  const now = preview.data?.totals.totalPrice;
  const currency = brief.data?.currency ?? preview.data?.currency ?? 'EUR';
  const difference = stored !== null && now !== undefined ? now - stored : undefined;
  return (
    <Card withBorder data-testid="reprice-panel">
      <Stack>
        <Title order={3} size="h4">
          {t('admin.reprice.title')}
        </Title>
        <Text size="sm">{t('admin.reprice.intro')}</Text>
        <Select
          label={t('admin.reprice.brief')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={options}
          value={briefId}
          onChange={(v) => {
            action.clear();
            setBriefId(v);
          }}
          nothingFoundMessage={t('common.empty')}
        />
        {briefs.error && <ErrorState error={briefs.error} onRetry={() => void briefs.refetch()} />}
        {briefId && brief.isPending && <Loading />}
        {brief.error && <ErrorState error={brief.error} onRetry={() => void brief.refetch()} />}
        {brief.data && (
          <>
            <SimpleGrid cols={2}>
              <Stack gap={0}>
                <Text size="sm">
                  {t('admin.reprice.stored', { version: brief.data.currentVersion ?? '—' })}
                </Text>
                <Text fw={700} size="lg" data-testid="reprice-stored">
                  {money(stored, currency)}
                </Text>
                <Text size="xs" c="dimmed">
                  {date(brief.data.pricedAt)}
                </Text>
              </Stack>
              <Stack gap={0}>
                <Text size="sm">{t('admin.reprice.now')}</Text>
                <Text fw={700} size="lg" data-testid="reprice-now">
                  {preview.isFetching ? '…' : money(now, currency)}
                </Text>
                {difference !== undefined && !preview.isFetching && (
                  <Text size="xs" c="dimmed" data-testid="reprice-difference">
                    {difference === 0
                      ? t('admin.reprice.same')
                      : t('admin.reprice.difference', {
                          amount: `${difference > 0 ? '+' : ''}${money(difference, currency)}`,
                        })}
                  </Text>
                )}
              </Stack>
            </SimpleGrid>
            {preview.error && <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />}
            {action.error !== undefined && <ErrorState error={action.error} />}
            <Group>
              {canReprice && (
                <Button
                  data-testid="reprice-brief"
                  loading={action.busy === 'reprice'}
                  onClick={() =>
                    action
                      .run(
                        'reprice',
                        () => briefApi.update(brief.data.id, bodyOf(brief.data, true)),
                        t('admin.reprice.done'),
                      )
                      .then(() => queryClient.invalidateQueries({ queryKey: adminKeys.repriceOf(briefId) }))
                  }
                >
                  {t('admin.reprice.action')}
                </Button>
              )}
              <Anchor component={Link} to={paths.brief(brief.data.id)}>
                {t('admin.reprice.open')}
              </Anchor>
            </Group>
            {brief.data.predictionStatus === 'FAILED' && (
              <Alert color="red">{brief.data.failureReason ?? t('common.error')}</Alert>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
