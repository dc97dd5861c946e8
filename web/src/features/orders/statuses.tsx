import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { sharedQueries } from '../../api/queries.ts';
import type { components } from '../../api/schema.d.ts';
import { statusColours } from './colours.ts';

export type OrderStatus = components['schemas']['Status'];
export { statusColours };

/** The organisation's order statuses (labels, colours, default), by position; read once per session. */
export function useOrderStatuses() {
  return useQuery({
    ...sharedQueries.statuses('order'),
    select: (list): OrderStatus[] => [...list].sort((a, b) => a.position - b.position),
  });
}

const DEFAULT_STATUS_KEYS = new Set([
  'Pending',
  'Processing',
  'Shipped',
  'Delivered',
  'Cancelled',
  'OnHold',
  'Backordered',
]);

/**
 * A status's label in the user's language: the workflow every organisation starts with (seeded in
 * English, src/modules/statuses/service.ts) is translated by its label; labels the organisation
 * wrote itself are shown as written.
 */
export function statusLabel(label: string): string {
  const key = label.replace(/\s+/g, '');
  return DEFAULT_STATUS_KEYS.has(key)
    ? i18next.t(`orders.defaultStatuses.${key}`, { defaultValue: label })
    : label;
}

export function StatusBadge({ status, testId }: { status: OrderStatus | undefined | null; testId?: string }) {
  if (!status)
    return (
      <Badge color="gray.7" data-testid={testId}>
        —
      </Badge>
    );
  const { background, color } = statusColours(status);
  return (
    <Badge style={{ background, color }} data-testid={testId}>
      {statusLabel(status.internalLabel)}
    </Badge>
  );
}
