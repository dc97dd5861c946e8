import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { signInThrottle } from '../../db/schema/platform.ts';
import { tooManyRequests } from '../../platform/errors.ts';

export type ThrottleSettings = { maxFailures: number; windowSeconds: number; lockSeconds: number };

/**
 * Sign-in throttling per account and per client address, kept in the database so every node of a
 * cluster counts the same failures. An address is allowed more failures than an account, since many
 * users can share one address.
 */
export function createSignInThrottle(db: Db, settings: ThrottleSettings) {
  const ADDRESS_FACTOR = 4;
  const keys = (username: string, address: string) => ({
    account: `account:${username.toLowerCase()}`,
    address: `address:${address}`,
  });

  return {
    async assertAllowed(username: string, address: string) {
      const { account, address: addr } = keys(username, address);
      const rows = await db
        .select({ lockedUntil: signInThrottle.lockedUntil })
        .from(signInThrottle)
        .where(inArray(signInThrottle.key, [account, addr]));
      const now = Date.now();
      const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
      if (until > now)
        throw tooManyRequests(Math.ceil((until - now) / 1000), 'Too many failed sign-ins; retry later');
    },

    async recordFailure(username: string, address: string) {
      const { account, address: addr } = keys(username, address);
      for (const [key, max] of [
        [account, settings.maxFailures],
        [addr, settings.maxFailures * ADDRESS_FACTOR],
      ] as const) {
        const window = sql`make_interval(secs => ${settings.windowSeconds})`;
        const stale = sql`${signInThrottle.windowStartedAt} < now() - ${window}`;
        const failures = sql`case when ${stale} then 1 else ${signInThrottle.failures} + 1 end`;
        await db
          .insert(signInThrottle)
          .values({
            key,
            failures: 1,
            windowStartedAt: sql`now()`,
            lockedUntil: max <= 1 ? sql`now() + make_interval(secs => ${settings.lockSeconds})` : null,
          })
          .onConflictDoUpdate({
            target: signInThrottle.key,
            set: {
              failures,
              windowStartedAt: sql`case when ${stale} then now() else ${signInThrottle.windowStartedAt} end`,
              lockedUntil: sql`case when ${failures} >= ${max}
                then now() + make_interval(secs => ${settings.lockSeconds}) else ${signInThrottle.lockedUntil} end`,
            },
          });
      }
    },

    async recordSuccess(username: string) {
      await db.delete(signInThrottle).where(inArray(signInThrottle.key, [keys(username, '').account]));
    },
  };
}
