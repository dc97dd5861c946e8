import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  ADMIN,
  apiCall,
  launchBrowser,
  type Service,
  screenshot,
  signInApi,
  startService,
  watchCspViolations,
} from './browser.ts';

export * from './browser.ts';

export type E2eSession = {
  service: Service;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The admin's API token (when signIn is not false). */
  token: string;
  /** The web app's URL of a path, e.g. url('/companies'). */
  url: (path: string) => string;
  /** apiCall as the admin. */
  api: (method: string, path: string, body?: unknown) => ReturnType<typeof apiCall>;
  /** Signs in through the sign-in screen (English labels) and waits for the signed-in header. */
  signInAs: (username: string, password: string) => Promise<void>;
  /** Signs out and waits for the sign-in screen. */
  signOut: () => Promise<void>;
  /** The CSP violations seen so far in the current test (each test fails on any). */
  cspViolations: string[];
};

/**
 * Registers the set-up every e2e file shares: the built service (with env) and Chromium started
 * before the file's tests, one page at 1400x900 in en-GB (plus context options), the admin signed in
 * through the API, a screenshot `<name>-failed-<test>` when a test fails, all closed at the end.
 * Call it at the top level of the file; the session's fields are there once beforeAll has run, so
 * the file's own beforeAll hooks (registered after it) may use them.
 */
export function openE2eSession(options: {
  name: string;
  env?: Record<string, string>;
  context?: BrowserContextOptions;
  signIn?: boolean;
  /** More Chromium switches (WEBGL_ARGS for a WebGL canvas). */
  launchArgs?: string[];
}): E2eSession {
  const session = {
    url: (path: string) => `${session.service.baseUrl}/app${path}`,
    api: (method: string, path: string, body?: unknown) =>
      apiCall(session.service.baseUrl, session.token, method, path, body),
    async signInAs(username: string, password: string) {
      const { page } = session;
      await page.goto(session.url('/'));
      await page.getByLabel('Username or e-mail').fill(username);
      await page.locator('input[name=password]').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('signed-in-user').waitFor();
    },
    async signOut() {
      // A notification (top right) covers the header's Sign out button, and Mantine holds its
      // auto-close while the pointer is over it, where a click on Sign out puts it: close them first.
      for (const close of await session.page.locator('.mantine-Notification-closeButton').all())
        await close.click({ timeout: 5_000 }).catch(() => undefined);
      await session.page.getByRole('button', { name: 'Sign out' }).click();
      await session.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    },
  } as E2eSession;
  beforeAll(async () => {
    session.service = await startService(options.env);
    session.browser = await launchBrowser(options.launchArgs);
    session.context = await session.browser.newContext({
      viewport: { width: 1400, height: 900 },
      locale: 'en-GB',
      ...options.context,
    });
    session.cspViolations = await watchCspViolations(session.context);
    session.page = await session.context.newPage();
    if (options.signIn !== false)
      session.token = await signInApi(session.service.baseUrl, ADMIN.email, ADMIN.password);
  });
  afterEach(async (test) => {
    // What the screen showed when a step failed, beside the other screenshots.
    if (test.task.result?.state === 'fail' && session.page)
      await screenshot(session.page, `${options.name}-failed-${test.task.name.slice(0, 40)}`);
    // The service's Content Security Policy refused nothing the screens of this test needed.
    const violations = session.cspViolations?.splice(0) ?? [];
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.service?.stop();
  });
  return session;
}
