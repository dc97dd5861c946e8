import type { TFunction } from 'i18next';
import { number } from '../../ui/format.ts';

type Proposal = {
  type: string;
  changes: { pointer: string; field: string; from: unknown; to: unknown }[];
  alreadyApplied?: boolean;
};

const total = (decorations: unknown) =>
  Array.isArray(decorations)
    ? decorations.reduce((sum: number, d: { quantity?: number }) => sum + (d?.quantity ?? 0), 0)
    : Number(decorations);

const FINISH_LEVERS: Record<string, string> = {
  wantLaminationRecto: 'dropLamination',
  wantVarnishRecto: 'dropVarnish',
  wantStampingRecto: 'dropFoil',
  wantEmbossingDebossingRecto: 'dropEmbossing',
  wantWindow: 'dropWindow',
};

/**
 * A value-analysis proposal in the user's words and language (issue 26), from its type and the
 * changes it applies, never from the engine's English `description` (which names zero-based
 * decoration indices). A proposal whose changes say nothing more gets its lever's sentence.
 */
export function suggestionText(proposal: Proposal, t: TFunction): string {
  const [first, second] = proposal.changes;
  const precise = (): string | undefined => {
    if (!first) return undefined;
    switch (proposal.type) {
      case 'INCREASE_QUANTITY':
        if (first.field !== 'decorationsCount' && first.field !== 'quantity') return undefined;
        return t('engine.levers.orderMore', { from: number(total(first.from)), to: number(total(first.to)) });
      case 'SIMPLIFY_FINISHING': {
        if (
          first.field === 'wantLaminationRecto' &&
          second?.field === 'wantVarnishRecto' &&
          second.to === true
        )
          return t('engine.levers.laminationToVarnish');
        const lever = FINISH_LEVERS[first.field];
        return lever ? t(`engine.levers.${lever}`) : undefined;
      }
      case 'ADJUST_DIMENSIONS':
        if (!['lengthDimension', 'widthDimension', 'heightDimension'].includes(first.field)) return undefined;
        return t('engine.levers.reduceDimension', {
          dimension: t(`engine.dimensions.${first.field}`),
          from: number(Number(first.from)),
          to: number(Number(first.to)),
        });
      case 'CHEAPER_TOTAL_ROUTE':
        if (first.field !== 'printingProcess') return undefined;
        return t('engine.levers.printWith', {
          from: t(`engine.processes.${String(first.from)}`, { defaultValue: '' }) || String(first.from),
          to: t(`engine.processes.${String(first.to)}`, { defaultValue: '' }) || String(first.to),
        });
      default:
        return undefined;
    }
  };
  const text =
    precise() ??
    (t(`engine.optimisations.${proposal.type}`, { defaultValue: '' }) || t('configurator.suggestions'));
  // A gang run the engine chose itself changes nothing in the brief: the saving is in the price.
  const applied = proposal.alreadyApplied ?? (proposal.type === 'GANG_RUN' && proposal.changes.length === 0);
  return applied ? `${text} (${t('engine.levers.alreadyApplied')})` : text;
}
