import { Button, Group, Modal, Stack, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isStaff, useAuth } from '../../api/auth.ts';
import type { components } from '../../api/schema.d.ts';
import { contactKeys, contactQueries } from '../../features/contacts/api.ts';
import { ContactForm } from '../../features/contacts/ContactForm.tsx';
import { SignInBadge } from '../../features/contacts/SignInBadge.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { QueryState } from '../../ui/states.tsx';

/** Contacts, searched and paginated by the API (the crud grammar: `s`, `page`, `limit`). */
export default function ContactsPage() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const page = Number(params.get('page') ?? 1);
  const [opened, { open, close }] = useDisclosure();
  const [editing, setEditing] = useState<components['schemas']['Contact']>();
  // Every word in the first name, last name or e-mail: "Jane Picker" finds Jane Picker (the quote
  // page links its contact so).
  const words = debounced.trim().split(/\s+/).filter(Boolean);
  const s = words.length
    ? JSON.stringify({
        $and: words.map((word) => ({
          $or: ['firstName', 'lastName', 'email'].map((field) => ({ [field]: { $contL: word } })),
        })),
      })
    : undefined;
  const query = useQuery({
    ...contactQueries.list({ page, limit: 25, s, sort: ['lastName,ASC'] }),
    placeholderData: (previous) => previous,
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('contacts.title')}</Title>
        {isStaff(me?.role) && <Button onClick={open}>{t('contacts.new')}</Button>}
      </Group>
      <TextInput
        label={t('common.search')}
        value={search}
        maw={360}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setParams(e.currentTarget.value ? { search: e.currentTarget.value } : {});
        }}
      />
      <QueryState
        query={query}
        isEmpty={(d) => d.data.length === 0}
        empty={debounced ? t('common.noMatch') : undefined}
      >
        {(data) => (
          <>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common.name')}</Table.Th>
                  <Table.Th>{t('common.email')}</Table.Th>
                  <Table.Th>{t('contacts.signIn')}</Table.Th>
                  <Table.Th>{t('contacts.jobTitle')}</Table.Th>
                  <Table.Th>{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>{[c.firstName, c.lastName].filter(Boolean).join(' ') || '—'}</Table.Td>
                    <Table.Td>{c.email ?? '—'}</Table.Td>
                    <Table.Td>
                      <SignInBadge username={c.username} />
                    </Table.Td>
                    <Table.Td>{c.jobTitle ?? '—'}</Table.Td>
                    <Table.Td>
                      {isStaff(me?.role) && (
                        <Button size="xs" variant="subtle" onClick={() => setEditing(c)}>
                          {t('common.edit')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager
              meta={data.meta}
              onPage={(p) => setParams({ ...(search ? { search } : {}), page: String(p) })}
            />
          </>
        )}
      </QueryState>
      <Modal
        opened={opened || !!editing}
        onClose={() => {
          close();
          setEditing(undefined);
        }}
        title={editing ? t('common.edit') : t('contacts.new')}
      >
        <ContactForm
          contact={editing}
          onDone={async () => {
            close();
            setEditing(undefined);
            await queryClient.invalidateQueries({ queryKey: contactKeys.all });
          }}
        />
      </Modal>
    </Stack>
  );
}
