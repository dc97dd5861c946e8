import { Button, Group, Modal, type ModalProps, Table } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from './Confirm.tsx';
import type { useEditor } from './useEditor.ts';

/**
 * The settings and catalogue tables: a striped table whose header ends with an actions column when
 * the user may manage the rows (each row then ends with its <RowActions>).
 */
export function AdminTable({
  testId,
  manage,
  head,
  children,
}: {
  testId?: string;
  manage: boolean;
  /** The <Table.Th> cells before the actions column. */
  head: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Table striped data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          {head}
          {manage && <Table.Th>{t('common.actions')}</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}

/**
 * A row's actions cell: Edit, then Delete after a confirmation naming the row (left out without
 * onDelete); `before` goes first (the statuses' reorder arrows).
 */
export function RowActions({
  name,
  onEdit,
  editLabel,
  onDelete,
  before,
}: {
  name: string;
  onEdit: () => void;
  /** The Edit button's accessible name, where rows need telling apart. */
  editLabel?: string;
  onDelete?: () => unknown;
  before?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Table.Td>
      <Group gap={4} wrap="nowrap">
        {before}
        <Button size="xs" variant="subtle" onClick={onEdit} aria-label={editLabel}>
          {t('common.edit')}
        </Button>
        {onDelete && (
          <ConfirmButton
            label={t('admin.delete')}
            question={t('admin.deleteQuestion', { name })}
            onConfirm={onDelete}
          />
        )}
      </Group>
    </Table.Td>
  );
}

/**
 * The modal of a useEditor: the form (children, given the item or undefined for a new one, and
 * `done` to call once saved: closes, then onSaved) is remounted on every opening and rendered only
 * while there is an item.
 */
export function EditorModal<T>({
  editor,
  title,
  children,
  size,
  onSaved,
}: {
  editor: ReturnType<typeof useEditor<T>>;
  title: ReactNode;
  children: (item: T | undefined, done: () => Promise<void>) => ReactNode;
  size?: ModalProps['size'];
  /** After a save (the list's refresh). */
  onSaved?: () => unknown;
}) {
  const done = async () => {
    editor.close();
    await onSaved?.();
  };
  return (
    <Modal opened={editor.opened} onClose={editor.close} title={title} size={size}>
      {editor.item && <Fragment key={editor.key}>{children(editor.current, done)}</Fragment>}
    </Modal>
  );
}
