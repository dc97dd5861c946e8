import { v7 as uuidv7 } from 'uuid';
import { orders } from '../../db/schema/orders.ts';
import { brokenDateRule, ORDER_DATE_RULES } from '../../platform/date-order.ts';
import type { Change } from '../../platform/events.ts';
import { roundCents } from '../../platform/money.ts';
import { ORDER_ENTITY, ORDER_ITEM_ENTITY } from '../orders/repository.ts';
import { pendingUpdates, queueUpdate, writeBatch } from './bulk.ts';
import { unknownCompany } from './references.ts';
import { companiesByExternalId } from './repository.ts';
import { type BatchContext, emptyOutcome, fail, type ImportType, type InputRow } from './types.ts';
import { RowReader } from './values.ts';
import {
  archiveAbsentOrders,
  countAbsentOrders,
  findOrderStatuses,
  findOrdersByExternalId,
} from './write-repository.ts';

type OrderRow = typeof orders.$inferSelect;
type OrderStatuses = { byLabel: Map<string, string>; defaultId: string | null };

/** The organisation's live order statuses by lower-cased internal label (read once per import). */
async function orderStatuses(c: BatchContext): Promise<OrderStatuses> {
  const cached = c.cache.get('orderStatuses') as OrderStatuses | undefined;
  if (cached) return cached;
  const rows = await findOrderStatuses(c.tx, c.organisationId);
  const result = {
    byLabel: new Map(rows.map((r) => [r.label.toLowerCase(), r.id])),
    defaultId: rows.find((r) => r.isDefault)?.id ?? null,
  };
  c.cache.set('orderStatuses', result);
  return result;
}

const DATE_FIELDS = ['orderDate', 'expectedDeliveryDate', 'actualDeliveryDate'] as const;

