import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Default-catalogue figures that are estimates: no published figure was found for them
 * (docs/pricing.md, section 10 "Calibration of the default catalogue", and issue 30's list). Keyed
 * by record code and field, with the default value: the mark shows only while the organisation's
 * figure is still that default (an estimator's own figure is theirs, not our estimate). The notes
 * are the reasoning as written in docs/pricing.md (English, like the sources they stand beside).
 */
export const CATALOGUE_ESTIMATES: Record<string, { field: string; value: number; note: string }> = {
  'DIGITAL-B2': {
    field: 'hourlyRate',
    value: 115,
    note: 'rate and clicks: no published hourly rate; clicks placed from Ricoh USA, "The cost crossover point" (total cost ~60 % below USD 0.045 per page)',
  },
  'COATER-UV': {
    field: 'hourlyRate',
    value: 85,
    note: 'UV coater rate and speed: no published figure found',
  },
  'LAMINATOR-105': {
    field: 'hourlyRate',
    value: 90,
    note: 'laminator rate and film price: no published figure found',
  },
  'FOIL-106': {
    field: 'hourlyRate',
    value: 140,
    note: 'foil press rate and dies: no published figure found',
  },
  'DIECUT-106': {
    field: 'hourlyRate',
    value: 125,
    note: 'die-cutter rate and make-ready: within the ranges of the project domain guidance (5,000-8,000 sheets/h, set-up 45-60 min), no published rate',
  },
  'FG-STRAIGHT-110': { field: 'hourlyRate', value: 95, note: 'folder-gluer rate: no published figure found' },
  'FG-CRASHLOCK-110': {
    field: 'hourlyRate',
    value: 115,
    note: 'folder-gluer rate: no published figure found',
  },
  'FFG-1628': {
    field: 'hourlyRate',
    value: 260,
    note: 'flexo folder-gluer set-up and spoilage: "well under an hour" (issue 18), no minute figure published',
  },
  'RDC-1628': {
    field: 'hourlyRate',
    value: 230,
    note: 'rotary die-cutter set-up and spoilage: no published figure found',
  },
  'PACK-MANUAL': {
    field: 'hourlyRate',
    value: 38,
    note: 'packing speeds (cases 90/h, bundles 240/h): none published, an assumption',
  },
  'GC2-300': { field: 'pricePerTonne', value: 1120, note: 'GC2 price per tonne: no published price found' },
  'GC2-350': { field: 'pricePerTonne', value: 1100, note: 'GC2 price per tonne: no published price found' },
  'SBS-300': { field: 'pricePerTonne', value: 1650, note: 'SBS price per tonne: no published price found' },
  'SBS-350': { field: 'pricePerTonne', value: 1620, note: 'SBS price per tonne: no published price found' },
  'KRAFT-FBB-300': {
    field: 'pricePerTonne',
    value: 1180,
    note: 'kraft (unbleached) folding boxboard: no published price per tonne, placed between GC2 and GC1',
  },
  'KRAFT-FBB-350': {
    field: 'pricePerTonne',
    value: 1160,
    note: 'kraft (unbleached) folding boxboard: no published price per tonne, placed between GC2 and GC1',
  },
};

/** True while `record`'s figure `field` is the default catalogue's estimate. */
export function estimateOf(record: { code: string } & Record<string, unknown>, field: string) {
  const estimate = CATALOGUE_ESTIMATES[record.code];
  if (!estimate || estimate.field !== field) return null;
  return Number(record[field]) === estimate.value ? estimate : null;
}

/** A small "estimate" badge whose tooltip gives the reasoning (docs/pricing.md). */
export function EstimateMark({
  record,
  field,
}: {
  record: { code: string } & Record<string, unknown>;
  field: string;
}) {
  const { t } = useTranslation();
  const estimate = estimateOf(record, field);
  if (!estimate) return null;
  return (
    <Tooltip label={t('admin.catalogue.estimateNote', { note: estimate.note })} multiline w={300} withArrow>
      <Badge
        // Dark on white: orange text this small falls below the 4.5:1 contrast (axe).
        variant="outline"
        color="dark.7"
        size="xs"
        ml={6}
        tabIndex={0}
        data-testid={`estimate-${record.code}`}
        aria-label={t('admin.catalogue.estimateNote', { note: estimate.note })}
      >
        {t('admin.catalogue.estimate')}
      </Badge>
    </Tooltip>
  );
}
