import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCatalogue } from '../../api/queries.ts';
import { number } from '../../ui/format.ts';
import { briefQueries } from './api/index.ts';
import type { ElementField } from './versions.ts';

/** A brief and its priced versions (newest first; each with who priced it and what it priced). */
export function useBrief(id: string | undefined) {
  return useQuery({ ...briefQueries.detail(id ?? ''), enabled: !!id });
}

export function useBriefVersions(id: string | undefined, currentVersion: number | null | undefined) {
  return useQuery({
    ...briefQueries.versions(id ?? '', currentVersion),
    enabled: !!id && currentVersion !== undefined,
  });
}

export type Versions = NonNullable<ReturnType<typeof useBriefVersions>['data']>;
export type Version = Versions['data'][number];

const LABELS: Record<ElementField | 'element' | string, string> = {
  productId: 'configurator.style',
  lengthDimension: 'configurator.length',
  widthDimension: 'configurator.width',
  heightDimension: 'configurator.height',
  materialReferenceId: 'configurator.board',
  grammage: 'briefs.revisions.grammage',
  quantities: 'configurator.quantities',
  wantDecoration: 'configurator.printed',
  printingProcess: 'configurator.process',
  sidePrinted: 'configurator.sides',
  rectoColorCount: 'configurator.rectoColours',
  versoColorCount: 'configurator.versoColours',
  inkCoverage: 'configurator.coverage',
  wantVarnishRecto: 'configurator.varnish',
  wantLaminationRecto: 'configurator.lamination',
  hotStampings: 'configurator.foil',
  embossings: 'configurator.embossing',
  window: 'configurator.window',
  layoutCounts: 'briefs.revisions.tools',
  commercialMargin: 'briefs.revisions.margin',
  packingType: 'configurator.packing',
  palletType: 'briefs.revisions.pallet',
  deliveryZoneId: 'briefs.revisions.deliveryZone',
  element: 'briefs.revisions.element',
};

const size = (v: { width?: unknown; height?: unknown }) =>
  `${number(v.width as number)} × ${number(v.height as number)} mm`;

/** Labels and readable values of a version's fields (catalogue ids shown as codes and names). */
export function useDescribe() {
  const { t } = useTranslation();
  const products = useCatalogue('/api/products');
  const boards = useCatalogue('/api/material-references');
  const label = (field: string) => t(LABELS[field] ?? field);
  const value = (field: string, v: unknown): string => {
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0))
      return t('briefs.revisions.none');
    if (typeof v === 'boolean') return v ? t('briefs.revisions.yes') : t('briefs.revisions.no');
    switch (field) {
      case 'productId':
      case 'element': {
        const p = products.data?.find((x) => x.id === v);
        return p ? `${p.code} · ${p.name}` : String(v);
      }
      case 'materialReferenceId':
        return boards.data?.find((x) => x.id === v)?.name ?? String(v);
      case 'quantities':
        return (v as number[]).map((q) => number(q)).join(' + ');
      case 'inkCoverage':
      case 'commercialMargin':
        return `${number(Math.round((v as number) * 1000) / 10)} %`;
      case 'hotStampings':
      case 'embossings':
        return (v as { width?: number; height?: number }[]).map(size).join(', ');
      case 'window':
        return size(v as { width?: number; height?: number });
      case 'layoutCounts':
        return (v as { quantity: number }[]).map((l) => `${l.quantity} ×`).join(', ');
      case 'printingProcess':
        return v === 'cheapest' ? t('configurator.processAny') : String(v);
      case 'packingType':
        return v === 'BUNDLE' ? t('configurator.packingBundles') : t('configurator.packingCases');
      case 'sidePrinted':
        return v === 'VERSO'
          ? t('configurator.verso')
          : v === 'RECTO_VERSO'
            ? t('configurator.rectoVerso')
            : t('configurator.recto');
      default:
        return typeof v === 'number' ? number(v) : String(v);
    }
  };
  return { label, value };
}
