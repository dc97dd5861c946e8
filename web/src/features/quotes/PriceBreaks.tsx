import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Radio,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { money, number, separators } from '../../ui/format.ts';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { briefQueries } from '../briefs/api/index.ts';
import { quoteQueries } from './api/index.ts';
import { lineName } from './lines.ts';

type Quote = components['schemas']['Quote'];
type Item = components['schemas']['QuoteItemChild'];
type Column = Quote['priceBreakColumns'][number];

/** At most this many columns on a line (the API refuses more). */
export const MAX_PRICE_BREAKS = 6;
/** Quantity factors suggested for an article line (a brief element takes its brief's curve). */
const ARTICLE_FACTORS = [0.5, 1, 2, 5, 10];

/** The counted lines offering columns, with their number as on the PDF (1, 1.1...). */
function linesWithBreaks(quote: Quote) {
  return quote.items.flatMap((root, i) => {
    const children = (root.children ?? []) as Item[];
    const entries = children.length
      ? children.map((child, j) => ({ no: `${i + 1}.${j + 1}`, item: child }))
      : [{ no: String(i + 1), item: root as Item }];
    return entries.filter((entry) => entry.item.priceBreaks.length > 0);
  });
}

/** "Option 2 · 2,500": a column's heading (its quantity when every line has the same there). */
export function columnLabel(column: Column, t: TFunction) {
  const name = t('quotes.breaks.column', { position: column.position });
  return column.quantity == null ? name : `${name} · ${number(column.quantity)}`;
}

/**
 * The quote's price-break columns as the buyer reads them: per line offering columns its
 * quantity, unit price and total in each column, and the quote's total per column.
 */
