/**
 * Issue 24, the quote as a commercial document: the brief's decoration variants kept as sub-lines
 * of their line from the quote to the PDF and the order (amounts adding up to the line, to the
 * cent), tooling as named lines counted once, every order amount with its currency, the PO number
 * of the acceptance on the order, the PDF grouped by groupLabel with the finishes in its
 * specification, and catalogue names per language in the PDF.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, companies, companyUsers } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { requests, type Schemas } from '../helpers/http.ts';
import { extractPdfText } from '../helpers/pdf-text.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let contact: Credentials;
let catalogue: Catalogue;
let acmeId: string;
let addressId: string;

type Item = Schemas['QuoteItem'];
type Quote = Schemas['Quote'];
type OrderItem = Schemas['OrderItem'];

const { send: request, api } = requests(() => t);

const idOf = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;
const cents = (value: number) => Math.round(value * 100) / 100;
const sum = (values: number[]) => cents(values.reduce((a, b) => a + b, 0));
const flat = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');

/** A varnished STE carton in two artworks (5,000 + 10,000): offset, a cutting die. */
const twoArtworks = () => ({
  position: 0,
  productId: idOf(catalogue.products, 'STE'),
  lengthDimension: 120,
  widthDimension: 40,
  heightDimension: 180,
  materialReferenceId: idOf(catalogue.materialReferences, 'GC1-350'),
  decorationsCount: [
    { decorationIndex: 0, quantity: 5000, name: 'Lemon', artworkReference: 'ART-LEMON-v2' },
    { decorationIndex: 1, quantity: 10000, name: 'Mint', artworkReference: 'ART-MINT-v1' },
  ],
  wantDecoration: true,
  sidePrinted: 'RECTO',
  rectoColorCount: 4,
  versoColorCount: 0,
  wantVarnishRecto: true,
});

