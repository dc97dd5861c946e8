/**
 * Issue 27: catalogue entries are typed in the OpenAPI document (src/modules/catalogue/schemas.ts),
 * closed (`additionalProperties: false`), so every field a client reads is declared. They are
 * served as plain JSON, so nothing here would be caught by a serializer: these checks hold the
 * document to what is stored and served.
 */
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_KINDS } from '../../src/modules/catalogue/repository.ts';
import { recordSchemaOf } from '../../src/modules/catalogue/schemas.ts';
import { CATALOGUE_VERSION, catalogueOfVersion } from '../../src/modules/catalogue/versions.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { expectProblem, requests } from '../helpers/http.ts';

// ajv-formats is CommonJS: the plugin is its `default` property.
const addFormats = formats.default;
const ajv = () => addFormats(new Ajv({ strict: false, allErrors: true }));
const errorsOf = (validate: { errors?: unknown[] | null }) => JSON.stringify(validate.errors);

/** A record's own fields as stored (seed.ts): without id, code and name; its own `kind` is not served. */
const dataOf = (record: object) => {
  const { id: _id, code: _code, name: _name, kind: _kind, ...data } = record as Record<string, unknown>;
  return data;
};

describe('catalogue record schemas', () => {
  it('declare every field of every released default catalogue, each of the right type', () => {
    const validator = ajv();
    for (let version = 1; version <= CATALOGUE_VERSION; version++) {
      const catalogue = catalogueOfVersion(version);
      const checks: [string, object][] = [
        ['settings', catalogue.settings],
        ...CATALOGUE_KINDS.flatMap((kind) =>
          catalogue[kind].map((record) => [kind, record] as [string, object]),
        ),
      ];
      for (const [kind, record] of checks) {
        const validate = validator.compile(recordSchemaOf(kind as 'settings'));
        const data = kind === 'settings' ? record : dataOf(record);
        const where = `v${version} ${kind} ${(record as { code?: string }).code ?? ''}`;
        expect(validate(data), `${where}: ${errorsOf(validate)}`).toBe(true);
      }
    }
  });

  it('refuse a field the engine does not know and a value of the wrong type', () => {
    const validate = ajv().compile(recordSchemaOf('machines'));
    const machine = dataOf(catalogueOfVersion(CATALOGUE_VERSION).machines[0]!);
    expect(validate(machine)).toBe(true);
    expect(validate({ ...machine, colourCount: 4 })).toBe(false);
    expect(validate({ ...machine, hourlyRate: '180' })).toBe(false);
  });
});

