import '@mantine/charts/styles.css';
import {
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useEngineNames } from '../../api/queries.ts';
import type { paths } from '../../api/schema.d.ts';
import { money, number, percent } from '../../ui/format.ts';
import { OnDemand } from '../../ui/OnDemand.tsx';
import { retryableLazy } from '../../ui/retryableLazy.tsx';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { useCan } from '../admin/useCan.ts';
import type { CostShareChartProps, QuantityCurveChartProps } from './EstimateCharts.tsx';
import type { Change } from './form.ts';
import { StaleBadge } from './StaleBadge.tsx';
import { suggestionText } from './suggestion.ts';

export type Estimate = paths['/api/briefs/estimate']['post']['responses'][200]['content']['application/json'];

const COLOURS = [
  'indigo.7',
  'teal.7',
  'orange.7',
  'grape.7',
  'cyan.8',
  'red.7',
  'lime.8',
  'pink.7',
  'yellow.8',
  'blue.8',
];

// Issue 31: the charts (recharts, ~120 KB gzipped) and the drawings are chunks of their own, loaded
// when an estimate is first shown; the form and the price do not wait for them. The charts' styles
// (a few KB of CSS) stay with the page: a chart chunk loaded again after a failure (OnDemand's
// Retry) finds them, as Vite does not fetch a chunk's CSS a second time.
const loadCharts = () => import('./EstimateCharts.tsx');
const CostShareChart = retryableLazy<CostShareChartProps>(() =>
  loadCharts().then((m) => ({ default: m.CostShareChart })),
);
const QuantityCurveChart = retryableLazy<QuantityCurveChartProps>(() =>
  loadCharts().then((m) => ({ default: m.QuantityCurveChart })),
);
const EstimateDrawings = retryableLazy(() => import('./EstimateDrawings.tsx'));

/** The price: totals, unit price, tooling, delivery, lead time (rendered first, on every estimate). */
export function EstimateSummary({
  estimate,
  pricing,
  stale = false,
}: {
  estimate: Estimate;
  pricing: boolean;
  /** The price is of an earlier form (the current one is invalid or was refused): greyed and said so. */
  stale?: boolean;
}) {
  const { t } = useTranslation();
  const currency = estimate.currency;
  return (
    <Card withBorder padding="md" aria-live="polite" data-testid="estimate-summary" data-stale={stale}>
      {stale ? (
        <Group gap="xs" mb="sm" data-testid="estimate-stale">
          <Badge color="gray" variant="filled">
            {t('stale.badge')}
          </Badge>
          <Text size="sm">{t('stale.price')}</Text>
        </Group>
      ) : null}
      <Group justify="space-between" align="flex-start" className={stale ? 'stale' : undefined}>
        <SimpleGrid cols={{ base: 2, md: 5 }} spacing="lg" style={{ flex: 1 }}>
          <Stat
            label={t('configurator.price')}
            value={money(estimate.totals.totalPrice, currency)}
            testId="estimate-total"
            strong
          />
          <Stat
            label={t('configurator.unitPrice')}
            value={money(estimate.unitPrice, currency, 4)}
            testId="estimate-unit"
          />
          <Stat
            label={t('configurator.tooling')}
            value={money(estimate.totals.toolingCost, currency)}
            testId="estimate-tooling"
          />
          <Stat
            label={t('configurator.delivery')}
            // Without a zone the price is ex works: EUR 0.00 would read as free delivery.
            value={
              estimate.delivery.included
                ? money(estimate.totals.deliveryCost, currency)
                : t('configurator.deliveryNotIncluded')
            }
            testId="estimate-delivery"
            muted={!estimate.delivery.included}
          />
          <Stat
            label={t('configurator.leadTime')}
            value={t('configurator.days', { count: estimate.leadTime.workingDays })}
            testId="estimate-lead"
          />
        </SimpleGrid>
        {pricing && <Loader size="xs" aria-label={t('configurator.pricing')} />}
      </Group>
    </Card>
  );
}

/**
 * Why the price is what it is: drawings, process, cost shares, quantity curve and savings. Heavier to
 * draw than the summary, so it is memoised (the form's keystrokes do not redraw it) and fed a
 * deferred estimate (the new price shows first).
 */
