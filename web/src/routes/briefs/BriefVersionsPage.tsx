import { Anchor, Badge, Card, Group, Stack, Table, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useBrief, useBriefVersions } from '../../features/briefs/describe.ts';
import { ChangeList } from '../../features/briefs/VersionChanges.tsx';
import { differences, type VersionInput } from '../../features/briefs/versions.ts';
import { when } from '../../features/briefs/when.ts';
import { paths } from '../../paths.ts';
import { money } from '../../ui/format.ts';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { QueryState } from '../../ui/states.tsx';

/** /briefs/:id/versions: every priced version, who priced it and when, and what changed from the one before. */
export default function BriefVersionsPage() {
  const { id } = useParams() as { id: string };
  const { t } = useTranslation();
  const brief = useBrief(id);
  const versions = useBriefVersions(id, brief.data?.currentVersion);
  return (
    <QueryState query={brief} back={{ to: paths.briefs(), label: t('briefs.title') }}>
      {(b) => (
        <Stack>
          <Group justify="space-between">
            <Title order={2}>{t('briefs.revisions.title', { code: b.code })}</Title>
            <Anchor component={Link} to={paths.brief(b.id)}>
              {t('briefs.revisions.back')}
            </Anchor>
          </Group>
          <Card withBorder>
            <QueryState query={versions} isEmpty={(v) => v.data.length === 0}>
              {(v) => (
                <ScrollingTable minWidth={720} label={t('briefs.revisions.title', { code: b.code })}>
                  <Table data-testid="revisions" verticalSpacing="sm">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>#</Table.Th>
                        <Table.Th>{t('briefs.revisions.when')}</Table.Th>
                        <Table.Th>{t('briefs.revisions.pricedBy')}</Table.Th>
                        <Table.Th ta="right">{t('configurator.price')}</Table.Th>
                        <Table.Th>{t('briefs.revisions.changes')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {v.data.map((version, i) => {
                        const previous = v.data[i + 1];
                        return (
                          <Table.Tr key={version.id} data-testid={`revision-${version.version}`}>
                            <Table.Td style={{ whiteSpace: 'nowrap' }}>
                              <Anchor component={Link} to={paths.briefVersion(b.id, version.version)}>
                                {t('configurator.version', { n: version.version })}
                              </Anchor>{' '}
                              {version.version === v.currentVersion && (
                                <Badge size="sm" color="teal.9">
                                  {t('configurator.current')}
                                </Badge>
                              )}
                            </Table.Td>
                            <Table.Td>{when(version.createdAt)}</Table.Td>
                            <Table.Td>
                              {version.createdBy
                                ? (version.createdBy.name ?? version.createdBy.id)
                                : t('briefs.revisions.system')}
                            </Table.Td>
                            <Table.Td ta="right">{money(version.totalPrice, version.currency)}</Table.Td>
                            <Table.Td>
                              {previous ? (
                                <ChangeList
                                  changes={differences(
                                    previous.input as VersionInput,
                                    version.input as VersionInput,
                                  )}
                                />
                              ) : (
                                t('briefs.revisions.first')
                              )}
                            </Table.Td>
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </ScrollingTable>
              )}
            </QueryState>
          </Card>
        </Stack>
      )}
    </QueryState>
  );
}
