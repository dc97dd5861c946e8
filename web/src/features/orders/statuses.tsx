import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import type { components } from '../../api/schema.d.ts';

export type OrderStatus = components['schemas']['Status'];

/** The organisation's order statuses (labels, colours, default), by position; read once per session. */
export function useOrderStatuses() {
  return useQuery({
    queryKey: ['statuses', 'order', 'full'],
    queryFn: async () => {
      const list = await unwrap(
        api.GET('/api/statuses/entity', { params: { query: { entity: 'order' } as never } }),
      );
      return [...(list as OrderStatus[])].sort((a, b) => a.position - b.position);
    },
    staleTime: 5 * 60_000,
  });
}

/** Relative luminance (WCAG) of a #rrggbb colour. */
function luminance(hex: string): number {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return 1;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(m[1]!.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/**
 * Text colour for a status background: the status's own `fgColor` when it is readable on it
 * (contrast >= 4.5), else black or white, whichever contrasts more (organisations pick colours
 * freely; the badge must stay legible, and axe checks it).
 */
export function statusColours(status: Pick<OrderStatus, 'color' | 'bgColor' | 'fgColor'>) {
  const background = status.bgColor ?? status.color ?? '#495057';
  const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const bg = luminance(background);
  if (status.fgColor && contrast(bg, luminance(status.fgColor)) >= 4.5)
    return { background, color: status.fgColor };
  return { background, color: contrast(bg, 0) >= contrast(bg, 1) ? '#000000' : '#ffffff' };
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
      {status.internalLabel}
    </Badge>
  );
}
