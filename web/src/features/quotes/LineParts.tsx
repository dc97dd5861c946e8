import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { money, number } from '../../ui/format.ts';
import { serviceName, showsVariants } from './lines.ts';

type Parts = {
  id: string;
  variants?: {
    decorationIndex: number;
    name: string | null;
    artworkReference: string | null;
    quantity: number;
    amount: number | null;
  }[];
  tooling?: { code: string; name: string; amount: number }[];
};

/**
 * The parts of a quote line as rows under it: one per decoration variant (its quantity and its
 * share of the line's amount) and one per tool, named in the user's language. The tools are
 * inside the line's total (counted once); the variants add up to its goods.
 * `before` and `after` are the table's columns before the name and after the total.
 */
export function LineParts({
  item,
  currency,
  before,
  between,
  after,
}: {
  item: Parts;
  currency: string;
  before: number;
  between: number;
  after: number;
}) {
  const { t } = useTranslation();
  const variants = showsVariants(item.variants ?? []) ? (item.variants ?? []) : [];
  // Empty columns as one spanning cell (the table's own columns around name, quantity and total).
  const cells = (count: number) => (count > 0 ? <Table.Td colSpan={count} /> : null);
  return (
    <>
      {variants.map((variant) => (
        <Table.Tr key={`${item.id}-v${variant.decorationIndex}`} data-testid="quote-variant">
          {cells(before)}
          <Table.Td pl={48}>
            <Text size="sm" c="dimmed">
              {variant.name ?? t('lines.variant', { n: variant.decorationIndex + 1 })}
              {variant.artworkReference ? ` · ${t('lines.artwork')} ${variant.artworkReference}` : ''}
            </Text>
          </Table.Td>
          <Table.Td ta="right">
            <Text size="sm" c="dimmed">
              {number(variant.quantity)}
            </Text>
          </Table.Td>
          {cells(between)}
          <Table.Td ta="right">
            <Text size="sm" c="dimmed">
              {variant.amount === null ? '—' : money(variant.amount, currency)}
            </Text>
          </Table.Td>
          {cells(after)}
        </Table.Tr>
      ))}
      {(item.tooling ?? []).map((tool) => (
        <Table.Tr key={`${item.id}-t${tool.code}`} data-testid="quote-tool">
          {cells(before)}
          <Table.Td pl={48}>
            <Text size="sm">{serviceName(t, tool.code, tool.name)}</Text>
          </Table.Td>
          <Table.Td ta="right">
            <Text size="sm">{number(1)}</Text>
          </Table.Td>
          {cells(between)}
          <Table.Td ta="right">
            <Text size="sm" c="dimmed">
              {t('lines.toolingIncluded')} {money(tool.amount, currency)}
            </Text>
          </Table.Td>
          {cells(after)}
        </Table.Tr>
      ))}
    </>
  );
}
