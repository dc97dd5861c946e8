import { Card, Select, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client.ts';
import { lineName } from '../quotes/lines.ts';
import { BoxPreview } from './BoxPreview.tsx';
import type { FoldInput } from './fold.ts';

type Line = {
  id: string;
  name: string;
  briefId?: string | null;
  briefElementId?: string | null;
  elementPosition?: number | null;
  briefVersion?: number | null;
  children?: Line[] | null;
};

/**
 * The 3D folded box of a quote's element line, as it was quoted (its brief version and element
 * position); one line at a time (a select when there are several). Staff and buyers alike.
 */
export function QuoteBoxPreview({ items }: { items: Line[] }) {
  const { t, i18n } = useTranslation();
  const lines = items.flatMap((item, i) =>
    (item.children ?? []).flatMap((child, j) =>
      child.briefId &&
      child.briefElementId &&
      child.elementPosition !== null &&
      child.elementPosition !== undefined
        ? [{ no: `${i + 1}.${j + 1}`, line: child }]
        : [],
    ),
  );
  const [selected, setSelected] = useState<string | null>(lines[0]?.line.id ?? null);
  const current = lines.find((l) => l.line.id === selected) ?? lines[0];
  const briefId = current?.line.briefId ?? '';
  const version = current?.line.briefVersion ?? undefined;
  const details = useQuery({
    queryKey: ['brief-details', briefId, version ?? 'current'],
    enabled: Boolean(current),
    queryFn: () =>
      unwrap(
        api.GET('/api/briefs/{id}/details', {
          params: { path: { id: briefId }, query: version ? { version } : {} },
        }),
      ),
  });
  if (!current) return null;
  const computed = (
    details.data as
      | {
          briefComputed?: {
            briefElements?: { position: number; productCode?: string; dieLine?: unknown }[];
          } | null;
        }
      | undefined
  )?.briefComputed?.briefElements?.find((e) => e.position === current.line.elementPosition);
  return (
    <Card withBorder data-testid="quote-preview-3d">
      <Title order={3} size="h4" mb="xs">
        {t('preview3d.title')}
      </Title>
      {lines.length > 1 ? (
        <Select
          searchable
          mb="xs"
          maw={360}
          label={t('preview3d.line')}
          data={lines.map((l) => ({ value: l.line.id, label: `${l.no} ${lineName(l.line, i18n.language)}` }))}
          value={current.line.id}
          onChange={setSelected}
          allowDeselect={false}
          data-testid="quote-preview-3d-line"
        />
      ) : null}
      {computed?.dieLine ? (
        <BoxPreview
          key={current.line.id}
          dieLine={computed.dieLine as FoldInput}
          kraft={computed.productCode?.startsWith('0')}
          testId="quote-box-3d"
        />
      ) : null}
    </Card>
  );
}
