import { Anchor, Badge, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useProjectOptions, useStatusOptions } from '../../api/queries.ts';
import { briefQueries } from '../../features/briefs/api/index.ts';
import { statusLabel } from '../../features/orders/statuses.tsx';
import { paths } from '../../paths.ts';
import { CompanyPicker } from '../../ui/CompanyPicker.tsx';
import { date, money } from '../../ui/format.ts';
import { Pager } from '../../ui/Pager.tsx';
import { Select } from '../../ui/Select.tsx';
import { QueryState } from '../../ui/states.tsx';

/** Briefs, server-paginated; filters (company, project, status, search) live in the URL. */
export default function BriefsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1);
  const companyId = params.get('companyId');
  const projectId = params.get('projectId');
  const status = params.get('status');
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const projects = useProjectOptions(companyId);
  const statuses = useStatusOptions('brief');
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  const query = useQuery({
    ...briefQueries.list({
      page,
      limit: 25,
      companyId: companyId ?? undefined,
      projectId: projectId ?? undefined,
      status: status ?? undefined,
      search: debounced || undefined,
    }),
    placeholderData: (previous) => previous,
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('briefs.title')}</Title>
        <Button component={Link} to={paths.newBrief()}>
          {t('briefs.new')}
        </Button>
      </Group>
      <Group align="flex-end">
        <TextInput
          label={t('common.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            set({ search: e.currentTarget.value || null });
          }}
        />
        <CompanyPicker
          label={t('common.company')}
          value={companyId}
          clearable
          onChange={(id) => set({ companyId: id, projectId: null })}
        />
        <Select
          searchable
          label={t('common.project')}
          data={projects}
          value={projectId}
          clearable
          onChange={(id) => set({ projectId: id })}
        />
        <Select
          label={t('common.status')}
          data={statuses}
          value={status}
          clearable
          onChange={(id) => set({ status: id })}
        />
      </Group>
      <QueryState
        query={query}
        isEmpty={(d) => d.data.length === 0}
        empty={companyId || projectId || status || debounced ? t('common.noMatch') : t('briefs.empty')}
      >
        {(data) => (
          <>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('briefs.code')}</Table.Th>
                  <Table.Th>{t('common.name')}</Table.Th>
                  <Table.Th>{t('common.company')}</Table.Th>
                  <Table.Th>{t('common.status')}</Table.Th>
                  <Table.Th>{t('briefs.prediction')}</Table.Th>
                  <Table.Th ta="right">{t('common.price')}</Table.Th>
                  <Table.Th>{t('common.updated')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((brief) => (
                  <Table.Tr key={brief.id}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.brief(brief.id)}>
                        {brief.code}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{brief.name}</Table.Td>
                    <Table.Td>{brief.company?.name ?? '—'}</Table.Td>
                    <Table.Td>{brief.status ? statusLabel(brief.status.internalLabel) : '—'}</Table.Td>
                    <Table.Td>
                      <Badge
                        color={
                          brief.predictionStatus === 'COMPLETED'
                            ? 'teal.9'
                            : brief.predictionStatus === 'FAILED'
                              ? 'red.9'
                              : 'gray.7'
                        }
                      >
                        {brief.predictionStatus}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">
                      {money(
                        (brief as { totalPrice?: number | null }).totalPrice,
                        (brief as { currency?: string | null }).currency ?? 'EUR',
                      )}
                    </Table.Td>
                    <Table.Td>{date(brief.updatedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager meta={data.meta} onPage={(p) => set({ page: String(p) })} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