async function briefOfTwoArtworks() {
  const response = await request('POST', admin, '/api/briefs', {
    name: 'Tea box',
    companyId: acmeId,
    briefElements: [twoArtworks()],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; briefElements: { decorationsCount: unknown[] }[] };
}

async function quoteOf(briefId: string): Promise<Quote> {
  const response = await request('POST', admin, '/api/quotes', {
    companyId: acmeId,
    addressId,
    briefIds: [briefId],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t, 'Cartonnages Dupré');
  other = await makeOrganisation(t);
  contact = await makeUser(t, admin, 'contact');
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const db = t.app.ctx.db;
  const [acme] = await db
    .insert(companies)
    .values({ organisationId: admin.organisationId, name: 'Acme' })
    .returning();
  acmeId = acme!.id;
  await db
    .insert(companyUsers)
    .values({ companyId: acmeId, userId: contact.userId, organisationId: admin.organisationId });
  const [address] = await db
    .insert(addresses)
    .values({
      organisationId: admin.organisationId,
      companyId: acmeId,
      street1: '1 Rue de la Paix',
      postcode: '75002',
      city: 'Paris',
      countryCode: 'FR',
    })
    .returning();
  addressId = address!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('variants and tooling on the quote', () => {
  it('keeps the brief’s variants as sub-lines whose quantities and amounts add up to the line', async () => {
    const brief = await briefOfTwoArtworks();
    expect(brief.briefElements[0]!.decorationsCount).toEqual([
      { decorationIndex: 0, quantity: 5000, name: 'Lemon', artworkReference: 'ART-LEMON-v2' },
      { decorationIndex: 1, quantity: 10000, name: 'Mint', artworkReference: 'ART-MINT-v1' },
    ]);
    const quote = await quoteOf(brief.id);
    const line = quote.items[0]!.children[0]!;
    expect(line.quantity).toBe(15000);
    expect(line.variants.map(({ amount: _a, ...v }) => v)).toEqual([
      { decorationIndex: 0, name: 'Lemon', artworkReference: 'ART-LEMON-v2', quantity: 5000 },
      { decorationIndex: 1, name: 'Mint', artworkReference: 'ART-MINT-v1', quantity: 10000 },
    ]);
    expect(sum(line.variants.map((v) => v.amount!))).toBe(line.amount);
    expect(line.variants[1]!.amount!).toBeGreaterThan(line.variants[0]!.amount!);

    // Tooling: named tools adding up to the line's tooling, inside its total once.
    expect(line.toolingCost).toBeGreaterThan(0);
    expect(line.tooling.map((tool) => tool.code)).toContain('CUTTING_DIE');
    expect(line.tooling.find((tool) => tool.code === 'CUTTING_DIE')!.name).toBe('Cutting die');
    expect(sum(line.tooling.map((tool) => tool.amount))).toBe(line.toolingCost);
    expect(line.totalPrice).toBe(cents(line.amount! + line.toolingCost + line.deliveryCost));

    // The buyer sees the same sub-lines (no cost among them).
    await request('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' });
    const seen = (await request('GET', contact, `/api/quotes/${quote.id}`)).json() as Quote;
    expect(seen.items[0]!.children[0]!.variants).toEqual(line.variants);
    expect(seen.items[0]!.children[0]!.tooling).toEqual(line.tooling);
  });

  it('scales the variants with the line’s quantity and splits a discounted amount to the cent', async () => {
    const quote = await quoteOf((await briefOfTwoArtworks()).id);
    const line = quote.items[0]!.children[0]!;
    const edited = await request('PATCH', admin, `/api/quotes/${quote.id}/quote-items/${line.id}`, {
      quantity: 20001,
      discountPercent: 3.3,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = (edited.json() as Quote).items[0]!.children[0]!;
    expect(after.variants.map((v) => v.quantity)).toEqual([6667, 13334]);
    const net = cents(after.totalPrice - after.toolingCost - after.deliveryCost);
    expect(sum(after.variants.map((v) => v.amount!))).toBe(net);
    expect(sum(after.tooling.map((tool) => tool.amount))).toBe(after.toolingCost);
  });

  it('names an element line per language from the catalogue, unless a user named it', async () => {
    const quote = await quoteOf((await briefOfTwoArtworks()).id);
    const line = quote.items[0]!.children[0]! as Item & {
      customName: boolean;
      localised: Record<'en' | 'fr' | 'de', { name: string; description: string | null }>;
    };
    // The snapshot stays English; the reader's language picks its names.
    expect(line.name).toBe('Straight tuck end carton');
    expect(line.customName).toBe(false);
    expect(line.localised).toEqual({
      en: {
        name: 'Straight tuck end carton',
        description: 'GC1 folding boxboard 350 g/m2 · 4/0 · UV varnish',
      },
      fr: { name: 'Étui à rabats droits', description: 'Carton GC1 350 g/m2 · 4/0 · Vernis UV' },
      de: {
        name: 'Faltschachtel mit gleichseitigen Steckverschlüssen',
        description: 'GC1 Faltschachtelkarton 350 g/m2 · 4/0 · UV-Lack',
      },
    });
    // A name typed by a user wins over the catalogue's, in every language (the PDF too).
    const url = `/api/quotes/${quote.id}/quote-items/${line.id}`;
    const blank = await request('PATCH', admin, url, { name: '' });
    expect(blank.statusCode, blank.body).toBe(400);
    expect(blank.json().errors[0].pointer).toBe('/name');
    const renamed = await request('PATCH', admin, url, { name: '  Tea box, house cut ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = (renamed.json() as Quote).items[0]!.children[0]! as typeof line;
    expect(after.name).toBe('Tea box, house cut');
    expect(after.customName).toBe(true);
    expect(after.localised.fr).toEqual({
      name: 'Tea box, house cut',
      description: 'Carton GC1 350 g/m2 · 4/0 · Vernis UV',
    });
    expect(after.localised.de.name).toBe('Tea box, house cut');
    const preview = await request('GET', admin, `/api/quotes/${quote.id}/preview/fr`);
    expect(preview.statusCode).toBe(200);
    const text = flat(extractPdfText(preview.rawPayload));
    expect(text).toContain('Tea box, house cut');
    expect(text).not.toContain('Étui à rabats droits');
    // A buyer cannot rename; once published nobody can.
    expect((await request('PATCH', contact, url, { name: 'Mine' })).statusCode).toBe(403);
    await request('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' });
    expect((await request('PATCH', admin, url, { name: 'Late' })).statusCode).toBe(409);
    const fr = await request('GET', admin, `/api/quotes/${quote.id}/localisation/fr`);
    expect(flat(extractPdfText(fr.rawPayload))).toContain('Tea box, house cut');

    // A buyer reads the same names; a brief's group line keeps its own name in every language.
    const read = (await request('GET', contact, `/api/quotes/${quote.id}`)).json() as Quote;
    const group = read.items[0]! as Item & { localised: Record<'en' | 'fr' | 'de', { name: string }> };
    expect(group.localised.fr.name).toBe('Tea box');
    expect((group.children[0] as unknown as typeof line).localised.de.name).toBe('Tea box, house cut');
  });

  it('refuses a variant name that is too long', async () => {
    const element = twoArtworks();
    element.decorationsCount[0]!.name = 'x'.repeat(101);
    const response = await request('POST', admin, '/api/briefs', {
      name: 'Too long',
      companyId: acmeId,
      briefElements: [element],
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(
      '/briefElements/0/decorationsCount/0/name',
    );
  });
});

describe('the quote PDF', () => {
  it('prints the variants, the named tools, the finishes and the groups, in the quote’s language', async () => {
    const quote = await quoteOf((await briefOfTwoArtworks()).id);
    const root = quote.items[0]!;
    const labelled = await request('PATCH', admin, `/api/quotes/${quote.id}/quote-items/${root.id}`, {
      groupLabel: 'Spring range',
    });
    expect(labelled.statusCode, labelled.body).toBe(200);
    const line = quote.items[0]!.children[0]!;
    expect(line.description).toBe('GC1 folding boxboard 350 g/m2 · 4/0 · UV varnish');
    const published = await request('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    const pdfText = async (language: string) => {
      const response = await request('GET', admin, `/api/quotes/${quote.id}/localisation/${language}`);
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      return flat(extractPdfText(response.rawPayload));
    };
    const money = (locale: string, value: number) =>
      flat(new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(value));

    const en = await pdfText('en');
    for (const expected of [
      'Spring range',
      'Straight tuck end carton',
      'GC1 folding boxboard 350 g/m2 · 4/0 · UV varnish',
      'Lemon · Artwork ART-LEMON-v2',
      'Mint · Artwork ART-MINT-v1',
      'Cutting die',
      money('en-GB', line.variants[0]!.amount!),
      money('en-GB', line.variants[1]!.amount!),
      money('en-GB', line.tooling[0]!.amount),
    ]) {
      expect(en).toContain(expected);
    }
    const fr = await pdfText('fr');
    for (const expected of [
      'Spring range',
      'Étui à rabats droits',
      'Carton GC1 350 g/m2 · 4/0 · Vernis UV',
      'Lemon · Fichier ART-LEMON-v2',
      'Forme de découpe',
      money('fr-FR', line.variants[1]!.amount!),
    ]) {
      expect(fr).toContain(expected);
    }
    expect(fr).not.toContain('Straight tuck end carton');
    const de = await pdfText('de');
    expect(de).toContain('GC1 Faltschachtelkarton 350 g/m2 · 4/0 · UV-Lack');
    expect(de).toContain('Stanzform');
  });

  it('uses a catalogue name edited per language', async () => {
    const ste = catalogue.products.find((p) => p.code === 'STE')!;
    const edited = await request('PATCH', admin, `/api/products/${ste.id}`, {
      names: { fr: 'Étui tuck-end maison', de: null },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().names).toMatchObject({ en: 'Straight tuck end carton', fr: 'Étui tuck-end maison' });
    expect(edited.json().names.de).toBeUndefined();
    const quote = await quoteOf((await briefOfTwoArtworks()).id);
    await request('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' });
    const fr = await request('GET', admin, `/api/quotes/${quote.id}/localisation/fr`);
    expect(flat(extractPdfText(fr.rawPayload))).toContain('Étui tuck-end maison');
    const de = await request('GET', admin, `/api/quotes/${quote.id}/localisation/de`);
    expect(flat(extractPdfText(de.rawPayload))).toContain('Straight tuck end carton');

    // Buyers read the names; only the catalogue's managers edit them; unknown languages are refused.
    const read = await request('GET', contact, `/api/products/${ste.id}`);
    expect(read.json().names.fr).toBe('Étui tuck-end maison');
    expect(
      (await request('PATCH', contact, `/api/products/${ste.id}`, { names: { fr: 'x' } })).statusCode,
    ).toBe(403);
    const unknown = await request('PATCH', admin, `/api/products/${ste.id}`, { names: { xx: 'x' } });
    expect(unknown.statusCode).toBe(400);
    expect(
      (await request('PATCH', other, `/api/products/${ste.id}`, { names: { fr: 'x' } })).statusCode,
    ).toBe(404);
  });

  it('renders a stored PDF again when a catalogue name or the seller’s identity changes', async () => {
    const quote = await quoteOf((await briefOfTwoArtworks()).id);
    const published = await request('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    const pdf = async (language: string) => {
      const response = await request('GET', admin, `/api/quotes/${quote.id}/localisation/${language}`);
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      return { text: flat(extractPdfText(response.rawPayload)), sha256: response.headers.etag };
    };
    const first = await pdf('fr');
    expect(first.text).toContain('Vernis UV');
    // Stored: asked again, the same bytes.
    expect((await pdf('fr')).sha256).toBe(first.sha256);

    // A catalogue name edited after the PDF was stored: the next request prints it.
    const varnish = catalogue.operations.find((o) => o.code === 'VARNISH')!;
    const renamed = await request('PATCH', admin, `/api/operations/${varnish.id}`, {
      names: { fr: 'Vernis sélectif maison' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const second = await pdf('fr');
    expect(second.sha256).not.toBe(first.sha256);
    expect(second.text).toContain('Vernis sélectif maison');
    expect(second.text).not.toContain('Vernis UV');

    // The seller's legal name (organisation settings) changed: printed on the next request.
    const before = await pdf('en');
    expect(before.text).not.toContain('Dupré Emballages SAS');
    const settings = await request('PATCH', admin, '/api/organisation/settings', {
      legalName: 'Dupré Emballages SAS',
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const after = await pdf('en');
    expect(after.sha256).not.toBe(before.sha256);
    expect(after.text).toContain('Dupré Emballages SAS');
    // Nothing changed since: the stored PDF is served as it is.
    expect((await pdf('en')).sha256).toBe(after.sha256);

    // Put the varnish's French name back for the other tests.
    await request('PATCH', admin, `/api/operations/${varnish.id}`, { names: { fr: 'Vernis UV' } });
  });

  it('seeds French and German names for the default catalogue', async () => {
    const boards = (await api.get(admin, '/api/material-references')).json();
    expect(boards.find((b) => b.code === 'GC1-350')!.names).toEqual({
      en: 'GC1 folding boxboard 350 g/m2',
      fr: 'Carton GC1 350 g/m2',
      de: 'GC1 Faltschachtelkarton 350 g/m2',
    });
    const machines = (await api.get(admin, '/api/machines')).json();
    expect(machines.every((m) => m.names.fr && m.names.de)).toBe(true);
  });
});

describe('the order of a quote with variants and tooling', () => {
  it('keeps two variants, names the tools, carries the currency and the acceptance’s PO number', async () => {
    const quote = await quoteOf((await briefOfTwoArtworks()).id);
    await request('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' });
    const accepted = await request('POST', contact, `/api/quotes/${quote.id}/accept`, {
      typedName: 'Ann Buyer',
      confirm: true,
      poNumber: 'PO-4711',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const converted = await request('POST', admin, `/api/quotes/${quote.id}/order`);
    expect(converted.statusCode, converted.body).toBe(201);
    const { order } = converted.json() as {
      order: { id: string; poNumber: string | null; currency: { code: string } | null; items: OrderItem[] };
    };
    expect(order.poNumber).toBe('PO-4711');
    expect(order.currency?.code).toBe('EUR');
    const line = quote.items[0]!.children[0]!;
    const group = order.items.find((i) => !i.parentId)!;
    expect(group.name).toBe('Tea box');
    const element = order.items.find((i) => i.parentId === group.id)!;
    expect(element.variants.map((v) => [v.name, v.artworkReference, v.quantity])).toEqual([
      ['Lemon', 'ART-LEMON-v2', 5000],
      ['Mint', 'ART-MINT-v1', 10000],
    ]);
    expect(sum(element.variants.map((v) => v.amount!))).toBe(element.totalPrice);
    expect(element.variants.map((v) => v.amount)).toEqual(line.variants.map((v) => v.amount));
    const services = order.items.filter((i) => i.parentId === element.id);
    expect(services.map((s) => s.name)).toEqual([
      ...line.tooling.map((tool) => tool.name),
      ...(line.deliveryCost > 0 ? ['Delivery'] : []),
    ]);
    expect(services.map((s) => s.code)).toContain('CUTTING_DIE');
    expect(sum(services.filter((s) => s.code !== 'DELIVERY').map((s) => s.totalPrice))).toBe(
      line.toolingCost,
    );
    for (const item of order.items) expect(item.currency?.code).toBe('EUR');
    // The element item is named per language from the catalogue (STE's French name edited above,
    // its German one removed: the English); the group and the services have none.
    expect((element as OrderItem & { localised: unknown }).localised).toEqual({
      en: {
        name: 'Straight tuck end carton',
        description: 'GC1 folding boxboard 350 g/m2 · 4/0 · UV varnish',
      },
      fr: { name: 'Étui tuck-end maison', description: 'Carton GC1 350 g/m2 · 4/0 · Vernis UV' },
      de: {
        name: 'Straight tuck end carton',
        description: 'GC1 Faltschachtelkarton 350 g/m2 · 4/0 · UV-Lack',
      },
    });
    expect((group as OrderItem & { localised: unknown }).localised).toBeNull();

    // The order items, the list and the item read say the currency and the variants too.
    const list = (await api.get(admin, '/api/orders')).json();
    expect(list.data.find((o) => o.id === order.id)).toMatchObject({
      poNumber: 'PO-4711',
      currency: { code: 'EUR' },
    });
    const read = (await api.get(admin, '/api/order-items/{id}', { params: { id: element.id } })).json();
    expect(read.variants).toEqual(element.variants);
    expect((read as OrderItem & { localised: { fr: { name: string } } }).localised.fr.name).toBe(
      'Étui tuck-end maison',
    );
    expect(read.currency?.code).toBe('EUR');
    const items = (
      await api.get(admin, '/api/order-items', { query: { orderId: order.id, page: 1 } })
    ).json();
    expect(items.data.every((i) => i.currency?.code === 'EUR')).toBe(true);

    // Another tenant sees none of it.
    expect((await request('GET', other, `/api/order-items/${element.id}`)).statusCode).toBe(404);
    expect((await request('GET', other, `/api/orders/${order.id}`)).statusCode).toBe(404);
  });

  it('edits an order’s PO number and refuses one too long', async () => {
    const created = await request('POST', admin, '/api/orders', {
      billedAmount: 10,
      companyId: acmeId,
      poNumber: 'A-1',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const patched = await request('PATCH', admin, `/api/orders/${id}`, { poNumber: 'B-2' });
    expect(patched.json().poNumber).toBe('B-2');
    const refused = await request('PATCH', admin, `/api/orders/${id}`, { poNumber: 'x'.repeat(101) });
    expect(refused.statusCode).toBe(400);
    expect((await request('GET', admin, `/api/orders/${id}`)).json().poNumber).toBe('B-2');
  });
});
