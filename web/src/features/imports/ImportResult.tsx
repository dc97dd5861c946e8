import { Alert, Button, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { number } from '../../ui/format.ts';

export const dateTime = (value: string) =>
  new Intl.DateTimeFormat(i18next.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(value),
  );

import { Empty } from '../../ui/states.tsx';
import { type ImportRecord, isRunning } from './api.ts';
import { downloadText, errorsCsv } from './csv.ts';
import { importErrorMessage } from './errors.ts';

/** How far an import is: rows committed of the rows the check pass counted (unknown before it). */
export function progressOf(record: ImportRecord): number | undefined {
  const { rowsRead, rowsTotal } = record.stats;
  if (!isRunning(record.status)) return 100;
  if (!rowsTotal) return undefined;
  return Math.min(100, Math.round((rowsRead / rowsTotal) * 100));
}

export function ImportProgress({ record }: { record: ImportRecord }) {
  const { t } = useTranslation();
  const value = progressOf(record);
  const running = isRunning(record.status);
  const { rowsRead, rowsTotal } = record.stats;
  const label =
    record.status === 1
      ? t('imports.waiting')
      : running && !rowsTotal
        ? t('imports.checking')
        : rowsTotal
          ? t('imports.rowsOf', { read: number(rowsRead), total: number(rowsTotal) })
          : t('imports.rowsRead', { read: number(rowsRead) });
  return (
    <Stack gap={4}>
      <Progress
        value={value ?? 100}
        animated={running}
        striped={running}
        color={record.status === 3 || record.status >= 6 ? 'red' : running ? 'blue' : 'teal'}
        aria-label={t('imports.progress')}
        data-testid="import-progress"
        data-value={value ?? ''}
      />
      <Text size="sm" data-testid="import-progress-label">
        {label}
      </Text>
    </Stack>
  );
}

function Count({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={testId}>
        {number(value)}
      </Text>
    </Paper>
  );
}

/** The counts and the refused rows (line, column, message), downloadable as CSV. */
export function ImportResult({ record }: { record: ImportRecord }) {
  const { t } = useTranslation();
  const { stats } = record;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, sm: 5 }}>
        <Count label={t('imports.created')} value={stats.created} testId="count-created" />
        <Count label={t('imports.updated')} value={stats.updated} testId="count-updated" />
        <Count label={t('imports.unchanged')} value={stats.unchanged} testId="count-unchanged" />
        <Count label={t('imports.deleted')} value={stats.deleted} testId="count-deleted" />
        <Count label={t('imports.errors')} value={stats.failed} testId="count-errors" />
      </SimpleGrid>
      {stats.reason && (
        <Alert color={record.status === 3 ? 'orange' : 'red'} title={t('imports.reason')}>
          <span data-testid="import-reason">{stats.reason}</span>
        </Alert>
      )}
      <Group justify="space-between">
        <Title order={3}>{t('imports.rowErrors')}</Title>
        {stats.errors.length > 0 && (
          <Button
            variant="default"
            size="xs"
            onClick={() =>
              downloadText(
                `import-${record.code}-errors.csv`,
                errorsCsv(stats.errors.map((e) => ({ ...e, message: importErrorMessage(e.message, t) }))),
              )
            }
          >
            {t('imports.downloadErrors')}
          </Button>
        )}
      </Group>
      {stats.failed > stats.errors.length && (
        <Text size="sm">{t('imports.firstErrors', { failed: number(stats.failed) })}</Text>
      )}
      {stats.errors.length === 0 ? (
        !isRunning(record.status) && <Empty>{t('imports.noErrors')}</Empty>
      ) : (
        <Table striped data-testid="import-errors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('imports.line')}</Table.Th>
              <Table.Th>{t('imports.column')}</Table.Th>
              <Table.Th>{t('imports.message')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stats.errors.map((e, i) => (
              // Errors have no id; a row may fail on several columns, so the index keeps keys unique.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
              <Table.Tr key={i}>
                <Table.Td>{e.row ?? '—'}</Table.Td>
                <Table.Td>{e.column ?? '—'}</Table.Td>
                <Table.Td>{importErrorMessage(e.message, t)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
