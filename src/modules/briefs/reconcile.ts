import { invalidReference } from '../../platform/references.ts';
import { changedSpecFields, type ElementRow, type ElementValues, elementValues } from './mapping.ts';
import type { UpdateBrief } from './schemas.ts';

/** An element of a PATCH's list: its values, and the existing element it updates (none: a new one). */
export type Reconciled = { values: ElementValues; keep?: ElementRow };

/**
 * Matches the elements a PATCH /briefs/:id sends (the whole new list) with the brief's live ones:
 * an element with an `id` updates that element (422 `invalid_reference` when it is not one of
 * this brief's), one without takes the unclaimed element at its position, else it is new.
 * Existing elements matched by none are deleted by the caller. Pure: no I/O.
 */
export function reconcileElements(
  existing: readonly ElementRow[],
  sent: NonNullable<UpdateBrief['briefElements']>,
): Reconciled[] {
  const byId = new Map(existing.map((e) => [e.id, e]));
  const claimed = new Set<string>();
  const matches: (ElementRow | undefined)[] = sent.map((element, i) => {
    if (!element.id) return undefined;
    const match = byId.get(element.id);
    if (!match) throw invalidReference(`/briefElements/${i}/id`, 'element of this brief');
    claimed.add(match.id);
    return match;
  });
  sent.forEach((element, i) => {
    if (element.id) return;
    const match = existing.find((e) => e.position === element.position && !claimed.has(e.id));
    if (match) {
      claimed.add(match.id);
      matches[i] = match;
    }
  });
  return sent.map((element, i) => {
    const { id: _id, ...spec } = element;
    return { values: elementValues(spec), keep: matches[i] };
  });
}

/** Whether the reconciled list changes the brief's specification (and so its price). */
export const elementsChanged = (existing: readonly ElementRow[], reconciled: readonly Reconciled[]) =>
  reconciled.length !== existing.length ||
  reconciled.some((r) => !r.keep || changedSpecFields(r.keep, r.values).length > 0);
