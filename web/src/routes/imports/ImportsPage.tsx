import { Anchor, Badge, Card, Grid, Group, MultiSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import {
  importKeys,
  importQueries,
  isRunning,
  PROGRESS_POLL_MS,
  STATUS_NAMES,
  statusColor,
  statusKey,
  useImportTypes,
} from '../../features/imports/api.ts';
import { dateTime, ImportProgress } from '../../features/imports/ImportResult.tsx';
import { Templates } from '../../features/imports/Templates.tsx';
import { UploadForm } from '../../features/imports/UploadForm.tsx';
import { paths } from '../../paths.ts';
import { number } from '../../ui/format.ts';
import { Pager } from '../../ui/Pager.tsx';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, QueryState } from '../../ui/states.tsx';

/** Upload a CSV file, download templates, and the imports with their status (filters in the URL). */
export default function ImportsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1);
  const statuses = params.get('status')?.split(',').filter(Boolean) ?? [];
  const type = params.get('type');
  const types = useImportTypes();
  const typeName = (code: string) => {
    const name = types.data?.find((ty) => ty.code === code)?.name ?? code;
    return t(`imports.types.${name}`, { defaultValue: name });
  };
  const list = useQuery({
    ...importQueries.list({
      page,
      limit: 25,
      status: statuses.join(',') || undefined,
      type: type ?? undefined,
    }),
    placeholderData: (previous) => previous,
    // Statuses move on their own (a worker runs them): read again whenever the page is shown.
    staleTime: 0,
    // While an import of the page runs, the list follows it too.
    refetchInterval: (query) =>
      query.state.data?.data.some((i) => isRunning(i.status)) ? PROGRESS_POLL_MS * 2 : false,
  });
  const setFilter = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next);
  };
  const statusLabel = (code: number) =>
    t(`imports.statuses.${STATUS_NAMES[code]}`, { defaultValue: String(code) });

  // imports:manage is for admins: a refused role sees the API's reason, not a form it cannot use.
  if (list.error instanceof ApiError && list.error.problem.status === 403)
    return (
      <Stack>
        <Title order={2}>{t('imports.title')}</Title>
        <ErrorState error={list.error} />
      </Stack>
    );
  return (
    <Stack>
      <Title order={2}>{t('imports.title')}</Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder>
            <Title order={3} mb="sm">
              {t('imports.upload')}
            </Title>
            <UploadForm
              onDone={(record) => {
                // The upload's answer is the first state the import page shows (then it polls).
                queryClient.setQueryData(['import', record.id], record);
                void queryClient.invalidateQueries({ queryKey: importKeys.lists() });
                navigate(paths.import(record.id));
              }}
            />
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder>
            <Templates />
          </Card>
        </Grid.Col>
      </Grid>
      <Title order={3}>{t('imports.list')}</Title>
      <Group align="flex-end">
        <MultiSelect
          label={t('imports.statusFilter')}
          data={[1, 2, 3, 4, 5, 7].map((code) => ({ value: String(code), label: statusLabel(code) }))}
          value={statuses}
          onChange={(values) => setFilter('status', values.join(','))}
          placeholder={statuses.length ? undefined : t('common.any')}
          searchable
          clearable
          w={360}
        />
        <Select
          searchable
          label={t('imports.typeFilter')}
          data={(types.data ?? []).map((ty) => ({ value: ty.code, label: typeName(ty.code) }))}
          value={type}
          onChange={(value) => setFilter('type', value)}
          placeholder={t('common.any')}
          clearable
          w={200}
        />
      </Group>
      <QueryState query={list} isEmpty={(d) => d.data.length === 0}>
        {(data) => (
          <>
            <Table striped highlightOnHover data-testid="imports-list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('imports.code')}</Table.Th>
                  <Table.Th>{t('imports.type')}</Table.Th>
                  <Table.Th>{t('common.status')}</Table.Th>
                  <Table.Th>{t('imports.progress')}</Table.Th>
                  <Table.Th>{t('imports.errors')}</Table.Th>
                  <Table.Th>{t('imports.createdAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((record) => (
                  <Table.Tr key={record.id}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.import(record.id)}>
                        {record.code}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      {typeName(record.type)}
                      {record.dryRun && (
                        <Badge ml="xs" size="sm" color="gray.7">
                          {t('imports.dryRunBadge')}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={statusColor(record.status)}>{t(statusKey(record))}</Badge>
                    </Table.Td>
                    <Table.Td miw={180}>
                      {isRunning(record.status) ? (
                        <ImportProgress record={record} />
                      ) : (
                        <Text size="sm">
                          {t('imports.rowsRead', { read: number(record.stats.rowsRead) })}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{number(record.stats.failed)}</Table.Td>
                    <Table.Td>{dateTime(record.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager
              meta={data.meta}
              onPage={(p) => {
                const next = new URLSearchParams(params);
                next.set('page', String(p));
                setParams(next);
              }}
            />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
