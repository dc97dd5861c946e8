/**
 * Issue 27: a client generated from the OpenAPI document (openapi-typescript + openapi-fetch) can
 * be trusted. The served document is turned into types, the flow of test/contract/flow.ts is
 * type-checked against them (its `@ts-expect-error` lines make tsc fail if the types let a wrong
 * request through), then the same flow runs over HTTP against the app.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlow } from '../contract/flow.ts';
import { buildTestApp, makeOrganisation, PASSWORD, type TestApp } from '../helpers/app.ts';

const run = promisify(execFile);
const OUT = 'test/.tmp/contract';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('a client generated from the OpenAPI document', () => {
  it('type-checks the customer flow written against it', async () => {
    const served = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    mkdirSync(OUT, { recursive: true });
    writeFileSync(`${OUT}/openapi.json`, served.body);
    await run('node_modules/.bin/openapi-typescript', [`${OUT}/openapi.json`, '-o', `${OUT}/schema.d.ts`]);
    const tsc = await run('node_modules/.bin/tsc', ['--noEmit', '-p', 'test/contract']).catch(
      (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code }),
    );
    expect(tsc.stdout).toBe('');
  }, 300_000);

  it('runs the flow over HTTP: sign in, company, brief, quote, publish, the PDF as bytes', async () => {
    const admin = await makeOrganisation(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const result = await runFlow({
      baseUrl: `http://127.0.0.1:${port}`,
      email: admin.email,
      password: PASSWORD,
    });
    expect(result.state).toBe('published');
    expect(Buffer.from(result.pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(result.pdf.length).toBeGreaterThan(1000);
    expect(result.refusedCode).toBe('not_found');
    const quote = await t.app.inject({
      method: 'GET',
      url: `/api/quotes/${result.quoteId}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(quote.json()).toMatchObject({ companyId: result.companyId, state: 'published' });
  }, 300_000);
});
