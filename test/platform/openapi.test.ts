import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../scripts/openapi.ts';
import { renderPermissionsDoc } from '../../scripts/permissions-doc.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  responses?: Record<string, unknown>;
  requestBody?: unknown;
};

describe('OpenAPI and docs', () => {
  it('serves an OpenAPI 3.1 document in which every operation is identified, tagged and secured', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes).toHaveProperty('bearerAuth');
    expect(doc.components.securitySchemes).toHaveProperty('accessToken');
    const operationIds = new Set<string>();
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      expect(path.startsWith('/api/') || path === '/health', path).toBe(true);
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (!op.operationId) problems.push(`${where}: no operationId`);
        else if (operationIds.has(op.operationId))
          problems.push(`${where}: duplicate operationId ${op.operationId}`);
        else operationIds.add(op.operationId);
        if (!op.tags?.length) problems.push(`${where}: no tags`);
        const statuses = Object.keys(op.responses ?? {});
        if (!statuses.some((s) => s.startsWith('2') || s.startsWith('3')))
          problems.push(`${where}: no success response`);
        const isPublic =
          ['/api/sign-in', '/api/session', '/api/session/refresh', '/health'].includes(path) ||
          path.startsWith('/api/public/');
        if (!isPublic && !op.security) problems.push(`${where}: no security`);
        if (!isPublic && !statuses.includes('401')) problems.push(`${where}: 401 not documented`);
      }
    }
    expect(problems).toEqual([]);
    expect(operationIds.size).toBeGreaterThan(5);
  });

  it('serves the docs page and its assets from the service itself', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset.startsWith('http'), `asset ${asset} must be local`).toBe(false);
      const url = asset.startsWith('/') ? asset : `/docs/${asset.replace(/^\.\//, '')}`;
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
  });

  it('answers /health', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('ok');
    expect(response.json().node).toBe(process.version);
  });

  it('runs on the Node.js the project brings (>= 24), not an end-of-life one', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('keeps docs/openapi.json in step with the served document (npm run openapi)', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'))).toEqual(served);
  });

  it('keeps docs/permissions.md in step with the permission matrix', () => {
    expect(readFileSync('docs/permissions.md', 'utf8')).toBe(renderPermissionsDoc());
  });
});
