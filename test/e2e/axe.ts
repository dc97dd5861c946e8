import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** No serious or critical accessibility violation on the screen as it is now (axe-core, WCAG 2.1 A/AA). */
export async function expectAccessible(page: Page, screen: string) {
  // A dialog fading in is greyed for a moment: check the screen as it settles, not mid-transition.
  // (Spinners loop for ever: only finite animations are waited for.)
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`)
          .slice(0, 3)
          .join(' | ')}`,
    );
  expect(blocking, `accessibility of ${screen}`).toEqual([]);
}
