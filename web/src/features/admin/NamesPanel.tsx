import { Button, Group, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueEntry } from '../../api/queries.ts';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { adminQueries, catalogueApi } from './api.ts';
import { useCatalogueChanged } from './catalogue.ts';

/** The collections whose names buyers and the quote PDF read, per language. */
const KINDS = {
  products: '/api/products',
  materialReferences: '/api/material-references',
  operations: '/api/operations',
  machines: '/api/machines',
  productCategories: '/api/product-categories',
} as const;
type Kind = keyof typeof KINDS;
const LANGUAGES = ['en', 'fr', 'de'] as const;

/**
 * The names of styles, boards, operations (finishes among them), machines and categories in
 * English, French and German (catalogue:manage edits, PATCH {names}); the app shows them in the
 * user's language and the quote PDF in the quote's.
 */
export function NamesPanel({ manage }: { manage: boolean }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<Kind>('products');
  const query = useQuery(adminQueries.catalogueList(KINDS[kind]));
  return (
    <Stack gap="xs">
      <Text size="sm">{t('admin.catalogue.namesIntro')}</Text>
      <SegmentedControl
        value={kind}
        onChange={(v) => setKind(v as Kind)}
        data={(Object.keys(KINDS) as Kind[]).map((k) => ({
          value: k,
          label: t(`admin.catalogue.kinds.${k}`),
        }))}
      />
      <QueryState query={query}>
        {(entries) => (
          <ScrollingTable minWidth={720} label={t(`admin.catalogue.kinds.${kind}`)}>
            <Table data-testid="catalogue-names">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('lines.code')}</Table.Th>
                  {LANGUAGES.map((language) => (
                    <Table.Th key={language}>
                      {t('lines.nameIn', { language: language.toUpperCase() })}
                    </Table.Th>
                  ))}
                  {manage && <Table.Th>{t('common.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <NamesRow key={entry.id} path={KINDS[kind]} entry={entry} manage={manage} />
                ))}
              </Table.Tbody>
            </Table>
          </ScrollingTable>
        )}
      </QueryState>
    </Stack>
  );
}

function NamesRow({ path, entry, manage }: { path: string; entry: CatalogueEntry; manage: boolean }) {
  const { t } = useTranslation();
  const changed = useCatalogueChanged();
  const form = useApiForm();
  const stored = (entry.names ?? {}) as Record<string, string | undefined>;
  const initial = Object.fromEntries(LANGUAGES.map((l) => [l, stored[l] ?? ''])) as Record<string, string>;
  const [names, setNames] = useState(initial);
  const dirty = LANGUAGES.some((l) => names[l] !== initial[l]);
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {entry.code}
        </Text>
        <Text size="xs" c="dimmed">
          {entry.name}
        </Text>
      </Table.Td>
      {LANGUAGES.map((language) => (
        <Table.Td key={language}>
          <TextInput
            size="xs"
            aria-label={`${entry.code} ${t('lines.nameIn', { language: language.toUpperCase() })}`}
            value={names[language]}
            placeholder={entry.name}
            readOnly={!manage}
            error={form.error(`/names/${language}`)}
            onChange={(e) => setNames({ ...names, [language]: e.currentTarget.value })}
          />
        </Table.Td>
      ))}
      {manage && (
        <Table.Td>
          <Group gap={4}>
            <Button
              size="xs"
              disabled={!dirty}
              loading={form.busy}
              onClick={async () => {
                const body = {
                  names: Object.fromEntries(
                    LANGUAGES.filter((l) => names[l] !== initial[l]).map((l) => [l, names[l] || null]),
                  ),
                };
                const saved = await form.submit(
                  () => catalogueApi.rename(path, entry.id, body),
                  t('lines.namesSaved'),
                );
                if (saved) await changed();
              }}
            >
              {t('common.save')}
            </Button>
          </Group>
        </Table.Td>
      )}
    </Table.Tr>
  );
}
