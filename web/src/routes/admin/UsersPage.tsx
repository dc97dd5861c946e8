import { Anchor, Badge, Button, Group, Modal, Stack, Switch, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useAuth } from '../../api/auth.ts';
import { useApiAction } from '../../api/mutation.ts';
import { adminKeys, adminQueries, userApi } from '../../features/admin/api.ts';
import { ConfirmButton } from '../../features/admin/Confirm.tsx';
import { assignableRoles, mayActFor, mayManageUser, ROLES } from '../../features/admin/permissions.ts';
import { type User, UserForm } from '../../features/admin/UserForm.tsx';
import { useCan } from '../../features/admin/useCan.ts';
import { useEditor } from '../../features/admin/useEditor.ts';
import { InviteForm } from '../../features/contacts/ContactForm.tsx';
import { paths } from '../../paths.ts';
import { date } from '../../ui/format.ts';
import { Pager } from '../../ui/Pager.tsx';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, QueryState } from '../../ui/states.tsx';

/** Users of the organisation: search, role and archived filters in the URL; create, change, archive. */
export default function UsersPage() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const can = useCan();
  const manage = can('users:manage');
  const queryClient = useQueryClient();
  const action = useApiAction();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const role = params.get('role');
  const archived = params.get('archived') === 'true';
  const page = Number(params.get('page') ?? 1);
  const editor = useEditor<User>();
  const inviter = useEditor<User>();
  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next);
  };
  const query = useQuery({
    ...adminQueries.users({
      page,
      limit: 25,
      search: debounced || undefined,
      role: role ?? undefined,
      archived: archived || undefined,
    }),
    placeholderData: (previous) => previous,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.users });
  const actor = me ? { id: me.id, role: me.role } : undefined;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('admin.users.title')}</Title>
        {manage && <Button onClick={() => editor.open('new')}>{t('admin.users.new')}</Button>}
      </Group>
      <Group align="flex-end">
        <TextInput
          label={t('common.search')}
          value={search}
          maw={300}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setParam('search', e.currentTarget.value);
          }}
        />
        <Select
          label={t('admin.users.role')}
          placeholder={t('common.any')}
          data={ROLES.map((r) => ({ value: r, label: t(`admin.roles.${r}`) }))}
          value={role}
          onChange={(v) => setParam('role', v)}
          clearable
          w={200}
        />
        {manage && (
          <Switch
            label={t('admin.users.archived')}
            checked={archived}
            onChange={(e) => setParam('archived', e.currentTarget.checked ? 'true' : null)}
            mb={8}
          />
        )}
      </Group>
      {action.error !== undefined && <ErrorState error={action.error} />}
      <QueryState query={query} isEmpty={(d) => d.data.length === 0}>
        {(data) => (
          <>
            <Table striped highlightOnHover data-testid="users">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common.name')}</Table.Th>
                  <Table.Th>{t('common.email')}</Table.Th>
                  <Table.Th>{t('admin.users.role')}</Table.Th>
                  <Table.Th>{t('admin.users.lastSignIn')}</Table.Th>
                  <Table.Th>{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((u) => {
                  const target = { id: u.id, role: u.role };
                  const name = [u.firstName, u.lastName].filter(Boolean).join(' ') || '—';
                  return (
                    <Table.Tr key={u.id}>
                      <Table.Td>{name}</Table.Td>
                      <Table.Td>{u.email ?? '—'}</Table.Td>
                      <Table.Td>
                        <Badge variant="filled" color="gray.8">
                          {t(`admin.roles.${u.role}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{date(u.lastSignInAt)}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          {actor && manage && !u.deletedAt && mayManageUser(actor, target, 'edit') && (
                            <Button size="xs" variant="subtle" onClick={() => editor.open(u)}>
                              {t('common.edit')}
                            </Button>
                          )}
                          {manage && !u.deletedAt && u.role === 'contact' && !u.username && (
                            <Button size="xs" variant="subtle" onClick={() => inviter.open(u)}>
                              {t('contacts.invite')}
                            </Button>
                          )}
                          {actor && !u.deletedAt && mayActFor(actor, target) && (
                            <Anchor component={Link} size="sm" to={paths.adminTokens({ userId: u.id })}>
                              {t('admin.tokens.title')}
                            </Anchor>
                          )}
                          {actor &&
                            manage &&
                            mayManageUser(actor, target, 'archive') &&
                            (u.deletedAt ? (
                              <Button
                                size="xs"
                                variant="subtle"
                                loading={action.busy === u.id}
                                onClick={() =>
                                  action
                                    .run(u.id, () => userApi.unarchive(u.id), t('admin.users.unarchived'))
                                    .then(refresh)
                                }
                              >
                                {t('admin.users.unarchive')}
                              </Button>
                            ) : (
                              <ConfirmButton
                                label={t('admin.users.archive')}
                                question={t('admin.users.archiveQuestion', { name: u.email ?? name })}
                                loading={action.busy === u.id}
                                onConfirm={() =>
                                  action
                                    .run(
                                      u.id,
                                      () => userApi.removeArchived(u.id),
                                      t('admin.users.archivedDone'),
                                    )
                                    .then(refresh)
                                }
                              />
                            ))}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
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
      <Modal
        opened={editor.opened}
        onClose={editor.close}
        title={editor.isNew ? t('admin.users.new') : t('admin.users.edit')}
      >
        {me && editor.item && (
          <UserForm
            key={editor.key}
            user={editor.current}
            roles={assignableRoles(me.role)}
            onDone={async () => {
              editor.close();
              await refresh();
            }}
          />
        )}
      </Modal>
      <Modal opened={inviter.opened} onClose={inviter.close} title={t('contacts.invite')}>
        {inviter.current && (
          <InviteForm
            key={inviter.key}
            contactId={inviter.current.id}
            onDone={async () => {
              inviter.close();
              await refresh();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
