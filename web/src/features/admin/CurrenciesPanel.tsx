import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiAction } from '../../api/mutation.ts';
import type { components } from '../../api/schema.d.ts';
import { ErrorState, QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { AdminTable, EditorModal, RowActions } from './AdminTable.tsx';
import { adminKeys, adminQueries, currencyApi } from './api.ts';
import { useEditor } from './useEditor.ts';

type Currency = components['schemas']['Currency'];

/** The organisation's currencies with their rate to the base currency; the base cannot be deleted. */
export function CurrenciesPanel({ manage }: { manage: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const action = useApiAction();
  const editor = useEditor<Currency>();
  const query = useQuery(adminQueries.currencies());
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.currencies });
  return (
    <Stack>
      {manage && (
        <Group justify="flex-end">
          <Button onClick={() => editor.open('new')}>{t('admin.currencies.new')}</Button>
        </Group>
      )}
      {action.error !== undefined && <ErrorState error={action.error} />}
      <QueryState query={query} isEmpty={(d) => d.data.length === 0}>
        {(page) => (
          <AdminTable
            testId="currencies"
            manage={manage}
            head={
              <>
                <Table.Th>{t('admin.currencies.code')}</Table.Th>
                <Table.Th>{t('common.name')}</Table.Th>
                <Table.Th>{t('admin.currencies.symbol')}</Table.Th>
                <Table.Th ta="right">{t('admin.currencies.rate')}</Table.Th>
                <Table.Th>{t('admin.statuses.flags')}</Table.Th>
              </>
            }
          >
            {page.data.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.code}</Table.Td>
                <Table.Td>{c.name ?? '—'}</Table.Td>
                <Table.Td>{c.symbol}</Table.Td>
                <Table.Td ta="right">{c.rate}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {c.isBase && (
                      <Badge variant="filled" color="indigo.8">
                        {t('admin.currencies.base')}
                      </Badge>
                    )}
                    {c.isDefault && (
                      <Badge variant="filled" color="teal.9">
                        {t('admin.statuses.default')}
                      </Badge>
                    )}
                    {!c.enabled && (
                      <Badge variant="filled" color="gray.8">
                        {t('admin.disabled')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                {manage && (
                  <RowActions
                    name={c.code}
                    onEdit={() => editor.open(c)}
                    onDelete={
                      c.isBase
                        ? undefined
                        : () => action.run(c.id, () => currencyApi.remove(c.id)).then(refresh)
                    }
                  />
                )}
              </Table.Tr>
            ))}
          </AdminTable>
        )}
      </QueryState>
      <EditorModal
        editor={editor}
        title={editor.isNew ? t('admin.currencies.new') : t('common.edit')}
        onSaved={refresh}
      >
        {(currency, done) => <CurrencyForm currency={currency} onDone={done} />}
      </EditorModal>
    </Stack>
  );
}

function CurrencyForm({ currency, onDone }: { currency?: Currency; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [v, setV] = useState({
    code: currency?.code ?? '',
    name: currency?.name ?? '',
    symbol: currency?.symbol ?? '',
    rate: (currency?.rate ?? 1) as number | string,
    enabled: currency?.enabled ?? true,
    isDefault: currency?.isDefault ?? false,
  });
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const body = {
          code: v.code.trim().toUpperCase(),
          name: v.name.trim() || null,
          symbol: v.symbol.trim(),
          enabled: v.enabled,
          isDefault: v.isDefault,
          ...(currency?.isBase ? {} : { rate: typeof v.rate === 'number' ? v.rate : Number(v.rate) }),
        };
        const saved = await form.submit(
          () => (currency ? currencyApi.update(currency.id, body) : currencyApi.create(body)),
          t('common.saved'),
        );
        if (saved) onDone();
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <SimpleGrid cols={2}>
          <TextInput
            label={t('admin.currencies.code')}
            description="ISO 4217"
            value={v.code}
            onChange={(e) => setV({ ...v, code: e.currentTarget.value })}
            error={form.error('/code')}
          />
          <TextInput
            label={t('admin.currencies.symbol')}
            value={v.symbol}
            onChange={(e) => setV({ ...v, symbol: e.currentTarget.value })}
            error={form.error('/symbol')}
          />
        </SimpleGrid>
        <TextInput
          label={t('common.name')}
          value={v.name}
          onChange={(e) => setV({ ...v, name: e.currentTarget.value })}
          error={form.error('/name')}
        />
        <NumberInput
          label={t('admin.currencies.rate')}
          description={t('admin.currencies.rateHelp')}
          value={v.rate}
          onChange={(rate) => setV({ ...v, rate })}
          decimalScale={8}
          min={0}
          disabled={currency?.isBase}
          error={form.error('/rate')}
        />
        <Checkbox
          label={t('admin.currencies.enabled')}
          checked={v.enabled}
          onChange={(e) => setV({ ...v, enabled: e.currentTarget.checked })}
        />
        <Checkbox
          label={t('admin.currencies.isDefault')}
          checked={v.isDefault}
          onChange={(e) => setV({ ...v, isDefault: e.currentTarget.checked })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {currency ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
