import { Badge, Card, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../api/auth.ts';
import { useApiAction } from '../../api/mutation.ts';
import { accessTokenApi, adminKeys, adminQueries } from '../../features/admin/api.ts';
import { ConfirmButton } from '../../features/admin/Confirm.tsx';
import { NewTokenForm } from '../../features/admin/NewTokenForm.tsx';
import { mayActFor } from '../../features/admin/permissions.ts';
import { useCan } from '../../features/admin/useCan.ts';
import { date } from '../../ui/format.ts';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, QueryState } from '../../ui/states.tsx';

/**
 * Access tokens (X-ACCESS-TOKEN) of a user: one's own, or, for admins, those of the users they may
 * act for (docs/permissions.md). A new token is shown once; the list shows only its prefix.
 */
export default function AccessTokensPage() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const can = useCan();
  const queryClient = useQueryClient();
  const action = useApiAction();
  const [params, setParams] = useSearchParams();
  const userId = params.get('userId') ?? me?.id ?? '';
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const pickUser = can('users:manage');
  const users = useQuery({
    ...adminQueries.users({ page: 1, limit: 100, search: debounced || undefined }),
    enabled: pickUser,
    placeholderData: (previous) => previous,
  });
  const owners = (users.data?.data ?? []).filter((u) => me && mayActFor(me, { id: u.id, role: u.role }));
  const owner = owners.find((u) => u.id === userId);
  // Offered for oneself and for the users the picker lists (those the actor may act for).
  const mayCreate = !!userId && (userId === me?.id || !!owner);
  const tokens = useQuery({ ...adminQueries.tokens(userId), enabled: !!userId });
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.tokens(userId) });
  const label = (u: {
    email: string | null;
    username: string | null;
    firstName: string | null;
    lastName: string | null;
  }) =>
    [[u.firstName, u.lastName].filter(Boolean).join(' '), u.email ?? u.username].filter(Boolean).join(' · ');
  return (
    <Stack>
      <Title order={2}>{t('admin.tokens.title')}</Title>
      <Text size="sm">{t('admin.tokens.intro')}</Text>
      {pickUser && (
        <Select
          label={t('admin.tokens.owner')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={owners.map((u) => ({ value: u.id, label: label(u) }))}
          value={owner ? userId : null}
          placeholder={owner || userId === me?.id ? undefined : t('admin.tokens.owner')}
          onChange={(v) => v && setParams({ userId: v })}
          nothingFoundMessage={t('common.empty')}
          maw={420}
        />
      )}
      {mayCreate && (
        <Card withBorder>
          <NewTokenForm userId={userId} onCreated={refresh} />
        </Card>
      )}
      {action.error !== undefined && <ErrorState error={action.error} />}
      <QueryState query={tokens} isEmpty={(d) => d.length === 0}>
        {(list) => (
          <Table striped data-testid="access-tokens">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('common.name')}</Table.Th>
                <Table.Th>{t('admin.tokens.prefix')}</Table.Th>
                <Table.Th>{t('admin.tokens.created')}</Table.Th>
                <Table.Th>{t('admin.tokens.lastUsed')}</Table.Th>
                <Table.Th>{t('admin.tokens.expires')}</Table.Th>
                <Table.Th>{t('common.status')}</Table.Th>
                <Table.Th>{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((token) => {
                const expired = !!token.expiresAt && new Date(token.expiresAt) <= new Date();
                const active = !token.revokedAt && !expired;
                return (
                  <Table.Tr key={token.id}>
                    <Table.Td>{token.name}</Table.Td>
                    <Table.Td>
                      <code>{token.prefix}…</code>
                    </Table.Td>
                    <Table.Td>{date(token.createdAt)}</Table.Td>
                    <Table.Td>{date(token.lastUsedAt)}</Table.Td>
                    <Table.Td>{date(token.expiresAt)}</Table.Td>
                    <Table.Td>
                      <Badge variant="filled" color={active ? 'teal.9' : 'gray.8'} data-testid="token-state">
                        {token.revokedAt
                          ? t('admin.tokens.revoked')
                          : expired
                            ? t('admin.tokens.expired')
                            : t('admin.tokens.active')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {active && (
                        <ConfirmButton
                          label={t('admin.tokens.revoke')}
                          question={t('admin.tokens.revokeQuestion', { name: token.name })}
                          loading={action.busy === token.id}
                          onConfirm={() =>
                            action
                              .run(
                                token.id,
                                () => accessTokenApi.revoke(userId, token.id),
                                t('admin.tokens.revokedDone'),
                              )
                              .then(refresh)
                          }
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Stack>
  );
}
