import { List, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { useDescribe } from './describe.ts';
import type { Difference } from './versions.ts';

/** "Item 1 · Width (mm)" or "Packing". */
function useWhere() {
  const { t } = useTranslation();
  const { label } = useDescribe();
  return (d: Difference) =>
    d.element === null
      ? label(d.field)
      : d.field === 'element'
        ? t('configurator.element', { n: d.element + 1 })
        : `${t('configurator.element', { n: d.element + 1 })} · ${label(d.field)}`;
}

/** The differences from a version to the next, as a short list ("Item 1 · Width: 40 → 45"). */
export function ChangeList({ changes }: { changes: Difference[] }) {
  const { t } = useTranslation();
  const { value } = useDescribe();
  const where = useWhere();
  if (!changes.length) return <Text size="sm">{t('briefs.revisions.noChange')}</Text>;
  return (
    <List size="sm" spacing={2}>
      {changes.map((d) => (
        <List.Item key={`${d.element}-${d.field}`}>
          {t('briefs.revisions.change', {
            where: where(d),
            what:
              d.field === 'element'
                ? `${value('element', d.from ?? d.to)} ${d.to === undefined ? t('briefs.revisions.removed') : t('briefs.revisions.added')}`
                : `${value(d.field, d.from)} → ${value(d.field, d.to)}`,
          })}
        </List.Item>
      ))}
    </List>
  );
}

/** A version beside another (the current one): one row per difference. */
export function CompareTable({
  changes,
  leftTitle,
  rightTitle,
}: {
  changes: Difference[];
  leftTitle: string;
  rightTitle: string;
}) {
  const { t } = useTranslation();
  const { value } = useDescribe();
  const where = useWhere();
  return (
    <ScrollingTable minWidth={520} label={`${leftTitle} · ${rightTitle}`}>
      <Table striped data-testid="version-compare">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('briefs.revisions.field')}</Table.Th>
            <Table.Th>{leftTitle}</Table.Th>
            <Table.Th>{rightTitle}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.map((d) => (
            <Table.Tr key={`${d.element}-${d.field}`}>
              <Table.Td>{where(d)}</Table.Td>
              <Table.Td>{d.field === 'element' ? value('element', d.from) : value(d.field, d.from)}</Table.Td>
              <Table.Td>{d.field === 'element' ? value('element', d.to) : value(d.field, d.to)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollingTable>
  );
}
