import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components, operations } from '../../api/schema.d.ts';
import { draftNames, draftTime, useDraft } from '../../ui/drafts.ts';
import { money, number, separators } from '../../ui/format.ts';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { useUnsavedChanges } from '../../ui/UnsavedChanges.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { useCan } from '../admin/useCan.ts';
import { DateField } from '../orders/DateField.tsx';
import { quoteApi, quoteKeys } from './api/index.ts';
import { LineParts } from './LineParts.tsx';
import { lineName } from './lines.ts';
import { PriceBreaksField, PriceBreaksTable } from './PriceBreaks.tsx';
import { QuoteVatTotals } from './QuoteTerms.tsx';
import { Total } from './Total.tsx';

type Quote = components['schemas']['Quote'];
type Item = components['schemas']['QuoteItemChild'];
type ItemPatch = operations['updateQuoteItem']['requestBody']['content']['application/json'];

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);

/**
 * The lines of a draft quote, editable one change at a time (PATCH .../quote-items/{itemId}):
 * quantity, unit price (staff with `costs:read` see the engine's price and the margin), discount,
 * comment, optional, group label, order (up/down), removal; and the quote's name and validity.
 * Each change is sent on its own and the quote is read again (totals come from the API).
 */
export function QuoteLinesEditor({ quote }: { quote: Quote }) {
  const { t, i18n } = useTranslation();
  const nameOf = (item: Item) => lineName(item, i18n.language);
  const can = useCan();
  const seller = can('costs:read');
  const queryClient = useQueryClient();
  const form = useApiForm();
  const [editing, setEditing] = useState<Item>();
  // A line's edit kept as a draft (the session ended with the dialog open): open it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  useEffect(() => {
    const [name] = draftNames(`quote-line:${quote.id}:`);
    const item = name && quote.items.find((i) => name === `quote-line:${quote.id}:${i.id}`);
    if (item) setEditing(item);
  }, []);
  const reload = () => queryClient.invalidateQueries({ queryKey: quoteKeys.detail(quote.id) });
  const patchItem = (item: Item, body: ItemPatch, success = t('common.saved')) =>
    form.submit(async () => {
      await quoteApi.updateItem(quote.id, item.id, body);
      await reload();
    }, success);
  const remove = (item: Item) =>
    form.submit(async () => {
      await quoteApi.removeItem(quote.id, item.id);
      await reload();
    }, t('common.saved'));

  const rows = (items: Item[], depth: number): React.ReactNode[] =>
    items.flatMap((item, index) => {
      const children = (item as Quote['items'][number]).children ?? [];
      const group = children.length > 0 || (item.briefId !== null && item.briefElementId === null);
      return [
        <Table.Tr key={item.id} data-testid="quote-line" data-optional={item.optional || undefined}>
          <Table.Td pl={depth ? 32 : undefined}>
            <Group gap={2} wrap="nowrap">
              <ActionIcon
                size="sm"
                variant="subtle"
                disabled={index === 0}
                aria-label={t('quotes.edit.moveUp', { name: nameOf(item) })}
                onClick={() => patchItem(item, { position: item.position - 1 }, t('quotes.edit.moved'))}
              >
                ↑
              </ActionIcon>
              <ActionIcon
                size="sm"
                variant="subtle"
                disabled={index === items.length - 1}
                aria-label={t('quotes.edit.moveDown', { name: nameOf(item) })}
                onClick={() => patchItem(item, { position: item.position + 1 }, t('quotes.edit.moved'))}
              >
                ↓
              </ActionIcon>
            </Group>
          </Table.Td>
          <Table.Td>
            <Text size="sm" fw={depth ? 400 : 600}>
              {nameOf(item)}
            </Text>
            <Group gap={4}>
              {item.reference && (
                <Text size="xs" c="dimmed">
                  {item.reference}
                </Text>
              )}
              {item.groupLabel && <Badge variant="light">{item.groupLabel}</Badge>}
              {item.optional && (
                <Badge color="gray.7" variant="outline">
                  {t('quotes.edit.optional')}
                </Badge>
              )}
              {item.priceSource === 'manual' && (
                <Badge color="orange.9" variant="light">
                  {t('quotes.edit.manualPrice')}
                </Badge>
              )}
            </Group>
            {item.comment && (
              <Text size="xs" fs="italic">
                {item.comment}
              </Text>
            )}
            {item.priceBreaks.length > 0 && (
              <Text size="xs" c="dimmed" data-testid="line-price-breaks">
                {t('quotes.breaks.summary', {
                  quantities: item.priceBreaks.map((b) => number(b.quantity)).join(' / '),
                })}
              </Text>
            )}
          </Table.Td>
          <Table.Td ta="right">{group ? '' : number(item.quantity)}</Table.Td>
          <Table.Td ta="right">
            {group ? '' : money(item.price, quote.currency, 4)}
            {seller && !group && item.enginePrice != null && item.priceSource === 'manual' && (
              <Text size="xs" c="dimmed" data-testid="engine-price">
                {t('quotes.edit.enginePrice')} {money(item.enginePrice, quote.currency, 4)}
              </Text>
            )}
          </Table.Td>
          <Table.Td ta="right">
            {item.discountPercent != null
              ? `${number(item.discountPercent)} %`
              : item.discountAmount != null
                ? money(item.discountAmount, quote.currency)
                : ''}
          </Table.Td>
          <Table.Td ta="right">{money(item.totalPrice, quote.currency)}</Table.Td>
          {seller && (
            <Table.Td ta="right" data-testid="line-margin">
              {group || item.margin == null ? '' : money(item.margin, quote.currency)}
            </Table.Td>
          )}
          <Table.Td>
            <Group gap={4} wrap="nowrap">
              <Button size="xs" variant="default" onClick={() => setEditing(item)}>
                {t('common.edit')}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red.9"
                c="red.9"
                aria-label={`${t('common.remove')} ${nameOf(item)}`}
                onClick={() => remove(item)}
              >
                {t('common.remove')}
              </Button>
            </Group>
          </Table.Td>
        </Table.Tr>,
        <LineParts
          key={`${item.id}-parts`}
          item={group ? { id: item.id } : item}
          currency={quote.currency}
          before={1}
          between={2}
          after={seller ? 2 : 1}
        />,
        ...rows(children as Item[], depth + 1),
      ];
    });

  return (
    <Stack>
      <QuoteFields quote={quote} />
      <Card withBorder data-testid="quote-lines-editor">
        <Title order={3} size="h4" mb="xs">
          {t('quotes.lines')}
        </Title>
        {form.formError && (
          <Alert color="red" mb="sm" role="alert" data-testid="line-error">
            {form.formError}
            {Object.entries(form.fields).map(([pointer, message]) => (
              <Text key={pointer} size="sm">
                {message}
              </Text>
            ))}
          </Alert>
        )}
        <ScrollingTable minWidth={820} label={t('quotes.lines')}>
          <Table data-testid="quote-lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={64}>
                  <VisuallyHidden>{t('quotes.edit.order')}</VisuallyHidden>
                </Table.Th>
                <Table.Th>{t('common.name')}</Table.Th>
                <Table.Th ta="right">{t('quotes.quantity')}</Table.Th>
                <Table.Th ta="right">{t('quotes.unitPrice')}</Table.Th>
                <Table.Th ta="right">{t('quotes.edit.discount')}</Table.Th>
                <Table.Th ta="right">{t('quotes.total')}</Table.Th>
                {seller && <Table.Th ta="right">{t('quotes.edit.margin')}</Table.Th>}
                <Table.Th>{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{rows(quote.items as Item[], 0)}</Table.Tbody>
          </Table>
        </ScrollingTable>
        <SimpleGrid cols={3} mt="sm" maw={520} ml="auto">
          <Total label={t('lines.toolingIncluded')} value={money(quote.toolingCost, quote.currency)} />
          <Total label={t('lines.deliveryIncluded')} value={money(quote.deliveryCost, quote.currency)} />
          <Total
            label={t('quotes.total')}
            value={money(quote.totalPrice, quote.currency)}
            strong
            testId="quote-total"
          />
        </SimpleGrid>
        <QuoteVatTotals quote={quote} />
      </Card>
      <PriceBreaksTable quote={quote} />
      {editing && (
        <LineEditor
          key={editing.id}
          quote={quote}
          item={editing}
          seller={seller}
          onClose={() => setEditing(undefined)}
          onSaved={async () => {
            await reload();
            setEditing(undefined);
          }}
        />
      )}
    </Stack>
  );
}

