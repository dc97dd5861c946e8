import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, apiCall, openE2eSession, screenshot } from './harness.ts';

/**
 * The imports screen in a real Chromium: a companies CSV with two bad rows is dropped on the page,
 * the import page follows it to the end, shows the two errors with their lines (downloadable), and
 * the good rows are in the companies list; templates and the original file download; a sales user
 * is not offered imports and is shown the API's refusal. Screenshots: test-results/e2e/imports-*.
 */
const e2e = openE2eSession({
  name: 'imports',
  env: { IMPORT_BATCH_SIZE: '10' },
  context: { acceptDownloads: true },
});
const { url, signInAs } = e2e;
/** Good rows: enough, in batches of 10, that the import runs for a while (its progress is polled). */
const GOOD = 1200;
const BAD_LINES = { name: 6, email: 11 }; // record numbers, the header being line 1

function companiesCsv() {
  const lines = ['externalId,name,email,website'];
  let good = 0;
  while (good < GOOD || lines.length <= BAD_LINES.email) {
    const line = lines.length + 1;
    if (line === BAD_LINES.name) lines.push('ERP-BAD-1,,nameless@e2e.test,');
    else if (line === BAD_LINES.email) lines.push('ERP-BAD-2,Broken Mail Ltd,not-an-address,');
    else {
      good++;
      lines.push(
        `ERP-${good},"Imported Company ${good}, Ltd",c${good}@imported.test,https://c${good}.example`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Drops a file on the dropzone as a drag and drop does: a `drop` event carrying a DataTransfer. */
async function dropFile(name: string, text: string) {
  const dataTransfer = await e2e.page.evaluateHandle(
    ({ name, text }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'text/csv' }));
      return transfer;
    },
    { name, text },
  );
  await e2e.page.dispatchEvent('[data-testid="import-dropzone"]', 'dragenter', { dataTransfer });
  await e2e.page.dispatchEvent('[data-testid="import-dropzone"]', 'drop', { dataTransfer });
}

async function download(click: () => Promise<void>) {
  const [file] = await Promise.all([e2e.page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
}

describe('CSV imports, end to end', () => {
  it('offers the four templates, built from the columns the service lists', async () => {
    await signInAs(ADMIN.email, ADMIN.password);
    await e2e.page.getByRole('link', { name: 'Imports' }).click();
    await e2e.page.getByRole('heading', { name: 'CSV imports' }).waitFor();
    await e2e.page.getByRole('button', { name: 'Companies template' }).waitFor();
    for (const type of ['Contacts', 'Articles', 'Orders'])
      await e2e.page.getByRole('button', { name: `${type} template` }).waitFor();
    const template = await download(() =>
      e2e.page.getByRole('button', { name: 'Companies template' }).click(),
    );
    expect(template.name).toBe('companies-template.csv');
    const header = template.text.trim().split(',');
    expect(header[0]).toBe('externalId');
    expect(header).toEqual(expect.arrayContaining(['name', 'parentExternalId', 'email', 'vatNumber']));
    await screenshot(e2e.page, 'imports-01-page');
    await expectAccessible(e2e.page, 'imports page');
  });

  it('imports a companies CSV with two bad rows: progress, then the two errors with their lines', async () => {
    const csv = companiesCsv();
    await dropFile('companies.csv', csv);
    await expect.poll(() => e2e.page.getByTestId('chosen-file').textContent()).toContain('companies.csv');
    // A dry run is the default (issue 26): this one writes.
    await e2e.page.getByLabel('Dry run (check and count, write nothing)').uncheck();
    await e2e.page.getByRole('button', { name: 'Start the import' }).click();

    // The import page starts from the upload's answer (waiting, 0 %) and polls until the end; every
    // state the progress bar showed is recorded by the page itself.
    await e2e.page.getByTestId('import-progress').waitFor();
    await e2e.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      const note = () => {
        const label = document.querySelector('[data-testid="import-progress-label"]')?.textContent ?? '';
        // An empty label is the bar being drawn, not a state it showed.
        if (label && seen.at(-1) !== label) seen.push(label);
      };
      note();
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await e2e.page.getByText(/of 1,202 rows$/).waitFor({ timeout: 90_000 });
    await screenshot(e2e.page, 'imports-02-running');
    await expect
      .poll(() => e2e.page.getByTestId('import-status').textContent(), { timeout: 90_000 })
      .toMatch(/^Done/);
    const seen = await e2e.page.evaluate(
      () => (window as unknown as { progressSeen: string[] }).progressSeen,
    );
    console.log('progress labels seen:', seen.join(' | '));
    expect(seen[0]).toMatch(/Waiting for a worker|Checking the file|of 1,202 rows/);
    expect(seen.at(-1)).toBe('1,202 of 1,202 rows');

    expect(await e2e.page.getByTestId('count-created').textContent()).toBe('1,200');
    expect(await e2e.page.getByTestId('count-errors').textContent()).toBe('2');
    expect(await e2e.page.getByTestId('count-updated').textContent()).toBe('0');
    const rows = e2e.page.getByTestId('import-errors').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).slice(0, 2);
    expect(await cells(0)).toEqual([String(BAD_LINES.name), 'name']);
    expect(await cells(1)).toEqual([String(BAD_LINES.email), 'email']);
    await screenshot(e2e.page, 'imports-03-result');
    await expectAccessible(e2e.page, 'import result');

    const errors = await download(() =>
      e2e.page.getByRole('button', { name: 'Download the errors (CSV)' }).click(),
    );
    const errorLines = errors.text.trim().split('\r\n');
    expect(errorLines[0]).toBe('line,column,message');
    expect(errorLines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual([
      `${BAD_LINES.name},name`,
      `${BAD_LINES.email},email`,
    ]);
    const original = await download(() =>
      e2e.page.getByRole('link', { name: 'Download the original file' }).click(),
    );
    expect(original.text).toBe(csv);
  });

  it('shows the good rows in the companies list, and the import in the list with its status', async () => {
    await e2e.page.getByRole('link', { name: 'Companies' }).click();
    await e2e.page.getByLabel('Search').fill('Imported Company 1199');
    await e2e.page.getByRole('link', { name: 'Imported Company 1199, Ltd' }).waitFor();
    await e2e.page.getByLabel('Search').fill('Broken Mail');
    await e2e.page.getByText('Nothing matches the search or filters.').waitFor();
    await e2e.page.getByLabel('Search').fill('');
    await expect.poll(() => e2e.page.getByText(/^1200 · Page 1\/48$/).count()).toBe(1);
    await screenshot(e2e.page, 'imports-04-companies');

    await e2e.page.getByRole('link', { name: 'Imports' }).click();
    const list = e2e.page.getByTestId('imports-list').locator('tbody tr');
    await expect.poll(() => list.count()).toBe(1);
    await expect.poll(() => list.first().textContent()).toMatch(/Companies.*Done/);
    // A status filter that excludes it empties the list; it lives in the URL.
    await e2e.page.getByRole('combobox', { name: 'Status' }).click();
    await e2e.page.getByRole('option', { name: 'Cancelled' }).click();
    await e2e.page.keyboard.press('Escape');
    await e2e.page.getByText('Nothing here yet').waitFor();
    expect(e2e.page.url()).toContain('status=3');
    await screenshot(e2e.page, 'imports-05-list-filtered');
  });

  it('runs a dry run: the counts say what would happen, nothing is written', async () => {
    await e2e.page.goto(url('/imports'));
    await dropFile('dry.csv', 'externalId,name\nERP-DRY-1,Dry Run Company\nERP-1,Renamed By Dry Run\n');
    await e2e.page.getByLabel('Dry run (check and count, write nothing)').check();
    await e2e.page.getByRole('button', { name: 'Start the import' }).click();
    await e2e.page.getByText('dry run', { exact: true }).waitFor();
    // Honest words: a dry run never reads "Done, e-mailed" (issue 26).
    await expect
      .poll(() => e2e.page.getByTestId('import-status').textContent(), { timeout: 60_000 })
      .toBe('Checked, nothing written');
    expect(await e2e.page.getByTestId('count-created').textContent()).toBe('1');
    expect(await e2e.page.getByTestId('count-updated').textContent()).toBe('1');
    const found = await apiCall(
      e2e.service.baseUrl,
      e2e.token,
      'GET',
      '/api/companies/pagination?search=Dry%20Run',
    );
    expect(found.meta.total).toBe(0);
  });

  it('refuses a file that is not CSV with the service’s reason, and archives an import', async () => {
    await e2e.page.goto(url('/imports'));
    await dropFile('photo.csv', 'GIF89a\u0000\u0001binary');
    await e2e.page.getByRole('button', { name: 'Start the import' }).click();
    await expect
      .poll(() => e2e.page.getByTestId('error-reason').first().textContent())
      .toMatch(/CSV|UTF-8|binary/i);
    await screenshot(e2e.page, 'imports-06-refused-file');

    const [record] = (await e2e.api('GET', '/api/imports?type=companies&sort=code,ASC')).data;
    await e2e.page.goto(url(`/imports/${record.id}`));
    await e2e.page.getByRole('button', { name: 'Archive' }).click();
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await e2e.page.getByText('The original file was archived').waitFor();
    // It leaves the list; the dry run stays.
    await e2e.page.goto(url('/imports'));
    const rows = e2e.page.getByTestId('imports-list').locator('tbody tr');
    await expect.poll(() => rows.locator('td:first-child').allTextContents()).toEqual(['2']);
  });

  it('does not offer imports to a sales user, and shows the API’s refusal at its URL', async () => {
    await e2e.api('POST', '/api/users', {
      email: 'seller@e2e.test',
      password: 'seller-password-1',
      role: 'sales',
    });
    await e2e.page.getByRole('button', { name: 'Sign out' }).click();
    await signInAs('seller@e2e.test', 'seller-password-1');
    expect(await e2e.page.getByRole('link', { name: 'Imports' }).count()).toBe(0);
    expect(await e2e.page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await e2e.page.goto(url('/imports'));
    await expect
      .poll(() => e2e.page.getByTestId('error-reason').first().textContent())
      .toMatch(/permission|not allowed|role/i);
    await screenshot(e2e.page, 'imports-07-sales-refused');
  });
});
