import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  ColorInput,
  ColorSwatch,
  Group,
  SimpleGrid,
  Stack,
  Table,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiAction } from '../../api/mutation.ts';
import { sharedQueries, statusKeys } from '../../api/queries.ts';
import type { components } from '../../api/schema.d.ts';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { statusLabel } from '../orders/statuses.tsx';
import { AdminTable, EditorModal, RowActions } from './AdminTable.tsx';
import { statusApi } from './api.ts';
import { useEditor } from './useEditor.ts';

type Status = components['schemas']['Status'];
export const STATUS_ENTITIES = ['order', 'quote', 'brief', 'article', 'project', 'company'] as const;
type Entity = (typeof STATUS_ENTITIES)[number];

/** The statuses of one entity in workflow order: name, colours, default, completed; reorder. */
export function StatusesPanel({ manage }: { manage: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const action = useApiAction();
  const [entity, setEntity] = useState<Entity>('order');
  const editor = useEditor<Status>();
  // The admin's list is read on each visit (others keep it for the session).
  const query = useQuery({ ...sharedQueries.statuses(entity), staleTime: 0 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: statusKeys.all });
  /** Swaps the positions of two neighbours (two PATCHes; the list is re-read after). */
  const move = (list: Status[], index: number, by: -1 | 1) => {
    const a = list[index]!;
    const b = list[index + by]!;
    const [pa, pb] = a.position === b.position ? [index + by, index] : [b.position, a.position];
    return action
      .run(a.id, async () => {
        await statusApi.update(a.id, { position: pa });
        await statusApi.update(b.id, { position: pb });
      })
      .then(refresh);
  };
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          label={t('admin.settings.entity')}
          data={STATUS_ENTITIES.map((e) => ({ value: e, label: t(`admin.entities.${e}`) }))}
          value={entity}
          onChange={(v) => v && setEntity(v as Entity)}
          allowDeselect={false}
          w={220}
        />
        {manage && <Button onClick={() => editor.open('new')}>{t('admin.statuses.new')}</Button>}
      </Group>
      {action.error !== undefined && <ErrorState error={action.error} />}
      <QueryState query={query} isEmpty={(d) => d.length === 0}>
        {(list) => (
          <AdminTable
            testId="statuses"
            manage={manage}
            head={
              <>
                <Table.Th>#</Table.Th>
                <Table.Th>{t('admin.statuses.internal')}</Table.Th>
                <Table.Th>{t('admin.statuses.external')}</Table.Th>
                <Table.Th>{t('admin.statuses.flags')}</Table.Th>
              </>
            }
          >
            {list.map((s, i) => (
              <Table.Tr key={s.id}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>
                  {/* The organisation's colours as a swatch; the name stays in body text, which
                        keeps its contrast whatever colours were chosen. */}
                  <Group gap="xs" wrap="nowrap">
                    <ColorSwatch color={s.color ?? '#ced4da'} size={16} aria-hidden />
                    <span>{statusLabel(s.internalLabel)}</span>
                  </Group>
                </Table.Td>
                <Table.Td>{statusLabel(s.externalLabel)}</Table.Td>
                <Table.Td>
                  {[
                    s.isDefault && t('admin.statuses.default'),
                    s.isCompleted && t('admin.statuses.completed'),
                    s.isOverdue && t('admin.statuses.overdue'),
                  ]
                    .filter(Boolean)
                    .join(' · ') || '—'}
                </Table.Td>
                {manage && (
                  <RowActions
                    name={statusLabel(s.internalLabel)}
                    onEdit={() => editor.open(s)}
                    onDelete={() => action.run(s.id, () => statusApi.remove(s.id)).then(refresh)}
                    before={
                      <>
                        <ActionIcon
                          variant="default"
                          aria-label={t('admin.statuses.up', { name: statusLabel(s.internalLabel) })}
                          disabled={i === 0 || !!action.busy}
                          onClick={() => move(list, i, -1)}
                        >
                          ↑
                        </ActionIcon>
                        <ActionIcon
                          variant="default"
                          aria-label={t('admin.statuses.down', { name: statusLabel(s.internalLabel) })}
                          disabled={i === list.length - 1 || !!action.busy}
                          onClick={() => move(list, i, 1)}
                        >
                          ↓
                        </ActionIcon>
                      </>
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
        title={editor.isNew ? t('admin.statuses.new') : t('common.edit')}
        onSaved={refresh}
      >
        {(status, done) => (
          <StatusForm entity={entity} status={status} position={query.data?.length ?? 0} onDone={done} />
        )}
      </EditorModal>
    </Stack>
  );
}

function StatusForm({
  entity,
  status,
  position,
  onDone,
}: {
  entity: Entity;
  status?: Status;
  position: number;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [v, setV] = useState({
    internalLabel: status?.internalLabel ?? '',
    externalLabel: status?.externalLabel ?? '',
    color: status?.color ?? '#1c7ed6',
    fgColor: status?.fgColor ?? '#ffffff',
    isDefault: status?.isDefault ?? false,
    isCompleted: status?.isCompleted ?? false,
    isOverdue: status?.isOverdue ?? false,
  });
  const check = (key: 'isDefault' | 'isCompleted' | 'isOverdue', label: string) => (
    <Checkbox
      label={label}
      checked={v[key]}
      onChange={(e) => setV({ ...v, [key]: e.currentTarget.checked })}
    />
  );
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const body = {
          ...v,
          externalLabel: v.externalLabel.trim() || v.internalLabel,
          color: v.color || null,
          fgColor: v.fgColor || null,
        };
        const saved = await form.submit(
          () =>
            status ? statusApi.update(status.id, body) : statusApi.create({ ...body, entity, position }),
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
          label={t('admin.statuses.internal')}
          description={
            statusLabel(v.internalLabel) !== v.internalLabel
              ? t('admin.statuses.defaultHelp', {
                  label: statusLabel(v.internalLabel),
                  stored: v.internalLabel,
                })
              : undefined
          }
          value={v.internalLabel}
          onChange={(e) => setV({ ...v, internalLabel: e.currentTarget.value })}
          error={form.error('/internalLabel')}
        />
        <TextInput
          label={t('admin.statuses.external')}
          description={t('admin.statuses.externalHelp')}
          value={v.externalLabel}
          onChange={(e) => setV({ ...v, externalLabel: e.currentTarget.value })}
          error={form.error('/externalLabel')}
        />
        <SimpleGrid cols={2}>
          <ColorInput
            label={t('admin.statuses.colour')}
            format="hex"
            value={v.color}
            onChange={(color) => setV({ ...v, color })}
            error={form.error('/color')}
          />
          <ColorInput
            label={t('admin.statuses.textColour')}
            format="hex"
            value={v.fgColor}
            onChange={(fgColor) => setV({ ...v, fgColor })}
            error={form.error('/fgColor')}
          />
        </SimpleGrid>
        {check('isDefault', t('admin.statuses.default'))}
        {check('isCompleted', t('admin.statuses.completed'))}
        {check('isOverdue', t('admin.statuses.overdue'))}
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {status ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
