import { Card, Switch, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../ui/Select.tsx';
import { briefQueries } from '../briefs/api/index.ts';
import { quoteQueries } from '../quotes/api/index.ts';
import { lineName } from '../quotes/lines.ts';
import { BoxPreview } from './BoxPreview.tsx';
import type { FoldInput } from './fold.ts';

/** The event the proof panel sends to show a line's artwork on the 3D box (detail: the line's id). */
export const SHOW_ON_BOX = 'pqs:show-on-box';
export const showOnBox = (quoteItemId: string) =>
  window.dispatchEvent(new CustomEvent(SHOW_ON_BOX, { detail: quoteItemId }));

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
 * position); one line at a time (a select when there are several). Staff and buyers alike. With
 * `quoteId` (a published or later quote), the line's latest checked artwork proof is printed on the
 * box: its preview PNG covers the blank corner to corner, the texture of the folded faces; a switch
 * shows the bare board.
 */
export function QuoteBoxPreview({ items, quoteId }: { items: Line[]; quoteId?: string }) {
  const { t, i18n } = useTranslation();
  const [showArtwork, setShowArtwork] = useState(true);
  // The same query as the proof panel's (shared cache, refreshed by its uploads and decisions).
  const proofs = useQuery({ ...quoteQueries.proofs(quoteId ?? ''), enabled: Boolean(quoteId), retry: false });
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
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const show = (event: Event) => {
      setSelected((event as CustomEvent<string>).detail);
      setShowArtwork(true);
      card.current?.scrollIntoView({ block: 'center' });
    };
    window.addEventListener(SHOW_ON_BOX, show);
    return () => window.removeEventListener(SHOW_ON_BOX, show);
  }, []);
  const current = lines.find((l) => l.line.id === selected) ?? lines[0];
  const briefId = current?.line.briefId ?? '';
  const version = current?.line.briefVersion ?? undefined;
  const details = useQuery({ ...briefQueries.details(briefId, version), enabled: Boolean(current) });
  if (!current) return null;
  const proof = proofs.data?.lines
    .find((l) => l.quoteItemId === current.line.id)
    ?.versions.find((v) => v.urls.preview);
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
    <Card withBorder data-testid="quote-preview-3d" ref={card}>
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
      {proof ? (
        <Switch
          mb="xs"
          label={t('preview3d.artwork', { version: proof.version })}
          checked={showArtwork}
          onChange={(e) => setShowArtwork(e.currentTarget.checked)}
          data-testid="quote-box-3d-artwork"
        />
      ) : null}
      {computed?.dieLine ? (
        <BoxPreview
          key={current.line.id}
          dieLine={computed.dieLine as FoldInput}
          kraft={computed.productCode?.startsWith('0')}
          artworkUrl={proof && showArtwork ? (proof.urls.preview ?? undefined) : undefined}
          artworkLabel={proof ? t('preview3d.artworkAlt', { version: proof.version }) : undefined}
          testId="quote-box-3d"
        />
      ) : null}
    </Card>
  );
}