export const ordersImport: ImportType = {
  code: '19',
  name: 'orders',
  description: 'Orders (without their items), matched by external id',
  entity: ORDER_ENTITY,
  customFieldEntity: 'order',
  columns: [
    { name: 'externalId', description: 'Required: the order’s id in the ERP, the match key (at most 200)' },
    { name: 'companyExternalId', description: 'External id of the order’s company; empty removes it' },
    {
      name: 'billedAmount',
      description: 'Required to create; at least 0, rounded to cents; cannot be emptied',
    },
    { name: 'orderDate', description: '`YYYY-MM-DD` (midnight UTC) or an ISO 8601 timestamp' },
    { name: 'expectedDeliveryDate', description: 'Date or timestamp, as orderDate' },
    { name: 'actualDeliveryDate', description: 'Date or timestamp, as orderDate' },
    { name: 'trackingId', description: 'Shipping tracking number (at most 200)' },
    {
      name: 'status',
      description:
        'Internal label of an order status (case-insensitive); new orders without one get the default status',
    },
  ],
  required: ['externalId'],

  keysOf(row: InputRow) {
    const key = row.values.externalId?.trim();
    return key && key.length <= 200 ? [key] : [];
  },

  async applyBatch(c, rows) {
    const out = emptyOutcome();
    const statusesOf = c.columns.has('status') ? await orderStatuses(c) : undefined;
    const parsed = rows.map((input) => {
      const reader = new RowReader(input);
      const key = reader.text('externalId', 200);
      if (key === null) reader.error('externalId', 'is required');
      const billedAmount = reader.number('billedAmount', { minimum: 0 });
      if (billedAmount === null) reader.error('billedAmount', 'must not be empty');
      const dates: Partial<Record<(typeof DATE_FIELDS)[number], Date | null>> = {};
      for (const field of DATE_FIELDS) {
        const value = reader.date(field);
        if (value !== undefined) dates[field] = value;
      }
      const trackingId = reader.text('trackingId', 200);
      const companyKey = reader.text('companyExternalId', 200);
      const statusLabel = reader.text('status', 200);
      let statusId: string | null | undefined = statusLabel === null ? null : undefined;
      if (statusLabel) {
        statusId = statusesOf!.byLabel.get(statusLabel.toLowerCase());
        if (!statusId) reader.error('status', `no order status has the internal label "${statusLabel}"`);
      }
      if (key) out.keys.push(key);
      return { input, reader, key, billedAmount, dates, trackingId, companyKey, statusId };
    });

    const keys = parsed.flatMap((p) => (p.key ? [p.key] : []));
    const found = keys.length ? await findOrdersByExternalId(c.tx, c.organisationId, keys) : [];
    const existing = new Map<string, OrderRow>(found.map((row) => [row.externalId!, row]));
    const companyIds = await companiesByExternalId(
      c.tx,
      c.organisationId,
      parsed.flatMap((p) => (p.companyKey ? [p.companyKey] : [])),
    );
    const defaultStatus = statusesOf ? statusesOf.defaultId : (await orderStatuses(c)).defaultId;

    const creates: Array<typeof orders.$inferInsert & { id: string }> = [];
    const pending = pendingUpdates();

    for (const p of parsed) {
      const { reader, key } = p;
      if (!key || reader.failed) {
        fail(out, reader);
        continue;
      }
      const current = existing.get(key);
      let companyId: string | null | undefined = p.companyKey === null ? null : undefined;
      if (p.companyKey) {
        companyId = companyIds.get(p.companyKey);
        if (!companyId) reader.error('companyExternalId', unknownCompany(p.companyKey));
      }
      if (
        current &&
        companyId !== undefined &&
        companyId !== current.companyId &&
        (current.projectId || current.shippingAddressId)
      ) {
        reader.error(
          'companyExternalId',
          'cannot change: the order has a project or shipping address of its company (change it through the API)',
        );
      }
      const customFields = reader.customFields(c.definitions, current?.customFields);
      if (!current && p.billedAmount == null && !reader.failed) {
        reader.error('billedAmount', 'is required to create an order');
      }
      // The dates after the change (stored ones for columns absent from the file), as the API checks them.
      const broken = brokenDateRule({ ...(current ?? {}), ...p.dates }, ORDER_DATE_RULES);
      if (broken) reader.error(broken[1], `must not be before ${broken[0]}`);
      if (reader.failed) {
        fail(out, reader);
        continue;
      }
      const billedAmount = p.billedAmount == null ? undefined : roundCents(p.billedAmount);
      if (!current) {
        const id = uuidv7();
        creates.push({
          id,
          organisationId: c.organisationId,
          companyId: companyId ?? null,
          statusId: p.statusId ?? defaultStatus,
          externalId: key,
          billedAmount: billedAmount!,
          orderDate: p.dates.orderDate ?? null,
          expectedDeliveryDate: p.dates.expectedDeliveryDate ?? null,
          actualDeliveryDate: p.dates.actualDeliveryDate ?? null,
          trackingId: p.trackingId ?? null,
          customFields: customFields ?? {},
          createdById: c.actorId,
        });
        out.createdKeys.push({ key, id });
        continue;
      }
      const next: Record<string, unknown> = { ...p.dates };
      if (billedAmount !== undefined) next.billedAmount = billedAmount;
      if (p.trackingId !== undefined) next.trackingId = p.trackingId;
      if (companyId !== undefined) next.companyId = companyId;
      if (p.statusId !== undefined) next.statusId = p.statusId;
      if (Object.keys(p.input.customFields).length) next.customFields = customFields;
      if (queueUpdate(pending, current, next).length === 0) out.unchanged++;
    }

    return writeBatch(c.tx, out, {
      table: orders,
      on: ORDER_ENTITY,
      organisationId: c.organisationId,
      creates,
      ...pending,
    });
  },

  /** Archives absent orders and their live items, with an event for each. */
  async archiveAbsent(c, limit) {
    const { rows, items } = await archiveAbsentOrders(c.tx, c, limit);
    return [
      ...rows.map((row): Change => ({ on: ORDER_ENTITY, type: 'DELETE', entityId: row.id, snapshot: row })),
      ...items.map(
        (item): Change => ({
          on: ORDER_ITEM_ENTITY,
          type: 'DELETE',
          entityId: item.id,
          snapshot: item,
          relation: ORDER_ENTITY,
          relationId: item.orderId,
        }),
      ),
    ];
  },

  countAbsent: (c) => countAbsentOrders(c.tx, c),
};
