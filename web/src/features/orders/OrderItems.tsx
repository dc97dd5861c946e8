import {
  ActionIcon,
  Anchor,
  Button,
  Card,
  Group,
  MultiSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useApiAction } from '../../api/mutation.ts';
import type { components } from '../../api/schema.d.ts';
import { paths } from '../../paths.ts';
import { number } from '../../ui/format.ts';
import { problemFields } from '../../ui/problem.ts';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { Empty, ErrorState } from '../../ui/states.tsx';
import { articleQueries } from '../articles/api.ts';
import { briefQueries } from '../briefs/api/index.ts';
import { lineName, serviceName, showsVariants } from '../quotes/lines.ts';
import { orderApi, orderKeys } from './api/index.ts';
import { amount, unitPrice } from './format.ts';
import { type BulkItem, briefItems } from './fromBriefs.ts';
import { itemTree } from './tree.ts';

type Order = components['schemas']['Order'];

/** An order's items (with their hierarchy) and, for staff, adding from articles or briefs and removing. */
export function OrderItems({ order, canWrite }: { order: Order; canWrite: boolean }) {
  const { t, i18n } = useTranslation();
  const action = useApiAction({ invalidates: [orderKeys.all] });
  const { error } = action;
  const busy = action.busy !== undefined;
  const run = async (call: () => Promise<unknown>, message: string) =>
    (await action.run(
      message,
      async () => {
        await call();
        return true;
      },
      message,
    )) ?? false;
  const rows = itemTree(order.items);
  const currency = order.currency?.code;
  return (
    <Card withBorder>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          {t('orders.items.title')}
        </Title>
        <Text size="sm">
          {t('orders.itemsTotalIs', { amount: '' })}
          <b data-testid="items-total">{amount(order.itemsTotal, currency)}</b>
        </Text>
      </Group>
      {error && !(error instanceof ApiError && Object.keys(error.fields).length) ? (
        <ErrorState error={error} />
      ) : null}
      {rows.length === 0 ? (
        <Empty>{t('orders.items.empty')}</Empty>
      ) : (
        <ScrollingTable minWidth={640} label={t('orders.items.title')}>
          <Table data-testid="order-items">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orders.items.article')}</Table.Th>
                <Table.Th ta="right">{t('orders.items.quantity')}</Table.Th>
                <Table.Th>{t('orders.items.unit')}</Table.Th>
                <Table.Th ta="right">{t('orders.items.unitPrice')}</Table.Th>
                <Table.Th ta="right">{t('common.total')}</Table.Th>
                {canWrite && <Table.Th>{t('common.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(({ item, depth, children }) => {
                const label = item.article
                  ? `${item.article.code} · ${item.localised ? lineName(item, i18n.language) : item.article.name}`
                  : item.name
                    ? serviceName(t, item.code, item.name)
                    : children
                      ? t('orders.items.kit', { count: children })
                      : t('orders.items.custom');
                const variants = showsVariants(item.variants) ? item.variants : [];
                return (
                  <Fragment key={item.id}>
                    <Table.Tr>
                      <Table.Td pl={depth * 24 + 8}>
                        {depth > 0 ? '└ ' : ''}
                        {item.article ? (
                          <Anchor component={Link} to={paths.article(item.article.id)}>
                            {label}
                          </Anchor>
                        ) : (
                          label
                        )}
                      </Table.Td>
                      <Table.Td ta="right">{number(item.quantity)}</Table.Td>
                      <Table.Td>{item.unit ?? ''}</Table.Td>
                      <Table.Td ta="right">{unitPrice(item.unitPrice, currency)}</Table.Td>
                      <Table.Td ta="right">{amount(item.totalPrice, currency)}</Table.Td>
                      {canWrite && (
                        <Table.Td>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            disabled={busy}
                            aria-label={`${t('common.remove')} ${label}`}
                            onClick={() =>
                              void run(
                                () => orderApi.removeItem(order.id, item.id, Boolean(children)),
                                t('orders.removed'),
                              )
                            }
                          >
                            {children ? t('orders.items.removeKit') : t('common.remove')}
                          </Button>
                        </Table.Td>
                      )}
                    </Table.Tr>
                    {variants.map((variant) => (
                      <Table.Tr key={`${item.id}-v${variant.decorationIndex}`} data-testid="order-variant">
                        <Table.Td pl={(depth + 1) * 24 + 8}>
                          <Text size="sm" c="dimmed">
                            {variant.name ?? t('lines.variant', { n: variant.decorationIndex + 1 })}
                            {variant.artworkReference
                              ? ` · ${t('lines.artwork')} ${variant.artworkReference}`
                              : ''}
                          </Text>
                        </Table.Td>
                        <Table.Td ta="right">
                          <Text size="sm" c="dimmed">
                            {number(variant.quantity)}
                          </Text>
                        </Table.Td>
                        <Table.Td />
                        <Table.Td />
                        <Table.Td ta="right">
                          <Text size="sm" c="dimmed">
                            {amount(variant.amount, currency)}
                          </Text>
                        </Table.Td>
                        {canWrite && <Table.Td />}
                      </Table.Tr>
                    ))}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollingTable>
      )}
      {canWrite && (
        <AddItems
          order={order}
          busy={busy}
          errors={problemFields(error, t)}
          onAdd={(build) =>
            run(async () => {
              const items = await build();
              await orderApi.addItems(order.id, items);
            }, t('orders.items.added'))
          }
        />
      )}
    </Card>
  );
}

type Line = { articleId: string; quantity: number | '' };

function AddItems({
  order,
  busy,
  errors,
  onAdd,
}: {
  order: Order;
  busy: boolean;
  errors: Record<string, string>;
  onAdd: (build: () => Promise<BulkItem[]>) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const companyId = order.companyId ?? undefined;
  const [lines, setLines] = useState<Line[]>([]);
  const [briefIds, setBriefIds] = useState<string[]>([]);
  const articles = useQuery(articleQueries.list({ companyId, enabled: true, limit: 100, page: 1 }));
  const briefs = useQuery({ ...briefQueries.list({ companyId, limit: 100, page: 1 }), enabled: !!companyId });
  const code = (id: string) => articles.data?.data.find((a) => a.id === id)?.code ?? '';
  const problems = Object.entries(errors);
  return (
    <Stack gap="sm" mt="md" data-testid="add-items">
      <Title order={4} size="h5">
        {t('orders.items.add')}
      </Title>
      <MultiSelect
        label={t('orders.items.fromArticles')}
        data={(articles.data?.data ?? []).map((a) => ({ value: a.id, label: `${a.code} · ${a.name}` }))}
        value={lines.map((l) => l.articleId)}
        onChange={(ids) =>
          setLines(
            ids.map(
              (articleId) => lines.find((l) => l.articleId === articleId) ?? { articleId, quantity: 1 },
            ),
          )
        }
        searchable
      />
      {lines.map((line, i) => (
        <Group key={line.articleId} gap="xs" align="flex-end">
          <NumberInput
            label={`${t('orders.items.quantity')} · ${code(line.articleId)}`}
            value={line.quantity}
            min={0}
            onChange={(q) =>
              setLines(lines.map((l, j) => (j === i ? { ...l, quantity: q === '' ? '' : Number(q) } : l)))
            }
            error={errors[`/${i}/quantity`]}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`${t('common.remove')} ${code(line.articleId)}`}
            onClick={() => setLines(lines.filter((_, j) => j !== i))}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      {companyId ? (
        <MultiSelect
          label={t('orders.items.fromBriefs')}
          description={t('orders.items.fromBriefsHelp')}
          data={(briefs.data?.data ?? []).map((b) => ({ value: b.id, label: `${b.code} · ${b.name}` }))}
          value={briefIds}
          onChange={setBriefIds}
          searchable
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('orders.items.briefsNeedCompany')}
        </Text>
      )}
      {problems.map(([pointer, message]) => (
        <Text key={pointer} c="red" size="sm" role="alert">
          {pointer}: {message}
        </Text>
      ))}
      <Group justify="flex-end">
        <Button
          loading={busy}
          disabled={!lines.length && !briefIds.length}
          onClick={async () => {
            const done = await onAdd(async () => {
              const items: BulkItem[] = lines.map((l) => ({
                articleId: l.articleId,
                ...(l.quantity === '' ? {} : { quantity: l.quantity }),
              }));
              for (const briefId of briefIds) items.push(...(await briefItems(briefId, companyId!)));
              return items;
            });
            if (done) {
              setLines([]);
              setBriefIds([]);
            }
          }}
        >
          {t('orders.items.addSelected')}
        </Button>
      </Group>
    </Stack>
  );
}
