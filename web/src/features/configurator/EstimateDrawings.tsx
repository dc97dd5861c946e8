import { Card, SimpleGrid, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { percent } from '../../ui/format.ts';
import { BoxPreview } from '../preview3d/BoxPreview.tsx';
import type { FoldInput } from '../preview3d/fold.ts';
import type { Estimate } from './EstimatePanel.tsx';
import { StaleBadge } from './StaleBadge.tsx';

/**
 * An element's drawings: the die-line, its 3D preview (three.js, a chunk of its own again) and the
 * imposition on the sheet. Loaded by EstimatePanel.tsx when an estimate is first shown; the SVGs'
 * data URLs are built once per drawing, not on every render.
 */

const svgSrc = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export default function EstimateDrawings({
  element: e,
  stale,
}: {
  element: Estimate['elements'][number];
  stale: boolean;
}) {
  const { t } = useTranslation();
  const dieLineSrc = useMemo(() => svgSrc(e.dieLineSvg), [e.dieLineSvg]);
  const impositionSrc = useMemo(() => svgSrc(e.impositionSvg), [e.impositionSvg]);
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <Card
        withBorder
        className={stale ? 'drawing stale' : 'drawing'}
        data-testid={`die-line-${e.position}`}
        data-stale={stale}
      >
        <Title order={3} size="h5">
          {t('configurator.dieLine')}
          {stale ? <StaleBadge /> : null}
        </Title>
        <img
          src={dieLineSrc}
          alt={`${t('configurator.dieLine')} ${e.productCode}`}
          style={{ width: '100%', maxHeight: 300, objectFit: 'contain' }}
        />
      </Card>
      {e.dieLine ? (
        <Card
          withBorder
          data-testid={`preview-3d-${e.position}`}
          className={stale ? 'drawing stale' : 'drawing'}
          data-stale={stale}
        >
          <Title order={3} size="h5" mb="xs">
            {t('preview3d.title')}
            {stale ? <StaleBadge panel="preview-3d" /> : null}
          </Title>
          <BoxPreview
            dieLine={e.dieLine as unknown as FoldInput}
            kraft={e.productCode.startsWith('0')}
            testId={`box-3d-${e.position}`}
          />
        </Card>
      ) : null}
      <Card
        withBorder
        className={stale ? 'drawing stale' : 'drawing'}
        data-testid={`imposition-${e.position}`}
        data-stale={stale}
      >
        <Title order={3} size="h5">
          {t('configurator.imposition')} · {e.layoutCount} × · {percent(e.sheetUtilisation * 100, 0)}
          {stale ? <StaleBadge /> : null}
        </Title>
        <img
          src={impositionSrc}
          alt={`${t('configurator.imposition')} ${e.sheet.width} × ${e.sheet.height} mm`}
          style={{ width: '100%', maxHeight: 300, objectFit: 'contain' }}
        />
      </Card>
    </SimpleGrid>
  );
}
