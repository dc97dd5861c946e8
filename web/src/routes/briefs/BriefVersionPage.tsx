import {
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useEngineNames } from '../../api/queries.ts';
import { useCan } from '../../features/admin/useCan.ts';
import { briefQueries } from '../../features/briefs/api/index.ts';
import { useBrief, useBriefVersions, useDescribe, type Version } from '../../features/briefs/describe.ts';
import { CompareTable } from '../../features/briefs/VersionChanges.tsx';
import {
  differences,
  ELEMENT_FIELDS,
  elementValue,
  type VersionInput,
} from '../../features/briefs/versions.ts';
import { when } from '../../features/briefs/when.ts';
import { DieLineDownloads } from '../../features/dielines/DieLineDownloads.tsx';
import { paths } from '../../paths.ts';
import { money, number, percent } from '../../ui/format.ts';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { NotFoundState, QueryState } from '../../ui/states.tsx';

type Group_ = { key: string; label: string; amount: number; sharePercent: number };

/**
 * /briefs/:id/versions/:version: an earlier (or the current) priced version, read-only: what it
 * priced (each item's specification), its totals and price breakdown, each item's drawings and
 * operation sequence, and how it differs from the current version.
 */
export default function BriefVersionPage() {
  const { id, version: param } = useParams() as { id: string; version: string };
  const { t } = useTranslation();
  // The seller's staff (costs:read) see the cost shares and the operations' times and costs.
  const seesCosts = useCan()('costs:read');
  const n = /^\d+$/.test(param) ? Number(param) : Number.NaN;
  const brief = useBrief(id);
  const versions = useBriefVersions(id, brief.data?.currentVersion);
  const details = useQuery({ ...briefQueries.details(id, n), enabled: Number.isInteger(n) && n > 0 });
  const back = { to: paths.brief(id), label: t('briefs.revisions.back') };
  if (!Number.isInteger(n) || n < 1) return <NotFoundState back={back} />;
  return (
    <QueryState query={brief} back={{ to: paths.briefs(), label: t('briefs.title') }}>
      {(b) => (
        <QueryState query={versions}>
          {(v) => {
            const version = v.data.find((x) => x.version === n);
            if (!version) return <NotFoundState back={back} />;
            const current = v.data.find((x) => x.version === v.currentVersion);
            return (
              <Stack>
                <Group justify="space-between" align="flex-start">
                  <Stack gap={4}>
                    <Title order={2}>{t('briefs.revisions.versionTitle', { n, code: b.code })}</Title>
                    <Text size="sm">
                      {when(version.createdAt)} · {t('briefs.revisions.pricedBy')}{' '}
                      {version.createdBy?.name ?? t('briefs.revisions.system')}
                    </Text>
                  </Stack>
                  <Group>
                    <Anchor component={Link} to={paths.briefVersions(id)}>
                      {t('briefs.revisions.all')}
                    </Anchor>
                    <Anchor component={Link} to={paths.brief(id)}>
                      {t('briefs.revisions.back')}
                    </Anchor>
                  </Group>
                </Group>
                <Alert color="gray" data-testid="version-read-only">
                  {t('briefs.revisions.readOnly', { n })}
                </Alert>
                <Totals version={version} />
                {current && current.version !== n ? (
                  <Card withBorder>
                    <Title order={3} size="h4" mb="xs">
                      {t('briefs.revisions.compare', { n: current.version })}
                    </Title>
                    <Comparison version={version} current={current} />
                  </Card>
                ) : (
                  <Text size="sm">{t('briefs.revisions.isCurrent')}</Text>
                )}
                <Items briefId={id} version={version} />
                {seesCosts ? (
                  <Card withBorder>
                    <Title order={3} size="h4" mb="xs">
                      {t('briefs.revisions.breakdown')}
                    </Title>
                    <QueryState query={details}>
                      {(d) => {
                        const groups = ((d.briefPrice?.costSummary as { groups?: Group_[] } | undefined)
                          ?.groups ?? []) as Group_[];
                        return (
                          <Table data-testid="version-breakdown">
                            <Table.Thead>
                              <Table.Tr>
                                <Table.Th>{t('briefs.revisions.stage')}</Table.Th>
                                <Table.Th ta="right">{t('briefs.revisions.amount')}</Table.Th>
                                <Table.Th ta="right">{t('briefs.revisions.share')}</Table.Th>
                              </Table.Tr>
                            </Table.Thead>
                            <Table.Tbody>
                              {groups.map((g) => (
                                <Table.Tr key={g.key}>
                                  <Table.Td>
                                    {t(`engine.costShares.${g.key}`, { defaultValue: g.label })}
                                  </Table.Td>
                                  <Table.Td ta="right">{money(g.amount, version.currency)}</Table.Td>
                                  <Table.Td ta="right">{percent(g.sharePercent)}</Table.Td>
                                </Table.Tr>
                              ))}
                            </Table.Tbody>
                          </Table>
                        );
                      }}
                    </QueryState>
                  </Card>
                ) : null}
              </Stack>
            );
          }}
        </QueryState>
      )}
    </QueryState>
  );
}

