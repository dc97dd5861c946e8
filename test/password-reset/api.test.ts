import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens, users } from '../../src/db/schema/platform.ts';
import {
  auth,
  type Credentials,
  makeOrganisation,
  makeUser,
  PASSWORD,
  type TestApp,
} from '../helpers/app.ts';
import { expectProblem } from '../helpers/http.ts';
import { buildMailingApp, mailbox, type Received, textOf } from '../helpers/mail.ts';

let t: TestApp;
const box = mailbox();
const { mails } = box;
let admin: Credentials;

const post = (url: string, payload: unknown, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: ip });

/** Waits for the n-th captured mail to `to` (the outbox worker sends it). */
async function mailTo(to: string, count = 1): Promise<Received> {
  for (let i = 0; i < 600; i += 1) {
    const found = mails.filter((m) => m.to.includes(to));
    if (found.length >= count) return found[count - 1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to}`);
}

/** The token of a captured reset mail. */
function tokenOf(mail: Received): string {
  const text = textOf(mail);
  const match = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no link in ${text}`);
  return match[1]!;
}

beforeAll(async () => {
  t = await buildMailingApp(box);
  admin = await makeOrganisation(t);
});
afterAll(async () => {
  await t?.close();
  await box.close();
});

describe('password reset by e-mail', () => {
  it('mails a single-use link in the user language; the new password works, the old and the sessions do not', async () => {
    const user = await makeUser(t, admin, 'sales');
    await t.app.ctx.db
      .update(users)
      .set({ language: 'fr', firstName: 'Claire' })
      .where(eq(users.id, user.userId));
    // A browser session, to see it end.
    const session = await post('/api/session', { username: user.email, password: PASSWORD });
    expect(session.statusCode).toBe(200);

    const asked = await post('/api/password-reset/request', { login: user.email.toUpperCase() });
    expect(asked.statusCode).toBe(202);
    const mail = await mailTo(user.email);
    expect(textOf(mail)).toContain('Bonjour Claire');
    expect(textOf(mail)).toContain('Choisissez un nouveau mot de passe');
    expect(textOf(mail)).toContain('https://quotes.example/app/reset-password?token=');
    const token = tokenOf(mail);
    // Kept only as a hash.
    const stored = await t.app.ctx.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.userId));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);
    expect(stored[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    // The sign-up policy: at least 8 characters.
    const short = await post('/api/password-reset', { token, password: 'short' });
    expectProblem(short, 400, 'validation_failed');

    const done = await post('/api/password-reset', { token, password: 'a-brand-new-password' });
    expect(done.statusCode, done.body).toBe(204);

    // The old bearer token and the browser session are over.
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: auth(user) });
    expect(me.statusCode).toBe(401);
    const bearer = session.json().token as string;
    const viaSession = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(viaSession.statusCode).toBe(401);

    expect((await post('/api/sign-in', { username: user.email, password: PASSWORD })).statusCode).toBe(401);
    expect(
      (await post('/api/sign-in', { username: user.email, password: 'a-brand-new-password' })).statusCode,
    ).toBe(200);

    // Single use.
    const again = await post('/api/password-reset', { token, password: 'yet-another-password' });
    const problem = expectProblem(again, 400, 'reset_token_invalid');
    expect(problem.errors?.[0]?.pointer).toBe('/token');
  });

  it('refuses an expired token and an unknown one', async () => {
    const user = await makeUser(t, admin, 'admin');
    expect((await post('/api/password-reset/request', { login: user.email }, '10.0.0.2')).statusCode).toBe(
      202,
    );
    const token = tokenOf(await mailTo(user.email));
    await t.app.ctx.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, user.userId));
    expectProblem(
      await post('/api/password-reset', { token, password: 'a-brand-new-password' }),
      400,
      'reset_token_invalid',
    );
    expectProblem(
      await post('/api/password-reset', { token: 'not-a-token', password: 'a-brand-new-password' }),
      400,
      'reset_token_invalid',
    );
    // The old password still works.
    expect((await post('/api/sign-in', { username: user.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('answers an unknown login exactly as a known one, and sends nothing', async () => {
    const before = mails.length;
    const unknown = await post('/api/password-reset/request', { login: 'nobody@nowhere.test' }, '10.0.0.3');
    const user = await makeUser(t, admin, 'contact');
    const known = await post('/api/password-reset/request', { login: user.email }, '10.0.0.3');
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    await mailTo(user.email);
    expect(mails.slice(before).every((m) => !m.to.includes('nobody@nowhere.test'))).toBe(true);
  });

  it('is rate-limited per login, whether or not it exists', async () => {
    for (const login of ['ghost@nowhere.test', (await makeUser(t, admin, 'sales')).email]) {
      const answers: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        answers.push((await post('/api/password-reset/request', { login }, `10.1.0.${i}`)).statusCode);
      }
      expect(answers).toEqual([202, 202, 202, 202, 202, 429]);
    }
  });

  it('validates its input', async () => {
    expectProblem(await post('/api/password-reset/request', {}), 400, 'validation_failed');
    expectProblem(
      await post('/api/password-reset', { password: 'long-enough-pw' }),
      400,
      'validation_failed',
    );
  });
});
