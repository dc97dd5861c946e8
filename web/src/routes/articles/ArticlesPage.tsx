import { Anchor, Badge, Button, Group, Modal, Stack, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isStaff, useAuth } from '../../api/auth.ts';
import { ArticleForm } from '../../features/articles/ArticleForm.tsx';
import { articleQueries } from '../../features/articles/api.ts';
import { paths } from '../../paths.ts';
import { CompanyPicker } from '../../ui/CompanyPicker.tsx';
import { money, number } from '../../ui/format.ts';
import { Pager } from '../../ui/Pager.tsx';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { Select } from '../../ui/Select.tsx';
import { QueryState } from '../../ui/states.tsx';

/** The catalogue: articles with company, enabled, stocked and text filters (all in the URL). */
export default function ArticlesPage() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const staff = isStaff(me?.role);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [creating, create] = useDisclosure();
  const page = Number(params.get('page') ?? 1);
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the debounced text changes
  useEffect(() => {
    if ((debounced || null) !== params.get('search')) set({ search: debounced || null });
  }, [debounced]);
  const yes = (key: 'enabled' | 'stocked') => (params.has(key) ? params.get(key) === 'true' : undefined);
  const filters = {
    search: params.get('search') ?? undefined,
    companyId: params.get('companyId') ?? undefined,
    enabled: yes('enabled'),
    stocked: yes('stocked'),
  };
  const query = useQuery({
    ...articleQueries.list({ page, limit: 25, ...filters }),
    placeholderData: (previous) => previous,
  });
  const yesNo = (key: 'enabled' | 'stocked', label: string) => (
    <Select
      label={label}
      clearable
      value={params.get(key)}
      onChange={(value) => set({ [key]: value })}
      data={[
        { value: 'true', label: t('articles.yes') },
        { value: 'false', label: t('articles.no') },
      ]}
      w={130}
    />
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('articles.title')}</Title>
        {staff && <Button onClick={create.open}>{t('articles.new')}</Button>}
      </Group>
      <Group align="flex-end">
        <TextInput
          label={t('common.search')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        {staff && (
          <CompanyPicker
            label={t('common.company')}
            value={params.get('companyId')}
            clearable
            onChange={(id) => set({ companyId: id })}
          />
        )}
        {yesNo('enabled', t('articles.enabled'))}
        {yesNo('stocked', t('articles.stocked'))}
      </Group>
      <QueryState query={query} isEmpty={(d) => d.data.length === 0}>
        {(data) => (
          <>
            <ScrollingTable minWidth={700} label={t('articles.title')}>
              <Table striped highlightOnHover data-testid="articles-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('articles.code')}</Table.Th>
                    <Table.Th>{t('common.name')}</Table.Th>
                    <Table.Th>{t('common.company')}</Table.Th>
                    <Table.Th ta="right">{t('articles.price')}</Table.Th>
                    <Table.Th ta="right">{t('articles.stock')}</Table.Th>
                    <Table.Th>{t('common.status')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.data.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td>
                        <Anchor component={Link} to={paths.article(a.id)}>
                          {a.code}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{a.name}</Table.Td>
                      <Table.Td>{a.company?.name ?? '—'}</Table.Td>
                      <Table.Td ta="right">{money(a.price, a.currency?.code ?? 'EUR', 4)}</Table.Td>
                      <Table.Td ta="right">
                        {a.stocked ? number(a.quantity) : t('articles.onDemand')}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={a.enabled ? 'teal.9' : 'gray.7'}>
                          {a.enabled ? t('articles.enabled') : t('articles.disabled')}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollingTable>
            <Pager meta={data.meta} onPage={(p) => set({ page: String(p) })} />
          </>
        )}
      </QueryState>
      <Modal opened={creating} onClose={create.close} title={t('articles.new')} size="lg">
        <ArticleForm
          onDone={(article) => {
            create.close();
            navigate(paths.article(article.id));
          }}
        />
      </Modal>
    </Stack>
  );
}