/** The quote's own fields of a draft: name and validity (PATCH /quotes/{id}, only what changed). */
function QuoteFields({ quote }: { quote: Quote }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useApiForm();
  const [name, setName] = useState(quote.name);
  const [validUntil, setValidUntil] = useState<string | null>(day(quote.validUntil));
  const initial = useMemo(() => ({ name: quote.name, validUntil: day(quote.validUntil) }), [quote]);
  const draft = useDraft(`quote-fields:${quote.id}`, { name, validUntil }, initial, (v) => {
    setName(v.name);
    setValidUntil(v.validUntil);
  });
  useUnsavedChanges(draft.dirty, draft.clear);
  const body: { name?: string; validUntil?: string | null } = {};
  if (name !== quote.name) body.name = name;
  if (validUntil !== day(quote.validUntil)) body.validUntil = validUntil;
  return (
    <Card withBorder data-testid="quote-fields">
      <Group align="flex-end">
        <TextInput
          label={t('common.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={form.error('/name')}
          w={320}
        />
        <DateField
          label={t('quotes.validUntil')}
          value={validUntil}
          onChange={(value) => setValidUntil(value ? String(value).slice(0, 10) : null)}
          error={form.error('/validUntil')}
          w={200}
        />
        <Button
          disabled={!Object.keys(body).length}
          loading={form.busy}
          onClick={() =>
            form.submit(async () => {
              await quoteApi.patch(quote.id, body);
              draft.clear();
              await queryClient.invalidateQueries({ queryKey: quoteKeys.detail(quote.id) });
            }, t('common.saved'))
          }
        >
          {t('common.save')}
        </Button>
      </Group>
      {form.formError && !Object.keys(form.fields).length && (
        <Text c="red" size="sm" mt="xs" role="alert">
          {form.formError}
        </Text>
      )}
      {draft.restoredAt ? <DraftRestored at={draft.restoredAt} onDiscard={draft.discard} /> : null}
    </Card>
  );
}

type DiscountKind = 'none' | 'percent' | 'amount';

/** One line in a dialog: only the fields that changed are sent, in one PATCH. */
function LineEditor({
  quote,
  item,
  seller,
  onClose,
  onSaved,
}: {
  quote: Quote;
  item: Item;
  seller: boolean;
  onClose: () => void;
  onSaved: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const form = useApiForm();
  const group = item.briefId !== null && item.briefElementId === null;
  // The name as the user reads it (the catalogue's in their language, or the one typed before).
  const shownName = lineName(item, i18n.language);
  const [name, setName] = useState(shownName);
  const manual = item.priceSource === 'manual';
  const [quantity, setQuantity] = useState<number | string>(item.quantity);
  const [price, setPrice] = useState<number | string>(manual ? (item.price ?? '') : '');
  const initialKind: DiscountKind =
    item.discountPercent != null ? 'percent' : item.discountAmount != null ? 'amount' : 'none';
  const [kind, setKind] = useState<DiscountKind>(initialKind);
  const [discount, setDiscount] = useState<number | string>(
    item.discountPercent ?? item.discountAmount ?? '',
  );
  const [comment, setComment] = useState(item.comment ?? '');
  const [optional, setOptional] = useState(item.optional);
  const [groupLabel, setGroupLabel] = useState(item.groupLabel ?? '');
  const initial = useMemo(
    () => ({
      quantity: item.quantity as number | string,
      price: (manual ? (item.price ?? '') : '') as number | string,
      kind: initialKind,
      discount: (item.discountPercent ?? item.discountAmount ?? '') as number | string,
      name: shownName,
      comment: item.comment ?? '',
      optional: item.optional,
      groupLabel: item.groupLabel ?? '',
    }),
    [item, manual, initialKind, shownName],
  );
  const draft = useDraft(
    `quote-line:${quote.id}:${item.id}`,
    { quantity, price, kind, discount, name, comment, optional, groupLabel },
    initial,
    (v) => {
      setName(v.name);
      setQuantity(v.quantity);
      setPrice(v.price);
      setKind(v.kind);
      setDiscount(v.discount);
      setComment(v.comment);
      setOptional(v.optional);
      setGroupLabel(v.groupLabel);
    },
  );
  useUnsavedChanges(draft.dirty, draft.clear);
  const initialBreaks = item.priceBreaks.map((b) => b.quantity);
  const [breaks, setBreaks] = useState<number[]>(initialBreaks);

  const body: ItemPatch = {};
  if (!group) {
    if (quantity !== '' && Number(quantity) !== item.quantity) body.quantity = Number(quantity);
    if (price === '' && manual) body.price = null;
    if (price !== '' && Number(price) !== (manual ? item.price : null)) body.price = Number(price);
    const before = item.discountPercent ?? item.discountAmount ?? '';
    if (kind === 'none' && initialKind !== 'none') {
      body[initialKind === 'percent' ? 'discountPercent' : 'discountAmount'] = null;
    } else if (kind !== 'none' && discount !== '' && (kind !== initialKind || Number(discount) !== before)) {
      body[kind === 'percent' ? 'discountPercent' : 'discountAmount'] = Number(discount);
    }
    if (breaks.join() !== initialBreaks.join()) body.priceBreaks = breaks.map((quantity) => ({ quantity }));
  }
  // A name typed (even blank: the API says what is wrong) replaces the catalogue's in every language.
  if (name.trim() !== shownName) body.name = name.trim();
  if (comment !== (item.comment ?? '')) body.comment = comment === '' ? null : comment;
  if (optional !== item.optional) body.optional = optional;
  if (groupLabel !== (item.groupLabel ?? '')) body.groupLabel = groupLabel === '' ? null : groupLabel;

  const save = () =>
    form.submit(async () => {
      await quoteApi.updateItem(quote.id, item.id, body);
      draft.clear();
      await onSaved();
    }, t('common.saved'));

  return (
    <Modal
      opened
      onClose={() => {
        // Closing the dialog is leaving the edit: its draft goes too.
        draft.clear();
        onClose();
      }}
      title={`${t('quotes.edit.title')} · ${shownName}`}
      size="lg"
    >
      <Stack>
        {draft.restoredAt ? <DraftRestored at={draft.restoredAt} onDiscard={draft.discard} /> : null}
        <TextInput
          label={t('quotes.edit.lineName')}
          description={item.briefElementId && !item.customName ? t('quotes.edit.lineNameHint') : undefined}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={200}
          error={form.error('/name')}
        />
        {!group && (
          <>
            <NumberInput
              label={t('quotes.quantity')}
              description={item.briefElementId ? t('quotes.edit.quantityRepriced') : undefined}
              value={quantity}
              onChange={setQuantity}
              min={1}
              {...separators()}
              error={form.error('/quantity')}
              data-autofocus
            />
            <NumberInput
              label={t('quotes.unitPrice')}
              description={
                seller && item.enginePrice != null
                  ? t('quotes.edit.engineHint', { price: money(item.enginePrice, quote.currency, 4) })
                  : t('quotes.edit.priceHint')
              }
              value={price}
              onChange={setPrice}
              min={0}
              decimalScale={4}
              error={form.error('/price')}
            />
            {seller && item.margin != null && (
              <Text size="sm" data-testid="editor-margin">
                {t('quotes.edit.marginNow', { margin: money(item.margin, quote.currency) })}
              </Text>
            )}
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('quotes.edit.discount')}
              </Text>
              <SegmentedControl
                value={kind}
                onChange={(v) => setKind(v as DiscountKind)}
                data={[
                  { value: 'none', label: t('quotes.edit.noDiscount') },
                  { value: 'percent', label: '%' },
                  { value: 'amount', label: quote.currency },
                ]}
                aria-label={t('quotes.edit.discount')}
              />
              {kind !== 'none' && (
                <NumberInput
                  aria-label={t('quotes.edit.discount')}
                  value={discount}
                  onChange={setDiscount}
                  min={0}
                  max={kind === 'percent' ? 100 : undefined}
                  decimalScale={2}
                  suffix={kind === 'percent' ? ' %' : undefined}
                  error={form.error('/discountPercent') ?? form.error('/discountAmount')}
                />
              )}
            </Stack>
            <PriceBreaksField
              item={item}
              value={breaks}
              onChange={setBreaks}
              error={
                form.error('/priceBreaks') ??
                breaks.map((_, i) => form.error(`/priceBreaks/${i}/quantity`)).find(Boolean)
              }
            />
          </>
        )}
        <Textarea
          label={t('quotes.comment')}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          autosize
          minRows={2}
          error={form.error('/comment')}
        />
        <TextInput
          label={t('quotes.edit.groupLabel')}
          value={groupLabel}
          onChange={(e) => setGroupLabel(e.currentTarget.value)}
          error={form.error('/groupLabel')}
        />
        <Switch
          label={t('quotes.edit.optionalLabel')}
          checked={optional}
          onChange={(e) => setOptional(e.currentTarget.checked)}
        />
        {form.formError && (
          <Alert color="red" role="alert" data-testid="line-editor-error">
            {form.formError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={save} loading={form.busy} disabled={!Object.keys(body).length}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function DraftRestored({ at, onDiscard }: { at: number; onDiscard: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" mt="xs" data-testid="draft-restored">
      {t('drafts.restored', { time: draftTime(at) })}{' '}
      <Anchor component="button" type="button" onClick={onDiscard}>
        {t('drafts.discard')}
      </Anchor>
    </Alert>
  );
}