export function PriceBreaksTable({ quote }: { quote: Quote }) {
  const { t, i18n } = useTranslation();
  const columns = quote.priceBreakColumns;
  const lines = linesWithBreaks(quote);
  // A signed quote marks the column its buyer chose (the acceptance's evidence).
  const acceptance = useQuery({
    ...quoteQueries.acceptance(quote.id),
    enabled: quote.state === 'signed' && columns.length > 0,
    retry: false,
  });
  const chosen = (acceptance.data?.option as { id?: unknown } | null | undefined)?.id;
  if (!columns.length || !lines.length) return null;
  return (
    <Card withBorder data-testid="price-breaks">
      <Title order={3} size="h4">
        {t('quotes.breaks.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('quotes.breaks.note')}
      </Text>
      <ScrollingTable minWidth={160 + columns.length * 120} label={t('quotes.breaks.title')}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('common.name')}</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.id} ta="right">
                  {columnLabel(column, t)}
                  {column.id === chosen && (
                    <Badge ml={6} color="teal.9" data-testid="price-break-chosen">
                      {t('quotes.breaks.chosen')}
                    </Badge>
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map(({ no, item }) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Text size="sm">
                    {no} {lineName(item, i18n.language)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('quotes.quantity')} / {t('quotes.unitPrice')} / {t('quotes.total')}
                  </Text>
                </Table.Td>
                {columns.map((column) => {
                  const cell = item.priceBreaks[column.position - 1];
                  return (
                    <Table.Td key={column.id} ta="right" data-testid="price-break-cell">
                      <Text size="sm">{number(cell ? cell.quantity : item.quantity)}</Text>
                      <Text size="xs" c="dimmed">
                        {money(cell ? cell.unitPrice : item.price, quote.currency, 4)}
                      </Text>
                      <Text size="sm" fw={600}>
                        {money(cell ? cell.totalPrice : item.totalPrice, quote.currency)}
                      </Text>
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td fw={700}>{t('quotes.breaks.columnTotal')}</Table.Td>
              {columns.map((column) => (
                <Table.Td key={column.id} ta="right" fw={700} data-testid="price-break-total">
                  {money(column.totalPrice, quote.currency)}
                </Table.Td>
              ))}
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </ScrollingTable>
    </Card>
  );
}

/**
 * The price-break quantities of a line in its editor: the current ones (each removable), one to
 * type, and suggestions from the brief's quantity curve (its factors x the line's quantity; an
 * article line: usual factors). The API prices each column when the line is saved.
 */
export function PriceBreaksField({
  item,
  value,
  onChange,
  error,
}: {
  item: Item;
  value: number[];
  onChange: (quantities: number[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState<number | string>('');
  const panel = useQuery({
    ...briefQueries.predictionPanel(item.briefId ?? ''),
    enabled: Boolean(item.briefElementId && item.briefId),
    retry: false,
  });
  const factors = item.briefElementId
    ? (panel.data?.quantityCurve ?? []).map((point) => point.factor)
    : ARTICLE_FACTORS;
  const suggestions = [...new Set(factors.map((factor) => Math.round(item.quantity * factor)))]
    .filter((quantity) => quantity > 0 && !value.includes(quantity))
    .sort((a, b) => a - b);
  const full = value.length >= MAX_PRICE_BREAKS;
  const add = (quantity: number) => {
    if (!full && quantity > 0 && !value.includes(quantity))
      onChange([...value, quantity].sort((a, b) => a - b));
  };
  return (
    <Stack gap={6} data-testid="price-breaks-field">
      <Text size="sm" fw={500}>
        {t('quotes.breaks.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('quotes.breaks.hint', { max: MAX_PRICE_BREAKS })}
      </Text>
      <Group gap={6}>
        {value.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('quotes.breaks.none')}
          </Text>
        )}
        {value.map((quantity) => (
          <Group key={quantity} gap={2} wrap="nowrap" data-testid="price-break-chip">
            <Text size="sm" fw={500}>
              {number(quantity)}
            </Text>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="red.9"
              aria-label={t('quotes.breaks.remove', { quantity: number(quantity) })}
              onClick={() => onChange(value.filter((q) => q !== quantity))}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
      </Group>
      <Group align="flex-end" gap="xs">
        <NumberInput
          label={t('quotes.breaks.quantity')}
          value={typed}
          onChange={setTyped}
          min={1}
          allowDecimal={!item.briefElementId}
          {...separators()}
          w={200}
          error={error}
          data-testid="price-break-quantity"
        />
        <Button
          variant="default"
          disabled={full || typed === '' || Number(typed) <= 0}
          onClick={() => {
            add(Number(typed));
            setTyped('');
          }}
          data-testid="price-break-add"
        >
          {t('quotes.breaks.add')}
        </Button>
      </Group>
      {suggestions.length > 0 && !full && (
        <Group gap={4}>
          <Text size="xs" c="dimmed">
            {t('quotes.breaks.suggestions')}
          </Text>
          {suggestions.map((quantity) => (
            <Button
              key={quantity}
              size="compact-xs"
              variant="light"
              onClick={() => add(quantity)}
              data-testid="price-break-suggestion"
            >
              + {number(quantity)}
            </Button>
          ))}
        </Group>
      )}
      {full && (
        <Text size="xs" c="dimmed">
          {t('quotes.breaks.full', { max: MAX_PRICE_BREAKS })}
        </Text>
      )}
    </Stack>
  );
}

/** The buyer's choice of a column when accepting: one radio per column with the quote's total there. */
export function ColumnChoice({
  quote,
  value,
  onChange,
  error,
}: {
  quote: Pick<Quote, 'priceBreakColumns' | 'currency'>;
  value: string | null;
  onChange: (id: string) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  if (!quote.priceBreakColumns.length) return null;
  return (
    <Radio.Group
      label={t('acceptance.option')}
      description={t('acceptance.optionHint')}
      value={value}
      onChange={onChange}
      error={error}
      required
      data-testid="accept-option"
    >
      <Stack gap={6} mt={6}>
        {quote.priceBreakColumns.map((column) => (
          <Radio
            key={column.id}
            value={column.id}
            label={`${columnLabel(column, t)}: ${money(column.totalPrice, quote.currency)}`}
            data-testid="accept-option-radio"
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
