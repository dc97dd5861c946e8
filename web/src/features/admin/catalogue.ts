import { useQueryClient } from '@tanstack/react-query';
import type { CatalogueEntry } from '../../api/queries.ts';
import { catalogueKeys } from '../../api/queries.ts';
import { estimateKeys } from '../briefs/api/index.ts';
import { adminKeys } from './api.ts';

/** The catalogue collections the estimator tunes here (GET lists, PATCH {data} per record). */
export type CataloguePath =
  | '/api/machines'
  | '/api/material-references'
  | '/api/corrugated-material-compositions';
export type { CatalogueEntry };

export type MachineRate = {
  operationId: string;
  setupHours: number;
  speedPerHour: number;
  makeReady: number;
  [key: string]: unknown;
};

/** A number field of a record, or undefined when the record lacks it. */
export const num = (entry: CatalogueEntry, key: string) =>
  typeof entry[key] === 'number' ? (entry[key] as number) : undefined;

/**
 * After an edit: the catalogue lists, and every price preview, which depends on the rates
 * (the configurator's estimates and the re-price panel).
 */
export function useCatalogueChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.catalogue }),
      queryClient.invalidateQueries({ queryKey: catalogueKeys.all }),
      queryClient.invalidateQueries({ queryKey: adminKeys.reprice }),
      queryClient.invalidateQueries({ queryKey: estimateKeys.all }),
    ]);
}
