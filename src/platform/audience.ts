import type { Actor } from './actor.ts';
import { isAllowed } from './permissions.ts';

/**
 * Who an answer is built for. `seller`: the converter's estimating staff (permission `costs:read`),
 * who see costs, margins and rates. `buyer`: everyone else (contacts, guests, external sales), who
 * see prices, tooling, delivery, lead times, specifications and drawings, never what they cost us.
 *
 * Views are built per audience from allowlists (what the buyer may see), never by deleting the
 * fields known to be internal from the seller's view: a field added to the seller's view later
 * stays out of the buyer's until someone decides otherwise.
 */
export type Audience = 'seller' | 'buyer';

export const audienceOf = (actor: Pick<Actor, 'role'>): Audience =>
  isAllowed(actor.role, 'costs:read') ? 'seller' : 'buyer';

/** The listed keys of `source` that it has, in the list's order. */
export function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (key in source) out[key] = source[key];
  return out;
}
