import { Alert, Badge, Button, Checkbox, Group, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { money, number } from '../../ui/format.ts';
import { QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { AdminTable, EditorModal, RowActions } from './AdminTable.tsx';
import { adminQueries, catalogueApi } from './api.ts';
import { type CatalogueEntry, type CataloguePath, num, useCatalogueChanged } from './catalogue.ts';
import { EstimateMark } from './estimates.tsx';
import { useEditor } from './useEditor.ts';

type Column = { key: string; label: string; price?: boolean; editable?: boolean };

/** Boards (price per tonne or per m²) and corrugated compositions (price per m²). */
export function MaterialsPanel({ manage, currency }: { manage: boolean; currency: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xl">
      <MaterialTable
        title={t('admin.catalogue.boards')}
        path="/api/material-references"
        manage={manage}
        currency={currency}
        columns={[
          { key: 'grammage', label: t('admin.catalogue.grammage') },
          { key: 'caliperMm', label: t('admin.catalogue.caliper') },
          { key: 'pricePerTonne', label: t('admin.catalogue.pricePerTonne'), price: true, editable: true },
          {
            key: 'pricePerSquareMetre',
            label: t('admin.catalogue.pricePerSquareMetre'),
            price: true,
            editable: true,
          },
        ]}
      />
      <MaterialTable
        title={t('admin.catalogue.corrugated')}
        path="/api/corrugated-material-compositions"
        manage={manage}
        currency={currency}
        columns={[
          { key: 'grammage', label: t('admin.catalogue.grammage') },
          {
            key: 'pricePerSquareMetre',
            label: t('admin.catalogue.pricePerSquareMetre'),
            price: true,
            editable: true,
          },
        ]}
      />
    </Stack>
  );
}

function MaterialTable({
  title,
  path,
  columns,
  manage,
  currency,
}: {
  title: string;
  path: CataloguePath;
  columns: Column[];
  manage: boolean;
  currency: string;
}) {
  const { t } = useTranslation();
  const editor = useEditor<CatalogueEntry>();
  const query = useQuery(adminQueries.materials(path));
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        {title}
      </Title>
      <QueryState query={query} isEmpty={(d) => d.length === 0}>
        {(list) => (
          <AdminTable
            manage={manage}
            head={
              <>
                <Table.Th>{t('common.name')}</Table.Th>
                {columns.map((c) => (
                  <Table.Th key={c.key} ta="right">
                    {c.label}
                  </Table.Th>
                ))}
              </>
            }
          >
            {list.map((m) => (
              <Table.Tr key={m.id}>
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
                {columns.map((c) => (
                  <Table.Td key={c.key} ta="right">
                    {c.price ? money(num(m, c.key), currency) : number(num(m, c.key))}
                    {c.price && <EstimateMark record={m} field={c.key} />}
                  </Table.Td>
                ))}
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
      <EditorModal editor={editor} title={editor.current?.name}>
        {(entry) => (
          <PriceForm
            path={path}
            entry={entry!}
            fields={columns.filter((c) => c.editable)}
            onDone={editor.close}
          />
        )}
      </EditorModal>
    </Stack>
  );
}

/**
 * Edits the prices of one record. An empty optional price (a board's price per m², which overrides
 * the tonne price) is simply not sent: the API keeps each field's type and has no "unset".
 */
function PriceForm({
  path,
  entry,
  fields,
  onDone,
}: {
  path: CataloguePath;
  entry: CatalogueEntry;
  fields: Column[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const changed = useCatalogueChanged();
  const [enabled, setEnabled] = useState(entry.enabled);
  const [values, setValues] = useState<Record<string, number | string>>(
    Object.fromEntries(fields.map((f) => [f.key, num(entry, f.key) ?? ''])),
  );
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const data = Object.fromEntries(
          Object.entries(values)
            .filter(([, v]) => v !== '')
            .map(([k, v]) => [k, Number(v)]),
        );
        const saved = await form.submit(
          () =>
            catalogueApi.update(path, entry.id, { enabled, ...(Object.keys(data).length ? { data } : {}) }),
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
        {fields.map((f) => (
          <NumberInput
            key={f.key}
            label={f.label}
            value={values[f.key]}
            onChange={(v) => setValues({ ...values, [f.key]: v })}
            min={0}
            decimalScale={4}
            error={form.error(`/data/${f.key}`)}
          />
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
