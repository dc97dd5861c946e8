import { describe, expect, it } from 'vitest';
import { ADMIN, openE2eSession, screenshot } from './harness.ts';

/**
 * The service's security headers (src/platform/security-headers.ts, probe 3 of issue 23) in a real
 * Chromium: the app and Swagger UI at /docs work under their Content Security Policies (the harness
 * fails a test on any CSP violation, in every e2e file), and the answers carry the headers.
 * Screenshots: test-results/e2e/security-*.png.
 */
const e2e = openE2eSession({ name: 'security', signIn: false });

describe('security headers, end to end', () => {
  it('serves the app under its policy: the sign-in screen works and no framing is allowed', async () => {
    const response = await e2e.page.goto(e2e.url('/'));
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    await e2e.page.getByLabel('Username or e-mail').fill(ADMIN.email);
    await e2e.page.locator('input[name=password]').fill(ADMIN.password);
    await e2e.page.getByRole('button', { name: 'Sign in' }).click();
    await e2e.page.getByTestId('signed-in-user').waitFor();
    await screenshot(e2e.page, 'security-01-app');
  });

  it('serves Swagger UI at /docs under its own policy: it renders and calls the API', async () => {
    const response = await e2e.page.goto(`${e2e.service.baseUrl}/docs`);
    expect(response!.headers()['content-security-policy']).toContain("default-src 'self'");
    const health = e2e.page.locator('.opblock').filter({ hasText: '/health' }).first();
    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    const status = health.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect(await status.textContent()).toContain('200');
    await screenshot(e2e.page, 'security-02-docs');
  });
});
