import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  CODES_BY_MODULE_PATH,
  codesByModule,
  ERRORS_DOC_PATH,
  renderCodesByModule,
  renderErrorsDoc,
} from '../../scripts/errors-doc.ts';
import { OPENAPI_PATH } from '../../scripts/openapi.ts';
import { ERROR_CODES, type ErrorCode, isErrorCode } from '../../src/platform/error-codes.ts';
import { codesOfRoute, moduleOfTag } from '../../src/platform/error-openapi.ts';
import { AppError, registerErrorHandling } from '../../src/platform/errors.ts';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.name.endsWith('.ts') ? [full] : [];
  });

describe('the error code registry', () => {
  it('keeps docs/errors.md and the codes by module in step with the registry and the source (npm run docs:errors)', () => {
    expect(readFileSync(ERRORS_DOC_PATH, 'utf8')).toBe(renderErrorsDoc());
    expect(readFileSync(CODES_BY_MODULE_PATH, 'utf8')).toBe(renderCodesByModule());
  });

  it('describes every code: a title and what the client should do, no placeholder left by the codemod', () => {
    for (const [code, spec] of Object.entries(ERROR_CODES)) {
      expect(code, code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(spec.title.length, code).toBeGreaterThan(2);
      expect(spec.description, code).not.toMatch(/^TODO/);
    }
  });

  it('registers every code the source throws (static scan of src/)', () => {
    const unregistered: string[] = [];
    const legacy: string[] = [];
    for (const file of filesUnder('src')) {
      const text = readFileSync(file, 'utf8');
      for (const [, code] of text.matchAll(/new AppError\(\s*'([^']*)'/g))
        if (!isErrorCode(code as string)) unregistered.push(`${file}: ${code}`);
      for (const match of text.matchAll(/new AppError\(\s*\d/g)) legacy.push(`${file}: ${match[0]}`);
      for (const [, code] of text.matchAll(/\bcode: '([a-z][a-z0-9_]*)',?\s*(?:detail|status)/g))
        if (!isErrorCode(code as string)) unregistered.push(`${file}: ${code}`);
    }
    expect(unregistered).toEqual([]);
    expect(legacy, 'run the errors codemod').toEqual([]);
  });

  it('registers every code the tests expect', () => {
    const expected = new Set<string>();
    for (const file of filesUnder('test')) {
      // Lines that compare a `typeof` are about other values named code.
      const text = readFileSync(file, 'utf8').replace(/^.*typeof.*$/gm, '');
      for (const pattern of [
        /\.code\)\.toBe\('([a-z][a-z0-9_]*)'\)/g,
        /status: \d{3}, code: '([a-z][a-z0-9_]*)'/g,
        /code: '([a-z][a-z0-9_]*)', status: \d{3}/g,
      ])
        for (const [, code] of text.matchAll(pattern)) expected.add(code as string);
    }
    expect(expected.size).toBeGreaterThan(10);
    expect([...expected].filter((code) => !isErrorCode(code))).toEqual([]);
  });

  it('maps every OpenAPI tag to a feature module, so each route lists its module codes', () => {
    const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const tags = new Set(
      Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])),
    );
    for (const tag of tags) expect(existsSync(path.join('src/modules', moduleOfTag(tag))), tag).toBe(true);
    // A module whose routes throw a code has it listed (health throws none).
    expect(Object.keys(codesByModule())).toEqual(expect.arrayContaining(['quotes', 'orders', 'webhooks']));
  });

  it('lists a route its module codes and the platform codes of each status', () => {
    const publish = codesOfRoute(['quotes'], 409);
    expect(publish).toEqual(
      expect.arrayContaining(['invalid_transition', 'quote_locked', 'idempotency_key_in_use']),
    );
    expect(publish).not.toContain('duplicate_code');
    expect(codesOfRoute(['articles'], 409)).toContain('duplicate_code');
    expect(codesOfRoute(['companies'], 401)).toEqual(
      expect.arrayContaining(['unauthorized', 'invalid_token', 'token_expired']),
    );
  });
});

describe('AppError and the error handler', () => {
  it('answers with the status of the registry, a listed other status only, and a Bearer challenge on 401', () => {
    expect(new AppError('quote_locked', 'x').status).toBe(409);
    expect(new AppError('pdf_not_generated', 'x', { status: 409 }).status).toBe(409);
    expect(() => new AppError('quote_locked', 'x', { status: 422 })).toThrow(
      /not registered with status 422/,
    );
    expect(new AppError('token_expired', 'x').headers).toEqual({ 'www-authenticate': 'Bearer' });
  });

  it('fails loudly under test on a code missing from the registry, and answers a registered one', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const app = Fastify();
    registerErrorHandling(app);
    const framework = (code: string) => Object.assign(new Error('refused'), { statusCode: 400, code });
    app.get('/registered', async () => {
      throw framework('FST_ERR_CTP_EMPTY_JSON_BODY');
    });
    app.get('/unregistered', async () => {
      throw framework('FST_ERR_SOMETHING_NEW');
    });
    app.get('/app-error', async () => {
      throw new AppError('quote_locked' satisfies ErrorCode, 'The quote is locked');
    });
    const registered = await app.inject({ url: '/registered' });
    expect(registered.statusCode).toBe(400);
    expect(registered.json()).toMatchObject({ code: 'ctp_empty_json_body', status: 400 });
    const unregistered = await app.inject({ url: '/unregistered' });
    expect(unregistered.statusCode).toBe(500);
    expect(unregistered.body).toContain('Unregistered error code');
    const appError = await app.inject({ url: '/app-error' });
    expect(appError.json()).toMatchObject({ code: 'quote_locked', status: 409, title: 'Conflict' });
    await app.close();
  });
});
