import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../scripts/openapi.ts';
import { renderPermissionsDoc } from '../../scripts/permissions-doc.ts';
import { ERROR_CODES } from '../../src/platform/error-codes.ts';
import { buildTestApp, makeOrganisation, type TestApp } from '../helpers/app.ts';
import { expectProblem, requests } from '../helpers/http.ts';

let t: TestApp;
const http = requests(() => t);
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
    const response = await http.get(null, '/api/openapi.json');
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
    const page = await http.get(null, '/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset.startsWith('http'), `asset ${asset} must be local`).toBe(false);
      const url = asset.startsWith('/') ? asset : `/docs/${asset.replace(/^\.\//, '')}`;
      expect((await http.get(null, url)).statusCode, url).toBe(200);
    }
  });

  it('answers /health', async () => {
    const response = await http.get(null, '/health');
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('ok');
    expect(response.json().node).toBe(process.version);
  });

  it('runs on the Node.js the project brings (>= 24), not an end-of-life one', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('keeps docs/openapi.json in step with the served document (npm run openapi)', async () => {
    const served = (await http.get(null, '/api/openapi.json')).json();
    expect(JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'))).toEqual(served);
  });

  it('keeps docs/permissions.md in step with the permission matrix', () => {
    expect(readFileSync('docs/permissions.md', 'utf8')).toBe(renderPermissionsDoc());
  });

  describe('the contract a generated client relies on (issue 27)', () => {
    type Doc = {
      servers?: { url: string }[];
      info: Record<string, unknown>;
      paths: Record<
        string,
        Record<
          string,
          Operation & {
            responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
          }
        >
      >;
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    let doc: Doc;
    beforeAll(async () => {
      doc = (await http.get(null, '/api/openapi.json')).json();
    });
    const operations = () =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, path, op })),
      );

    it('documents error answers as application/problem+json, as they are served', async () => {
      const misdocumented: string[] = [];
      let problems = 0;
      for (const { where, op } of operations())
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const types = Object.keys(response.content ?? {});
          if (types.length !== 1 || types[0] !== 'application/problem+json')
            misdocumented.push(`${where} ${status}`);
          else problems++;
        }
      expect(misdocumented).toEqual([]);
      expect(problems).toBeGreaterThan(100);
      const served = await http.get(null, '/api/companies');
      expect(served.statusCode).toBe(401);
      expect(served.headers['content-type']).toMatch(/^application\/problem\+json/);
    });

    it('declares `security: []` on exactly the operations served without a credential', async () => {
      const open = operations().filter(({ op }) => Array.isArray(op.security) && op.security.length === 0);
      expect(open.map(({ where }) => where)).toEqual(
        expect.arrayContaining([
          'GET /health',
          'POST /api/sign-in',
          'POST /api/session',
          'GET /api/public/quotes/pdf/{token}',
        ]),
      );
      for (const { where, path } of open) {
        const [method, url] = where.split(' ') as [string, string];
        if (method !== 'GET' || url.includes('{')) continue;
        const anonymous = await http.get(null, path);
        expect(anonymous.statusCode, where).not.toBe(401);
      }
      const unsecured = operations().filter(({ op }) => !Array.isArray(op.security));
      expect(unsecured.map(({ where }) => where)).toEqual([]);
    });

    it('has a server relative to the service root, and lists the unprefixed paths', () => {
      expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
      const unprefixed = doc.info['x-unprefixed-paths'] as { path: string }[];
      expect(new Set(unprefixed.map(({ path }) => path)).size).toBe(unprefixed.length);
      expect(doc.info['x-unprefixed-paths']).toEqual(
        expect.arrayContaining([
          { path: '/orders', sameAs: '/api/orders' },
          { path: '/quotes', sameAs: '/api/quotes' },
        ]),
      );
    });

    it('types PDF, CSV and file answers as binary', () => {
      const binary = operations().flatMap(({ where, op }) =>
        Object.entries(op.responses['200']?.content ?? op.responses['201']?.content ?? {})
          .filter(([type]) => !type.endsWith('json'))
          .map(([type, media]) => ({ where, type, schema: media.schema })),
      );
      expect(binary.map(({ type }) => type)).toEqual(
        expect.arrayContaining(['application/pdf', 'text/csv', 'application/octet-stream']),
      );
      for (const { where, schema } of binary)
        expect(schema, where).toMatchObject({ type: 'string', format: 'binary' });
    });

    it('types request dates as strings (a date or a timestamp), never as an untyped anyOf', () => {
      const body = doc.paths['/api/orders']!.post!.requestBody as {
        content: Record<string, { schema: { properties: Record<string, unknown> } }>;
      };
      expect(body.content['application/json']!.schema.properties.orderDate).toMatchObject({
        anyOf: [
          { type: 'string', format: 'date' },
          { type: 'string', format: 'date-time' },
          { type: 'null' },
        ],
      });
      const untyped: string[] = [];
      const walk = (node: unknown, where: string) => {
        if (Array.isArray(node)) for (const [i, item] of node.entries()) walk(item, `${where}/${i}`);
        else if (node && typeof node === 'object') {
          const { anyOf } = node as { anyOf?: Record<string, unknown>[] };
          if (anyOf?.some((branch) => 'format' in branch && !('type' in branch))) untyped.push(where);
          for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
        }
      };
      walk(doc.paths, '#/paths');
      expect(untyped).toEqual([]);
    });

    it('refuses a date that is not a string, as the document says (400 problem at its pointer)', async () => {
      const admin = await makeOrganisation(t);
      for (const orderDate of [42, true, '2025-02-30', 'tomorrow']) {
        const response = await http.post(admin, '/api/orders', { billedAmount: 1, orderDate });
        const problem = expectProblem(response, 400, 'validation_failed');
        expect(
          problem.errors?.map((e) => e.pointer),
          String(orderDate),
        ).toContain('/orderDate');
      }
      const accepted = await http.post(admin, '/api/orders', { billedAmount: 1, orderDate: '2025-03-01' });
      expect(accepted.statusCode, accepted.body).toBe(201);
    });

    it('documents the HIPE aliases the service accepts', () => {
      const bodyOf = (path: string, method: string) =>
        (
          doc.paths[path]![method]!.requestBody as {
            content: Record<string, { schema: { properties: Record<string, { enum?: string[] }> } }>;
          }
        ).content['application/json']!.schema.properties;
      expect(bodyOf('/api/statuses', 'post').entity!.enum).toEqual(
        expect.arrayContaining(['quote', 'QUOTES', 'ORDERS']),
      );
      expect(bodyOf('/api/addresses', 'post')).toHaveProperty('address');
      expect(bodyOf('/api/addresses', 'post')).toHaveProperty('country');
    });

    it("lists the registry's codes as the problem `code` enum", () => {
      expect(doc.components.schemas.Problem!.properties.code!.enum).toEqual(Object.keys(ERROR_CODES));
    });

    it('states "companyId unless projectId" of a brief in the schema, as the service checks it', async () => {
      for (const path of ['/api/briefs', '/api/briefs/async']) {
        const body = doc.paths[path]!.post!.requestBody as {
          content: Record<string, { schema: { allOf?: { anyOf: { required: string[] }[] }[] } }>;
        };
        expect(
          body.content['application/json']!.schema.allOf!.map((part) => part.anyOf.map((b) => b.required)),
        ).toEqual([[['companyId'], ['projectId']]]);
      }
      const admin = await makeOrganisation(t);
      const idOf = async (url: string, code: string) =>
        (await http.get(admin, url)).json().find((r: { code: string }) => r.code === code).id;
      const element = {
        position: 0,
        productId: await idOf('/api/products', 'STE'),
        materialReferenceId: await idOf('/api/material-references', 'GC1-350'),
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
      };
      const response = await http.post(admin, '/api/briefs', {
        name: 'No company',
        briefElements: [element],
      });
      const problem = expectProblem(response, 400);
      expect(problem.errors?.map((e) => e.pointer)).toEqual(['/companyId']);
    });

    it('states "companyId unless projectId" and "briefIds or items" of a quote in the schema', () => {
      const body = doc.paths['/api/quotes']!.post!.requestBody as {
        content: Record<string, { schema: { allOf?: { anyOf: { required: string[] }[] }[] } }>;
      };
      const requirements = body.content['application/json']!.schema.allOf!.map((part) =>
        part.anyOf.map((branch) => branch.required),
      );
      expect(requirements).toEqual([
        [['companyId'], ['projectId']],
        [['briefIds'], ['items']],
      ]);
    });
  });
});