function Totals({ version }: { version: Version }) {
  const { t } = useTranslation();
  const c = version.currency;
  const unit = version.quantity ? version.productPrice / version.quantity : null;
  const stats = [
    [t('configurator.price'), money(version.totalPrice, c), 'version-total'],
    [t('briefs.revisions.unitPrice'), money(unit, c, 4), 'version-unit'],
    [t('configurator.tooling'), money(version.toolingCost, c), 'version-tooling'],
    [t('configurator.delivery'), money(version.deliveryCost, c), 'version-delivery'],
    [t('configurator.quantity'), number(version.quantity), 'version-quantity'],
  ];
  return (
    <Card withBorder>
      <SimpleGrid cols={{ base: 2, md: 5 }}>
        {stats.map(([label, value, testId]) => (
          <div key={testId}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text fw={600} data-testid={testId}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Card>
  );
}

function Comparison({ version, current }: { version: Version; current: Version }) {
  const { t } = useTranslation();
  const changes = differences(version.input as VersionInput, current.input as VersionInput);
  const totals = [
    { element: null, field: 'totalPrice', from: version.totalPrice, to: current.totalPrice },
  ] as const;
  if (!changes.length) return <Text size="sm">{t('briefs.revisions.sameAsCurrent')}</Text>;
  return (
    <Stack gap="xs">
      <CompareTable
        changes={changes}
        leftTitle={t('configurator.version', { n: version.version })}
        rightTitle={`${t('configurator.version', { n: current.version })} (${t('configurator.current')})`}
      />
      <Text size="sm">
        {t('configurator.price')}: {money(totals[0].from, version.currency)} →{' '}
        {money(totals[0].to, current.currency)}
      </Text>
    </Stack>
  );
}

/** Each item of the version: its specification, its drawings and its operation sequence. */
function Items({ briefId, version }: { briefId: string; version: Version }) {
  const { t } = useTranslation();
  const elements = [...((version.input as VersionInput).briefElements ?? [])].sort(
    (a, b) => (a.position as number) - (b.position as number),
  );
  if (!elements.length) return null;
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="xs">
        {t('briefs.revisions.items')}
      </Title>
      <Tabs defaultValue="0" keepMounted={false}>
        <Tabs.List>
          {elements.map((e) => (
            <Tabs.Tab key={e.position as number} value={String(e.position)}>
              {t('configurator.element', { n: (e.position as number) + 1 })}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {elements.map((e) => (
          <Tabs.Panel key={e.position as number} value={String(e.position)} pt="sm">
            <Item briefId={briefId} version={version.version} currency={version.currency} element={e} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}

function Item({
  briefId,
  version,
  currency,
  element,
}: {
  briefId: string;
  version: number;
  currency: string;
  element: Record<string, unknown>;
}) {
  const { t } = useTranslation();
  const { operationName, machineName } = useEngineNames();
  // The seller's staff (costs:read) see the cost shares and the operations' times and costs.
  const seesCosts = useCan()('costs:read');
  const { label, value } = useDescribe();
  const position = element.position as number;
  const process = useQuery(briefQueries.process(briefId, version, position));
  // The drawings are GETs authenticated by the session cookie, shown as images (no script runs).
  const drawing = (kind: 'die-line' | 'imposition') =>
    `/api/briefs/${briefId}/elements/${position}/${kind}.svg?version=${version}`;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, lg: 3 }}>
        <Table data-testid={`version-spec-${position}`}>
          <Table.Tbody>
            {ELEMENT_FIELDS.filter((field) => seesCosts || field !== 'commercialMargin').map((field) => (
              <Table.Tr key={field}>
                <Table.Th scope="row" fw={500}>
                  {label(field)}
                </Table.Th>
                <Table.Td>{value(field, elementValue(element, field))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Card withBorder className="drawing" data-testid={`version-die-line-${position}`}>
          <Group justify="space-between" mb={4}>
            <Title order={4} size="h5">
              {t('configurator.dieLine')}
            </Title>
            <DieLineDownloads briefId={briefId} position={position} version={version} />
          </Group>
          <img
            src={drawing('die-line')}
            alt={`${t('configurator.dieLine')} · ${t('configurator.version', { n: version })}`}
            style={{ width: '100%', maxHeight: 320, objectFit: 'contain' }}
          />
        </Card>
        <Card withBorder className="drawing" data-testid={`version-imposition-${position}`}>
          <Title order={4} size="h5">
            {t('configurator.imposition')}
          </Title>
          <img
            src={drawing('imposition')}
            alt={`${t('configurator.imposition')} · ${t('configurator.version', { n: version })}`}
            style={{ width: '100%', maxHeight: 320, objectFit: 'contain' }}
          />
        </Card>
      </SimpleGrid>
      <Title order={4} size="h5">
        {t('configurator.operations')}{' '}
        {process.data ? <Badge variant="outline">{String(process.data.printingProcess ?? '')}</Badge> : null}
      </Title>
      <QueryState query={process}>
        {(p) => (
          <ScrollingTable minWidth={480} label={t('configurator.operations')}>
            <Table striped data-testid={`version-operations-${position}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>#</Table.Th>
                  <Table.Th>{t('configurator.operation')}</Table.Th>
                  <Table.Th>{t('configurator.machine')}</Table.Th>
                  {seesCosts ? (
                    <>
                      <Table.Th ta="right">{t('configurator.time')}</Table.Th>
                      <Table.Th ta="right">{t('configurator.cost')}</Table.Th>
                    </>
                  ) : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(p.predictionOperationSequence ?? []).map((op) => {
                  const o = op as typeof op & { cost?: number; setupTime?: number; rollingTime?: number };
                  return (
                    <Table.Tr key={`${op.partNumber}-${op.position}`}>
                      <Table.Td>{op.position}</Table.Td>
                      <Table.Td>{op.operation && operationName(op.operation)}</Table.Td>
                      <Table.Td>{op.machine && machineName(op.machine)}</Table.Td>
                      {seesCosts ? (
                        <>
                          <Table.Td ta="right">
                            {number(Math.round(((o.setupTime ?? 0) + (o.rollingTime ?? 0)) * 100) / 100)}
                          </Table.Td>
                          <Table.Td ta="right">{money(o.cost, currency)}</Table.Td>
                        </>
                      ) : null}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollingTable>
        )}
      </QueryState>
    </Stack>
  );
}
