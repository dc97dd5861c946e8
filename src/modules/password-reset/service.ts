import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/errors.ts';
import { MAIL_DELIVER_JOB, queueMail } from '../../platform/mail-outbox.ts';
import { hashPassword, verifyDecoy } from '../../platform/passwords.ts';
import { createSignInThrottle } from '../auth/throttle.ts';
import { passwordResetMail } from '../notifications/password-reset-mail.ts';
import { mailLanguageOf } from '../notifications/templates.ts';
import { applyNewPassword, findUserForReset, insertResetToken, takeResetToken } from './repository.ts';

/** How long a reset link works. */
export const RESET_TOKEN_TTL_MINUTES = 60;
/** Requests per login (and four times as many per client address) per hour; then 429 for an hour. */
const REQUESTS_PER_HOUR = 5;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const invalidToken = () =>
  new AppError('reset_token_invalid', 'This password reset link is unknown, used or expired', {
    issues: [
      { pointer: '/token', message: 'is unknown, used or expired', in: 'body', keyword: 'resetToken' },
    ],
  });

/**
 * Password reset by e-mail (docs/security.md, "Password reset"). A request always answers the same
 * (202) whether or not the login exists, and is throttled per login and per client address with the
 * sign-in counters (own keys). The token is 256 random bits, e-mailed once, kept as its SHA-256,
 * usable once and for RESET_TOKEN_TTL_MINUTES.
 */
export function createPasswordResetService(ctx: Pick<AppContext, 'db' | 'config' | 'jobs' | 'log'>) {
  const { db, config } = ctx;
  const throttle = createSignInThrottle(
    db,
    { maxFailures: REQUESTS_PER_HOUR, windowSeconds: 3600, lockSeconds: 3600 },
    { prefix: 'reset:' },
  );

  return {
    async request(login: string, address: string) {
      await throttle.reserve(login, address);
      const user = await findUserForReset(db, login);
      if (!user?.email) {
        // Costs about what a real request costs, so the answer's timing says little.
        await verifyDecoy('');
        return;
      }
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000);
      const lang = mailLanguageOf(user.language);
      const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
      const link = `${config.publicBaseUrl}/app/reset-password?token=${encodeURIComponent(token)}`;
      const mail = passwordResetMail[lang]({
        name,
        organisationName: user.organisationName,
        link,
        validMinutes: RESET_TOKEN_TTL_MINUTES,
      });
      await db.transaction(async (tx) => {
        await insertResetToken(tx, {
          organisationId: user.organisationId,
          userId: user.id,
          tokenHash: hashToken(token),
          expiresAt,
        });
        await queueMail(
          tx,
          { organisationId: user.organisationId, kind: 'password_reset', to: [user.email!], ...mail },
          config,
        );
      });
      if (config.smtpUrl) {
        ctx.jobs
          .send(MAIL_DELIVER_JOB, {})
          .catch((error) => ctx.log.warn({ err: error }, 'mail delivery not woken (the sweep will send)'));
      }
    },

    async reset(token: string, password: string) {
      // Hashed before the transaction: argon2 takes a while and PGlite has one connection.
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const row = await takeResetToken(tx, hashToken(token));
        if (!row) throw invalidToken();
        await applyNewPassword(tx, row.userId, passwordHash);
      });
    },
  };
}
