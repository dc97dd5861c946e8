import { Anchor, Button, Group, Modal, Stack, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isStaff, useAuth } from '../../api/auth.ts';
import { companyKeys, companyQueries } from '../../features/companies/api.ts';
import { paths } from '../../paths.ts';
import { Pager } from '../../ui/Pager.tsx';
import { QueryState } from '../../ui/states.tsx';
import { CompanyForm } from './CompanyForm.tsx';

export default function CompaniesPage() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const page = Number(params.get('page') ?? 1);
  const [opened, { open, close }] = useDisclosure();
  const query = useQuery({
    ...companyQueries.list({ page, limit: 25, search: debounced || undefined }),
    placeholderData: (previous) => previous,
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('companies.title')}</Title>
        {isStaff(me?.role) && <Button onClick={open}>{t('companies.new')}</Button>}
      </Group>
      <TextInput
        label={t('common.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setParams(e.currentTarget.value ? { search: e.currentTarget.value } : {});
        }}
        maw={360}
      />
      <QueryState
        query={query}
        isEmpty={(d) => d.data.length === 0}
        empty={debounced ? t('common.noMatch') : undefined}
      >
        {(data) => (
          <>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common.name')}</Table.Th>
                  <Table.Th>{t('common.email')}</Table.Th>
                  <Table.Th>{t('common.phone')}</Table.Th>
                  <Table.Th>{t('companies.vat')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.company(c.id)}>
                        {c.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{c.email ?? '—'}</Table.Td>
                    <Table.Td>{c.phoneNumber ?? '—'}</Table.Td>
                    <Table.Td>{c.vatNumber ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager
              meta={data.meta}
              onPage={(p) => setParams({ ...(search ? { search } : {}), page: String(p) })}
            />
          </>
        )}
      </QueryState>
      <Modal opened={opened} onClose={close} title={t('companies.new')}>
        <CompanyForm
          onDone={async (company) => {
            close();
            await queryClient.invalidateQueries({ queryKey: companyKeys.lists() });
            navigate(paths.company(company.id));
          }}
        />
      </Modal>
    </Stack>
  );
}
