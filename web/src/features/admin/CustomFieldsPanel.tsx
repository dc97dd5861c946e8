import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Stack,
  Table,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiAction } from '../../api/mutation.ts';
import type { components } from '../../api/schema.d.ts';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { AdminTable, EditorModal, RowActions } from './AdminTable.tsx';
import { adminKeys, adminQueries, customFieldApi } from './api.ts';
import { useEditor } from './useEditor.ts';

type Field = components['schemas']['CustomFieldDefinition'];
const ENTITIES = ['company', 'contact', 'order', 'order_item', 'article', 'project', 'quote'] as const;
type Entity = (typeof ENTITIES)[number];
const TYPES = ['string', 'number', 'boolean', 'select', 'multi-select'] as const;

/** Custom field definitions of one entity; key, entity and type are fixed once created (API rule). */
export function CustomFieldsPanel({ manage }: { manage: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const action = useApiAction();
  const [entity, setEntity] = useState<Entity>('order');
  const editor = useEditor<Field>();
  const query = useQuery(adminQueries.customFields(entity));
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.customFields });
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          searchable
          label={t('admin.settings.entity')}
          data={ENTITIES.map((e) => ({ value: e, label: t(`admin.entities.${e}`) }))}
          value={entity}
          onChange={(v) => v && setEntity(v as Entity)}
          allowDeselect={false}
          w={220}
        />
        {manage && <Button onClick={() => editor.open('new')}>{t('admin.fields.new')}</Button>}
      </Group>
      {action.error !== undefined && <ErrorState error={action.error} />}
      <QueryState query={query} isEmpty={(d) => d.data.length === 0}>
        {(page) => (
          <AdminTable
            testId="custom-fields"
            manage={manage}
            head={
              <>
                <Table.Th>{t('admin.fields.label')}</Table.Th>
                <Table.Th>{t('admin.fields.key')}</Table.Th>
                <Table.Th>{t('admin.fields.type')}</Table.Th>
                <Table.Th>{t('admin.fields.options')}</Table.Th>
                <Table.Th>{t('admin.fields.required')}</Table.Th>
              </>
            }
          >
            {page.data.map((f) => (
              <Table.Tr key={f.id}>
                <Table.Td>{f.label}</Table.Td>
                <Table.Td>
                  <code>{f.key}</code>
                </Table.Td>
                <Table.Td>{t(`admin.fields.types.${f.type}`)}</Table.Td>
                <Table.Td>{f.options?.join(', ') || '—'}</Table.Td>
                <Table.Td>{f.required ? t('admin.yes') : t('admin.no')}</Table.Td>
                {manage && (
                  <RowActions
                    name={f.label}
                    onEdit={() => editor.open(f)}
                    onDelete={() => action.run(f.id, () => customFieldApi.remove(f.id)).then(refresh)}
                  />
                )}
              </Table.Tr>
            ))}
          </AdminTable>
        )}
      </QueryState>
      <EditorModal
        editor={editor}
        title={editor.isNew ? t('admin.fields.new') : t('common.edit')}
        onSaved={refresh}
      >
        {(field, done) => <FieldForm entity={entity} field={field} onDone={done} />}
      </EditorModal>
    </Stack>
  );
}

function FieldForm({ entity, field, onDone }: { entity: Entity; field?: Field; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [v, setV] = useState({
    key: field?.key ?? '',
    label: field?.label ?? '',
    type: (field?.type ?? 'string') as (typeof TYPES)[number],
    options: field?.options ?? [],
    required: field?.required ?? false,
    position: (field?.position ?? 0) as number | string,
  });
  const withOptions = v.type === 'select' || v.type === 'multi-select';
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const common = {
          label: v.label,
          required: v.required,
          position: Number(v.position) || 0,
          ...(withOptions ? { options: v.options } : {}),
        };
        const saved = await form.submit(
          () =>
            field
              ? customFieldApi.update(field.id, common)
              : customFieldApi.create({ ...common, entity, key: v.key, type: v.type }),
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
        <TextInput
          label={t('admin.fields.label')}
          value={v.label}
          onChange={(e) => setV({ ...v, label: e.currentTarget.value })}
          error={form.error('/label')}
        />
        <TextInput
          label={t('admin.fields.key')}
          description={t('admin.fields.keyHelp')}
          value={v.key}
          disabled={!!field}
          onChange={(e) => setV({ ...v, key: e.currentTarget.value })}
          error={form.error('/key')}
        />
        <Select
          label={t('admin.fields.type')}
          data={TYPES.map((type) => ({ value: type, label: t(`admin.fields.types.${type}`) }))}
          value={v.type}
          disabled={!!field}
          onChange={(type) => type && setV({ ...v, type: type as (typeof TYPES)[number] })}
          allowDeselect={false}
          error={form.error('/type')}
        />
        {withOptions && (
          <TagsInput
            label={t('admin.fields.options')}
            description={t('admin.fields.optionsHelp')}
            value={v.options}
            onChange={(options) => setV({ ...v, options })}
            error={form.error('/options')}
          />
        )}
        <NumberInput
          label={t('admin.fields.position')}
          value={v.position}
          onChange={(position) => setV({ ...v, position })}
          min={0}
          allowDecimal={false}
          error={form.error('/position')}
        />
        <Checkbox
          label={t('admin.fields.required')}
          checked={v.required}
          onChange={(e) => setV({ ...v, required: e.currentTarget.checked })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {field ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