describe('catalogue answers against the OpenAPI document', () => {
  let t: TestApp;
  const http = requests(() => t);
  let admin: Credentials;
  let contact: Credentials;
  let document: { paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await makeOrganisation(t);
    contact = await makeUser(t, admin, 'contact');
    document = (await http.get(null, '/api/openapi.json')).json();
  });
  afterAll(() => t.close());

  /** The documented 200 schema of `GET path`, compiled against the whole document. */
  const answerValidator = (path: string) => {
    const validator = ajv();
    validator.addSchema(document, 'openapi');
    const pointer = `openapi#/paths/${path.replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`;
    const validate = validator.getSchema(pointer);
    if (!validate) throw new Error(`no answer schema for GET ${path}`);
    return validate;
  };

  it('serves every collection, to the seller and to a buyer, as its schema documents it', async () => {
    // Records the corrugated module adds to the collections (a flute is a material type, a board
    // made here has no grammage) and one of each of its own resources.
    const post = async (url: string, payload: object) => {
      const response = await http.post(admin, url, payload);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
      return response.json().id as string;
    };
    const flute = await post('/api/corrugated-flutes', {
      name: 'B',
      thickness: 3,
      outsideGain: 1.5,
      insideLoss: 1.5,
    });
    const board = await post('/api/corrugated-materials', { name: 'Board made here', description: 'kraft' });
    const supplier = await post('/api/corrugated-suppliers', {
      name: 'Mill',
      contactInfo: 'mill@example.com',
    });
    const liner = await post('/api/corrugated-liners', {
      name: 'K150',
      weight: 150,
      label: { 'en-US': 'Kraft 150' },
      category: 'Kraft',
      color: 'brown',
    });
    await post('/api/corrugated-formats', { width: 1200, length: 800 });
    const composition = await post('/api/corrugated-material-compositions', {
      corrugatedMaterial: board,
      flute,
      liners: [liner, liner],
      supplierId: supplier,
      pricePerSquareMetre: 0.4,
    });
    await post('/api/corrugated-material-composition-prices', {
      corrugatedMaterialComposition: composition,
      price: 0.42,
      currency: 'EUR',
      validFrom: '2026-01-01',
    });
    // An edit that adds an optional field the default record lacks.
    const [machine] = (await http.get(admin, '/api/machines')).json();
    const edit = await http.patch(admin, `/api/machines/${machine.id}`, { data: { maxUps: 4 } });
    expect(edit.statusCode, edit.body).toBe(200);

    // Every list and the settings of the catalogue and corrugated routes.
    const tagged = (tag: string) =>
      Object.keys(document.paths).filter(
        (path) =>
          !path.includes('{') &&
          (document.paths[path]!.get as { tags?: string[] } | undefined)?.tags?.includes(tag),
      );
    expect(tagged('catalogue')).toEqual(
      expect.arrayContaining([
        '/api/machines',
        '/api/products',
        '/api/delivery-zones',
        '/api/pricing-settings',
      ]),
    );
    expect(tagged('catalogue')).toHaveLength(13);
    expect(tagged('corrugated')).toHaveLength(7);
    let checked = 0;
    for (const path of [...tagged('catalogue'), ...tagged('corrugated')]) {
      const validate = answerValidator(path);
      for (const who of [admin, contact]) {
        const answer = await http.get(who, path);
        // Suppliers and purchase prices are the seller's (costs:read).
        if (who === contact && answer.statusCode === 403) continue;
        expect(answer.statusCode, `${path}: ${answer.body}`).toBe(200);
        const body = answer.json();
        expect(Array.isArray(body) ? body : (body.data ?? [body]), path).not.toHaveLength(0);
        expect(validate(body), `GET ${path} as ${who.role}: ${errorsOf(validate)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBe(13 * 2 + 7 + 5);
    const machines = (await http.get(admin, '/api/machines')).json();
    expect(machines.find((m: { id: string }) => m.id === machine.id).maxUps).toBe(4);
  });

  it('documents no untyped catalogue entry: closed schemas with the fields a client needs', () => {
    const schemas = (
      document as unknown as { components: { schemas: Record<string, Record<string, unknown>> } }
    ).components.schemas;
    expect(schemas.CatalogueEntry).toBeUndefined();
    for (const name of ['Product', 'MaterialReference', 'Machine', 'DeliveryZone', 'PricingSettings']) {
      expect(schemas[name], name).toMatchObject({ type: 'object', additionalProperties: false });
    }
    expect(Object.keys(schemas.Machine!.properties as object)).toEqual(
      expect.arrayContaining(['hourlyRate', 'operations', 'capabilities', 'minFormat']),
    );
    // A buyer is not served a machine's rate: optional in the answer, and said so.
    expect(schemas.Machine!.required).not.toContain('hourlyRate');
    expect(schemas.Product!.required).toEqual(expect.arrayContaining(['allowedMatterIds', 'style']));
  });

  it('still refuses a catalogue edit of the wrong type (behaviour unchanged)', async () => {
    const [zone] = (await http.get(admin, '/api/delivery-zones')).json();
    const response = await http.patch(admin, `/api/delivery-zones/${zone.id}`, {
      data: { pricePerPallet: 'cheap' },
    });
    expectProblem(response, 400);
  });
});
