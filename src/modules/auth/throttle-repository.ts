/** The statements of the sign-in throttle (throttle.ts) on `sign_in_throttle`. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { signInThrottle } from '../../db/schema/platform.ts';

/** How long a count lasts and how long a key stays locked once it reaches its limit. */
export type ThrottleTimes = { windowSeconds: number; lockSeconds: number };

// Exact and independent of the session's time zone, to find the same window and lock again.
const micros = (column: typeof signInThrottle.windowStartedAt | typeof signInThrottle.lockedUntil) =>
  sql<string | null>`((extract(epoch from ${column}) * 1000000)::bigint)::text`;

const lockOf = (times: ThrottleTimes) => sql`now() + make_interval(secs => ${times.lockSeconds})`;

/**
 * Counts one attempt on `key` unless it is locked, locking it when the count reaches `max`
 * (one `INSERT ... ON CONFLICT DO UPDATE ... WHERE <not locked>`); answers the key's window and
 * lock (microseconds since the epoch), or undefined when it is locked.
 */
export async function reserveThrottleKey(tx: Executor, key: string, max: number, times: ThrottleTimes) {
  const lock = lockOf(times);
  const window = sql`make_interval(secs => ${times.windowSeconds})`;
  const stale = sql`${signInThrottle.windowStartedAt} < now() - ${window}`;
  const attempts = sql`case when ${stale} then 1 else ${signInThrottle.failures} + 1 end`;
  const [row] = await tx
    .insert(signInThrottle)
    .values({ key, failures: 1, windowStartedAt: sql`now()`, lockedUntil: max <= 1 ? lock : null })
    .onConflictDoUpdate({
      target: signInThrottle.key,
      set: {
        failures: attempts,
        windowStartedAt: sql`case when ${stale} then now() else ${signInThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when ${attempts} >= ${max} then ${lock} else ${signInThrottle.lockedUntil} end`,
      },
      setWhere: sql`${signInThrottle.lockedUntil} is null or ${signInThrottle.lockedUntil} <= now()`,
    })
    .returning({
      window: micros(signInThrottle.windowStartedAt),
      lockedUntil: micros(signInThrottle.lockedUntil),
    });
  return row;
}

/** The locks of these keys (null when a key is not locked). */
export function throttleLocksOf(tx: Executor, keys: string[]) {
  return tx
    .select({ lockedUntil: signInThrottle.lockedUntil })
    .from(signInThrottle)
    .where(inArray(signInThrottle.key, keys));
}

/** Forgets the count of a key. */
export async function deleteThrottleKey(db: Executor, key: string) {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}

/**
 * Gives back one place in `key`'s count if it is still in the window `window`, and lifts its lock
 * if it is the lock `lock` (both as a reservation read them, microseconds since the epoch).
 */
export async function giveBackThrottlePlace(db: Executor, key: string, window: string, lock: string | null) {
  const lockedByThis = lock ? sql`${micros(signInThrottle.lockedUntil)} = ${lock}` : sql`false`;
  await db
    .update(signInThrottle)
    .set({
      failures: sql`greatest(${signInThrottle.failures} - 1, 0)`,
      lockedUntil: sql`case when ${lockedByThis} then null else ${signInThrottle.lockedUntil} end`,
    })
    .where(and(eq(signInThrottle.key, key), sql`${micros(signInThrottle.windowStartedAt)} = ${window}`));
}
