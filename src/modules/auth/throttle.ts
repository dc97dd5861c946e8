import type { Db } from '../../db/client.ts';
import { tooManyRequests } from '../../platform/errors.ts';
import {
  deleteThrottleKey,
  giveBackThrottlePlace,
  reserveThrottleKey,
  throttleLocksOf,
} from './throttle-repository.ts';

export type ThrottleSettings = { maxFailures: number; windowSeconds: number; lockSeconds: number };

/** What a sign-in attempt holds while its password is checked (see `reserve`). */
export type Reservation = {
  account: string;
  address: string;
  /** The address row's window and lock as the reservation left them (microseconds since the epoch). */
  addressWindow: string;
  addressLock: string | null;
};

/**
 * Sign-in throttling per account and per client address, kept in the database so every node of a
 * cluster counts the same failures. An address is allowed more failures than an account, since many
 * users can share one address.
 *
 * Every attempt reserves its place in both counts before its password is checked (issue 23, probe
 * 3): reading the lock, checking, then recording the failure let concurrent attempts all pass the
 * read, so 30 at once checked 29 passwords against a limit of 5. A reservation is one
 * `INSERT ... ON CONFLICT DO UPDATE ... WHERE <not locked>` per key, which counts the attempt and
 * locks the key when the count reaches the limit; PostgreSQL runs concurrent ones on a row one after
 * the other, on whichever node they come from. A failed attempt keeps its reservation (it is the
 * failure); a successful one clears the account's count, as a success always has, and gives back
 * its place in the address's count.
 */
export function createSignInThrottle(db: Db, settings: ThrottleSettings, options: { prefix?: string } = {}) {
  const ADDRESS_FACTOR = 4;
  // Another use of the same counters (password-reset requests) keeps its own keys.
  const prefix = options.prefix ?? '';
  const keys = (username: string, address: string) => ({
    account: `${prefix}account:${username.toLowerCase()}`,
    address: `${prefix}address:${address}`,
  });

  return {
    /**
     * Reserves one attempt in the account's and the address's counts, both or neither (one
     * transaction); throws 429 `too_many_requests` with Retry-After, without counting anything,
     * when either is locked. Call before checking the password.
     */
    async reserve(username: string, address: string): Promise<Reservation> {
      const { account, address: addr } = keys(username, address);
      return db.transaction(async (tx) => {
        const forAccount = await reserveThrottleKey(tx, account, settings.maxFailures, settings);
        const forAddress =
          forAccount && (await reserveThrottleKey(tx, addr, settings.maxFailures * ADDRESS_FACTOR, settings));
        if (!forAccount || !forAddress) {
          const rows = await throttleLocksOf(tx, [account, addr]);
          const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
          // Thrown inside the transaction: the account's reservation, if any, is rolled back.
          throw tooManyRequests(
            Math.max(1, Math.ceil((until - Date.now()) / 1000)),
            'Too many failed sign-ins; retry later',
          );
        }
        return {
          account,
          address: addr,
          addressWindow: forAddress.window!,
          addressLock: forAddress.lockedUntil,
        };
      });
    },

    /**
     * The attempt succeeded: the account's failures are forgiven, and the address gets its place
     * back (in the same window only; and the lock, if this very attempt set it).
     */
    async succeeded(reservation: Reservation) {
      await deleteThrottleKey(db, reservation.account);
      await giveBackThrottlePlace(
        db,
        reservation.address,
        reservation.addressWindow,
        reservation.addressLock,
      );
    },
  };
}
