import { Anchor, Badge, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isStaff, useAuth } from '../../api/auth.ts';
import { QuoteCards } from '../../features/portal/lists.tsx';
import { quoteQueries } from '../../features/quotes/api/index.ts';
import { paths } from '../../paths.ts';
import { CompanyPicker } from '../../ui/CompanyPicker.tsx';
import { date, money } from '../../ui/format.ts';
import { Pager } from '../../ui/Pager.tsx';
import { Select } from '../../ui/Select.tsx';
import { QueryState } from '../../ui/states.tsx';

export const STATE_COLOURS: Record<string, string> = {
  draft: 'gray.7',
  published: 'blue.9',
  signed: 'teal.9',
  rejected: 'red.9',
  expired: 'orange.9',
};

/** Quotes: staff see their organisation's (or their companies'), a buyer only their companies' published ones. */
export default function QuotesPage() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const staff = isStaff(me?.role);
  // A phone lists cards (no sideways scroll, state and total readable); wider screens a table.
  const phone = useMediaQuery('(max-width: 48em)');
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1);
  const state = params.get('status');
  const companyId = params.get('companyId');
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  const query = useQuery({
    ...quoteQueries.list({
      page,
      limit: 25,
      status: state ?? undefined,
      companyId: companyId ?? undefined,
      search: debounced || undefined,
    }),
    placeholderData: (previous) => previous,
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{staff ? t('quotes.title') : t('nav.myQuotes')}</Title>
        {staff && (
          <Button component={Link} to={paths.newQuote()}>
            {t('quotes.new')}
          </Button>
        )}
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
        {staff && (
          <CompanyPicker
            label={t('common.company')}
            value={companyId}
            clearable
            onChange={(id) => set({ companyId: id })}
          />
        )}
        <Select
          label={t('quotes.state')}
          clearable
          value={state}
          onChange={(value) => set({ status: value })}
          data={['draft', 'published', 'signed', 'rejected', 'expired'].map((s) => ({
            value: s,
            label: t(`quotes.states.${s}`),
          }))}
        />
      </Group>
      <QueryState
        query={query}
        isEmpty={(d) => d.data.length === 0}
        empty={state || companyId || debounced ? t('common.noMatch') : undefined}
      >
        {(data) => (
          <>
            {phone ? (
              <QuoteCards quotes={data.data} />
            ) : (
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('briefs.code')}</Table.Th>
                    <Table.Th>{t('common.name')}</Table.Th>
                    <Table.Th>{t('common.company')}</Table.Th>
                    <Table.Th>{t('quotes.state')}</Table.Th>
                    <Table.Th>{t('quotes.validUntil')}</Table.Th>
                    <Table.Th ta="right">{t('quotes.total')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.data.map((q) => (
                    <Table.Tr key={q.id}>
                      <Table.Td>
                        <Anchor component={Link} to={paths.quote(q.id)}>
                          {q.code ?? `${t('quotes.states.draft')} v${q.version}`}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{q.name}</Table.Td>
                      <Table.Td>{q.company?.name ?? '—'}</Table.Td>
                      <Table.Td>
                        <Badge color={STATE_COLOURS[q.state]}>{t(`quotes.states.${q.state}`)}</Badge>
                      </Table.Td>
                      <Table.Td>{date(q.validUntil)}</Table.Td>
                      <Table.Td ta="right">{money(q.totalPrice, q.currency)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Pager meta={data.meta} onPage={(p) => set({ page: String(p) })} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
