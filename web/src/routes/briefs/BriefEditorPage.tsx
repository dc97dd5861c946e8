import { Anchor, Card, Group, Stack, Table, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { useAuth } from '../../api/auth.ts';
import { useBrief, useBriefVersions } from '../../features/briefs/describe.ts';
import { when } from '../../features/briefs/when.ts';
import { Configurator } from '../../features/configurator/Configurator.tsx';
import { elementForm, emptyBrief, type PackingType } from '../../features/configurator/form.ts';
import { DieLineDownloads } from '../../features/dielines/DieLineDownloads.tsx';
import { paths } from '../../paths.ts';
import { money } from '../../ui/format.ts';
import { QueryState } from '../../ui/states.tsx';

/** /briefs/new (configure and save) and /briefs/:id (edit, re-price, versions). */
export default function BriefEditorPage() {
  const { id } = useParams();
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { me } = useAuth();
  const brief = useBrief(id);
  const versions = useBriefVersions(id, brief.data?.currentVersion);
  if (!id)
    return (
      <Configurator
        key="new"
        initial={{ ...emptyBrief(), companyId: params.get('companyId') }}
        title={t('configurator.title')}
      />
    );
  return (
    <QueryState query={brief} back={{ to: paths.briefs(), label: t('briefs.title') }}>
      {(b) => (
        <Stack>
          <Configurator
            key={`${b.id}-${b.currentVersion}`}
            briefId={b.id}
            version={b.currentVersion ?? 0}
            readOnly={me?.role === 'contact'}
            title={t('configurator.editTitle', { code: b.code })}
            companyName={b.company?.name}
            project={b.project}
            initial={{
              name: b.name,
              companyId: b.companyId,
              projectId: b.projectId,
              packingType: (b.packingType as PackingType | null | undefined) ?? null,
              elements: [...b.briefElements]
                .sort((x, y) => x.position - y.position)
                .map((e) => elementForm(e as Record<string, unknown>)),
            }}
            belowForm={<DieLineFiles brief={b} />}
          />
          <Card withBorder>
            <Group justify="space-between" mb="xs">
              <Title order={3} size="h4">
                {t('configurator.versions')}
              </Title>
              <Anchor component={Link} to={paths.briefVersions(b.id)} data-testid="open-revisions">
                {t('briefs.revisions.open')}
              </Anchor>
            </Group>
            <QueryState query={versions} isEmpty={(v) => v.data.length === 0}>
              {(v) => (
                <Table data-testid="versions">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>#</Table.Th>
                      <Table.Th>{t('common.updated')}</Table.Th>
                      <Table.Th ta="right">{t('configurator.price')}</Table.Th>
                      <Table.Th ta="right">{t('configurator.tooling')}</Table.Th>
                      <Table.Th ta="right">{t('configurator.delivery')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {v.data.map((p) => (
                      <Table.Tr key={p.id}>
                        <Table.Td>
                          <Anchor component={Link} to={paths.briefVersion(b.id, p.version)}>
                            {t('configurator.version', { n: p.version })}
                          </Anchor>{' '}
                          {p.version === v.currentVersion ? `(${t('configurator.current')})` : ''}
                        </Table.Td>
                        <Table.Td>{when(p.createdAt)}</Table.Td>
                        <Table.Td ta="right">{money(p.totalPrice, p.currency)}</Table.Td>
                        <Table.Td ta="right">{money(p.toolingCost, p.currency)}</Table.Td>
                        <Table.Td ta="right">{money(p.deliveryCost, p.currency)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </QueryState>
          </Card>
        </Stack>
      )}
    </QueryState>
  );
}

/** The saved brief's die-line files, per element (issue 28), once it has a priced version. */
function DieLineFiles({ brief }: { brief: NonNullable<ReturnType<typeof useBrief>['data']> }) {
  const { t } = useTranslation();
  if (!brief.currentVersion || !brief.briefElements.length) return null;
  return (
    <Card withBorder data-testid="die-line-files">
      <Title order={3} size="h4" mb="xs">
        {t('dielines.title')}
      </Title>
      <Group>
        {[...brief.briefElements]
          .sort((x, y) => x.position - y.position)
          .map((e) => (
            <Group key={e.position} gap="xs">
              <span>{t('dielines.element', { n: e.position + 1 })}</span>
              <DieLineDownloads briefId={brief.id} position={e.position} />
            </Group>
          ))}
      </Group>
    </Card>
  );
}