export const EstimateDetails = memo(function EstimateDetails({
  estimate,
  onApply,
  stale = false,
}: {
  estimate: Estimate;
  onApply?: (changes: Change[]) => void;
  /** Of an earlier form: the drawings are greyed and marked, and no saving can be applied. */
  stale?: boolean;
}) {
  const { t } = useTranslation();
  const { operationName, machineName } = useEngineNames();
  const currency = estimate.currency;
  // Issue 26: every panel drawn from the estimate (operations, cost shares, curve, lead time,
  // savings) is greyed and marked like the price while the estimate is of an earlier form.
  const panel = (name: string) => ({
    className: stale ? 'stale-panel' : undefined,
    'data-stale': stale,
    'data-panel': name,
  });
  const staleMark = (name: string) => (stale ? <StaleBadge panel={name} /> : null);
  // The seller's staff (costs:read) see times, costs and cost shares; a buyer's estimate has none.
  const breakdown = useCan()('costs:read') ? estimate.breakdown : undefined;
  // Stage names by their engine key, in the user's language (the engine's labels are English).
  const segments = (breakdown?.segments.filter((s) => s.amount > 0) ?? []).map((s) => ({
    ...s,
    label: t(`engine.costShares.${s.key}`, { defaultValue: s.label }),
  }));
  // The first element's next price break, drawn on the curve.
  const nextBreak = estimate.elements.find((e) => e.nextPriceBreak)?.nextPriceBreak;
  return (
    <Stack gap="md" className={stale ? 'stale-details' : undefined} data-stale={stale}>
      <Tabs defaultValue="0" keepMounted={false}>
        <Tabs.List>
          {estimate.elements.map((e) => (
            <Tabs.Tab key={e.position} value={String(e.position)}>
              {t('configurator.element', { n: e.position + 1 })} · {e.productCode}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {estimate.elements.map((e) => (
          <Tabs.Panel key={e.position} value={String(e.position)} pt="sm">
            <OnDemand height={320} testId={`drawings-loading-${e.position}`}>
              <EstimateDrawings element={e} stale={stale} />
            </OnDemand>
            <Card withBorder mt="sm" {...panel('operations')}>
              <Title order={3} size="h5" mb="xs">
                {t('configurator.operations')}
                {staleMark('operations')}
              </Title>
              <ScrollingTable minWidth={480} label={t('configurator.operations')}>
                <Table striped data-testid={`operations-${e.position}`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>#</Table.Th>
                      <Table.Th>{t('configurator.operation')}</Table.Th>
                      <Table.Th>{t('configurator.machine')}</Table.Th>
                      {breakdown ? (
                        <>
                          <Table.Th ta="right">{t('configurator.time')}</Table.Th>
                          <Table.Th ta="right">{t('configurator.cost')}</Table.Th>
                        </>
                      ) : null}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {e.operations.map((op) => {
                      const o = op as typeof op & { totalCost?: number; cost?: number };
                      return (
                        <Table.Tr key={`${op.partNumber}-${op.position}`}>
                          <Table.Td>{op.position}</Table.Td>
                          <Table.Td>{op.operation && operationName(op.operation)}</Table.Td>
                          <Table.Td>{op.machine && machineName(op.machine)}</Table.Td>
                          {breakdown ? (
                            <>
                              <Table.Td ta="right">
                                {number(
                                  Math.round(((op.setupTime ?? 0) + (op.rollingTime ?? 0)) * 100) / 100,
                                )}
                              </Table.Td>
                              <Table.Td ta="right">{money(o.totalCost ?? o.cost, currency)}</Table.Td>
                            </>
                          ) : null}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </ScrollingTable>
            </Card>
          </Tabs.Panel>
        ))}
      </Tabs>

      <SimpleGrid cols={{ base: 1, lg: breakdown ? 2 : 1 }}>
        {breakdown ? (
          <Card withBorder {...panel('cost-shares')}>
            <Title order={3} size="h5" mb="xs">
              {t('configurator.costShare')}
              {staleMark('cost-shares')}
            </Title>
            <Group wrap="nowrap" align="center">
              <OnDemand height={150} testId="cost-share-loading">
                <CostShareChart
                  data={segments.map((s, i) => ({
                    name: s.label,
                    value: s.amount,
                    color: COLOURS[i % COLOURS.length]!,
                  }))}
                  currency={currency}
                  total={breakdown.total}
                />
              </OnDemand>
              <Stack gap={2}>
                {segments.map((s, i) => (
                  <Group key={s.key} gap={6} wrap="nowrap">
                    <Badge size="xs" circle color={COLOURS[i % COLOURS.length]} aria-hidden>
                      {' '}
                    </Badge>
                    <Text size="xs">
                      {s.label}: {money(s.amount, currency)} ({percent(s.sharePercent, 0)})
                    </Text>
                  </Group>
                ))}
              </Stack>
            </Group>
          </Card>
        ) : null}
        <Card withBorder {...panel('curve')}>
          <Title order={3} size="h5" mb="xs">
            {t('configurator.curve')}
            {staleMark('curve')}
          </Title>
          {estimate.quantityCurve === undefined ? (
            <Analysing />
          ) : (
            <OnDemand height={170} testId="curve-loading">
              <QuantityCurveChart
                data={estimate.quantityCurve.map((p) => ({
                  quantity: number(p.quantity),
                  unitPrice: p.unitPrice,
                }))}
                currency={currency}
                seriesLabel={t('configurator.unitPrice')}
                priceBreak={
                  nextBreak?.unitPrice != null
                    ? {
                        unitPrice: nextBreak.unitPrice,
                        label: t('configurator.priceBreak', {
                          quantity: number(nextBreak.quantity),
                          price: money(nextBreak.unitPrice, currency, 4),
                        }),
                      }
                    : undefined
                }
              />
            </OnDemand>
          )}
          {estimate.elements.map((e) =>
            e.nextPriceBreak ? (
              <Text key={e.position} size="xs" data-testid={`price-break-${e.position}`}>
                {e.productCode}:{' '}
                {t('configurator.priceBreak', {
                  quantity: number(e.nextPriceBreak.quantity),
                  price: money(e.nextPriceBreak.unitPrice, currency, 4),
                })}
              </Text>
            ) : null,
          )}
        </Card>
      </SimpleGrid>

      {estimate.leadTime.steps ? <LeadTimeCard breakdown={estimate.leadTime.steps} stale={stale} /> : null}

      <Card withBorder {...panel('suggestions')}>
        <Title order={3} size="h5" mb="xs">
          {t('configurator.suggestions')}
          {staleMark('suggestions')}
        </Title>
        {estimate.optimisations === undefined ? (
          <Analysing />
        ) : estimate.optimisations.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('configurator.noSuggestions')}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="suggestions">
            {estimate.optimisations.map((o) => {
              const text = suggestionText(o, t);
              return (
                <Group key={`${o.position}-${o.type}-${o.description}`} justify="space-between" wrap="nowrap">
                  <Text size="sm" style={{ flex: 1 }} data-testid="suggestion">
                    <Badge size="sm" mr={6}>
                      {t('configurator.element', { n: o.position + 1 })}
                    </Badge>
                    {text} —{' '}
                    {t('configurator.saving', {
                      amount: money(o.totalSaving, currency),
                      percent: percent(o.savingPercent),
                    })}
                  </Text>
                  {/* Apply is offered only where it changes the form (a gang run is already priced in). */}
                  {o.changes.length > 0 && onApply && (
                    <Button
                      size="xs"
                      variant="light"
                      style={{ flexShrink: 0 }}
                      disabled={stale}
                      onClick={() => onApply(o.changes as Change[])}
                      aria-label={`${t('configurator.apply')}: ${text}`}
                    >
                      {t('configurator.apply')}
                    </Button>
                  )}
                </Group>
              );
            })}
          </Stack>
        )}
      </Card>
    </Stack>
  );
});

/** The value analysis (curve, price breaks, savings) is asked for once the price is shown. */
function Analysing() {
  const { t } = useTranslation();
  return (
    <Group gap="xs" data-testid="analysing">
      <Loader size="xs" />
      <Text size="sm" c="dimmed">
        {t('configurator.analysing')}
      </Text>
    </Group>
  );
}

type LeadTimeBreakdown = NonNullable<Estimate['leadTime']['steps']>;

/**
 * Issue 30: the lead time as a breakdown - board and tooling (side by side, after artwork
 * approval), queue, each operation, transport - so a buyer sees why it is what it is.
 */
function LeadTimeCard({ breakdown, stale = false }: { breakdown: LeadTimeBreakdown; stale?: boolean }) {
  const { t } = useTranslation();
  const { operationName } = useEngineNames();
  const days = (count: number) => t('configurator.days', { count });
  const rows: { key: string; label: string; value: string }[] = [
    {
      key: 'board',
      label: t(`configurator.leadBoard.${breakdown.board.source}`),
      value: days(breakdown.board.days),
    },
    {
      key: 'tooling',
      label: t('configurator.leadTooling'),
      value: days(breakdown.tooling.days),
    },
    { key: 'queue', label: t('configurator.leadQueue'), value: days(breakdown.queueDays) },
    ...breakdown.operations
      .filter((o) => o.days > 0)
      .map((o) => ({
        key: `op-${o.position}`,
        // The operation's words by its code, as in the operation sequence above.
        label: operationName(o),
        value: days(o.days),
      })),
    {
      key: 'transport',
      label: breakdown.transport.zone
        ? t('configurator.leadTransport', { zone: breakdown.transport.zone })
        : t('configurator.leadExWorks'),
      value: days(breakdown.transport.days),
    },
  ];
  return (
    <Card
      withBorder
      data-testid="lead-time"
      className={stale ? 'stale-panel' : undefined}
      data-stale={stale}
      data-panel="lead-time"
    >
      <Title order={3} size="h5" mb="xs">
        {t('configurator.leadTimeBreakdown', { count: breakdown.workingDays })}
        {stale ? <StaleBadge panel="lead-time" /> : null}
      </Title>
      <Text size="xs" c="dimmed" mb="xs">
        {t('configurator.leadParallel')}
      </Text>
      <Table striped>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key}>
              <Table.Td>{r.label}</Table.Td>
              <Table.Td ta="right">{r.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function Stat({
  label,
  value,
  testId,
  strong,
  muted,
}: {
  label: string;
  value: string;
  testId: string;
  strong?: boolean;
  /** A statement rather than a figure (e.g. delivery not included). */
  muted?: boolean;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text
        fw={strong ? 700 : 500}
        size={strong ? 'xl' : muted ? 'sm' : 'md'}
        c={muted ? 'dimmed' : undefined}
        data-testid={testId}
      >
        {value}
      </Text>
    </div>
  );
}
