import { Alert, Badge, Button, Checkbox, Group, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { money, number } from '../../ui/format.ts';
import { QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { AdminTable, EditorModal, RowActions } from './AdminTable.tsx';
import { adminQueries, catalogueApi } from './api.ts';
import { type CatalogueEntry, type MachineRate, num, useCatalogueChanged } from './catalogue.ts';
import { EstimateMark } from './estimates.tsx';
import { useEditor } from './useEditor.ts';

/** Machines with their hourly rate and, per operation, speed, set-up time and make-ready. */
export function MachinesPanel({ manage, currency }: { manage: boolean; currency: string }) {
  const { t } = useTranslation();
  const editor = useEditor<CatalogueEntry>();
  const machines = useQuery(adminQueries.catalogueList('/api/machines'));
  const operations = useQuery({ ...adminQueries.catalogueList('/api/operations'), staleTime: 5 * 60_000 });
  const operationName = (id: string) => operations.data?.find((o) => o.id === id)?.name ?? id;
  return (
    <>
      <QueryState query={machines} isEmpty={(d) => d.length === 0}>
        {(list) => (
          <AdminTable
            testId="machines"
            manage={manage}
            head={
              <>
                <Table.Th>{t('common.name')}</Table.Th>
                <Table.Th ta="right">{t('admin.catalogue.hourlyRate')}</Table.Th>
                <Table.Th>{t('admin.catalogue.speeds')}</Table.Th>
              </>
            }
          >
            {list.map((m) => (
              <Table.Tr key={m.id} data-testid={`machine-${m.code}`}>
                <Table.Td>
                  {m.name}
                  <Text size="xs" c="dimmed">
                    {m.code}
                  </Text>
                  {!m.enabled && (
                    <Badge variant="filled" color="gray.8" size="sm">
                      {t('admin.disabled')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right" data-testid="hourly-rate">
                  {money(num(m, 'hourlyRate'), currency)}
                  <EstimateMark record={m} field="hourlyRate" />
                </Table.Td>
                <Table.Td>
                  {((m.operations as MachineRate[] | undefined) ?? []).map((r) => (
                    <Text size="sm" key={r.operationId}>
                      {operationName(r.operationId)}: {number(r.speedPerHour)}/h ·{' '}
                      {t('admin.catalogue.setupShort', { hours: r.setupHours })}
                    </Text>
                  ))}
                </Table.Td>
                {manage && (
                  <RowActions
                    name={m.name}
                    onEdit={() => editor.open(m)}
                    editLabel={`${t('common.edit')} ${m.name}`}
                  />
                )}
              </Table.Tr>
            ))}
          </AdminTable>
        )}
      </QueryState>
      <EditorModal editor={editor} title={editor.current?.name} size="lg">
        {(machine) => <MachineForm machine={machine!} operationName={operationName} onDone={editor.close} />}
      </EditorModal>
    </>
  );
}

function MachineForm({
  machine,
  operationName,
  onDone,
}: {
  machine: CatalogueEntry;
  operationName: (id: string) => string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const changed = useCatalogueChanged();
  const [hourlyRate, setHourlyRate] = useState<number | string>(num(machine, 'hourlyRate') ?? 0);
  const [enabled, setEnabled] = useState(machine.enabled);
  const [rates, setRates] = useState<MachineRate[]>(
    structuredClone((machine.operations as MachineRate[]) ?? []),
  );
  const setRate = (index: number, key: 'speedPerHour' | 'setupHours' | 'makeReady', value: number | string) =>
    setRates(
      rates.map((r, i) =>
        i === index ? { ...r, [key]: typeof value === 'number' ? value : Number(value) } : r,
      ),
    );
  const field = (index: number, key: 'speedPerHour' | 'setupHours' | 'makeReady', label: string) => (
    <NumberInput
      label={label}
      value={rates[index]![key]}
      onChange={(v) => setRate(index, key, v)}
      min={0}
      decimalScale={4}
      error={form.error(`/data/operations/${index}/${key}`)}
    />
  );
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        // The operations array is replaced whole (docs/pricing.md), so every rate is sent back.
        const body = {
          enabled,
          data: {
            hourlyRate: typeof hourlyRate === 'number' ? hourlyRate : Number(hourlyRate),
            operations: rates,
          },
        };
        const saved = await form.submit(
          () => catalogueApi.updateMachine(machine.id, body),
          t('admin.catalogue.saved'),
        );
        if (saved) {
          await changed();
          onDone();
        }
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <NumberInput
          label={t('admin.catalogue.hourlyRate')}
          value={hourlyRate}
          onChange={setHourlyRate}
          min={0}
          decimalScale={2}
          error={form.error('/data/hourlyRate')}
        />
        {rates.map((r, i) => (
          <Stack key={r.operationId} gap={4}>
            <Text fw={600} size="sm">
              {operationName(r.operationId)}
            </Text>
            <Group grow>
              {field(i, 'speedPerHour', t('admin.catalogue.speedPerHour'))}
              {field(i, 'setupHours', t('admin.catalogue.setupHours'))}
              {field(i, 'makeReady', t('admin.catalogue.makeReady'))}
            </Group>
          </Stack>
        ))}
        <Checkbox
          label={t('admin.enabled')}
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
