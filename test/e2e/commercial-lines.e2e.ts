import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ARTIFACTS, clearScreenshots, openE2eSession, screenshot as shot } from './harness.ts';

/**
 * Issue 24: a brief of two artworks (5,000 + 10,000) with a cutting die becomes a quote whose
 * element line has one sub-line per variant and the die as a named line, in English, French and
 * German; the quote PDF says the same (rendered to PNG with pdftoppm beside the screenshots), and
 * the order keeps the two variants, names its tool and says its currency. Screenshots:
 * test-results/e2e/commercial-lines-*.png.
 */
const e2e = openE2eSession({ name: 'commercial-lines' });
const { url } = e2e;
const state = {} as { quoteId: string; orderId: string; briefId: string };
const screenshot = (name: string) => shot(e2e.page, `commercial-lines-${name}`);
const poll = expect.poll;

const WORDS = {
  en: {
    die: 'Cutting die',
    variant: 'Lemon · Artwork ART-LEMON-v2',
    money: '€',
    style: 'Straight tuck end carton',
  },
  fr: {
    die: 'Forme de découpe',
    variant: 'Lemon · Fichier ART-LEMON-v2',
    money: '€',
    style: 'Étui à rabats droits',
  },
  de: {
    die: 'Stanzform',
    variant: 'Lemon · Druckvorlage ART-LEMON-v2',
    money: '€',
    style: 'Faltschachtel mit gleichseitigen Steckverschlüssen',
  },
} as const;

beforeAll(async () => {
  clearScreenshots((name) => name.startsWith('commercial-lines-'));
  e2e.page.setDefaultTimeout(20_000);
  const products = (await e2e.api('GET', '/api/products')) as { id: string; code: string }[];
  const boards = (await e2e.api('GET', '/api/material-references')) as { id: string; code: string }[];
  const company = await e2e.api('POST', '/api/companies', { name: 'Herbal Teas Ltd' });
  const brief = await e2e.api('POST', '/api/briefs', {
    name: 'Tea box, two flavours',
    companyId: company.id,
    briefElements: [
      {
        position: 0,
        productId: products.find((p) => p.code === 'STE')!.id,
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        materialReferenceId: boards.find((b) => b.code === 'GC1-350')!.id,
        decorationsCount: [
          { decorationIndex: 0, quantity: 5000, name: 'Lemon', artworkReference: 'ART-LEMON-v2' },
          { decorationIndex: 1, quantity: 10000, name: 'Mint', artworkReference: 'ART-MINT-v1' },
        ],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
        versoColorCount: 0,
        wantVarnishRecto: true,
      },
    ],
  });
  const quote = await e2e.api('POST', '/api/quotes', {
    companyId: company.id,
    name: 'Spring flavours',
    briefIds: [brief.id],
  });
  state.quoteId = quote.id;
  state.briefId = brief.id;
  await e2e.api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
  await e2e.signInAs(ADMIN.email, ADMIN.password);
});

const setLanguage = async (language: string) => {
  await e2e.page.goto(url('/'));
  // Once the app is drawn: while it starts it stores the language it starts in, which would
  // overwrite the one set here.
  await e2e.page.getByRole('navigation', { name: 'Main' }).waitFor();
  await e2e.page.evaluate((l) => localStorage.setItem('pqs.language', l), language);
};

describe('variants and tooling from the brief to the order', () => {
  for (const language of ['en', 'fr', 'de'] as const) {
    it(`shows the quote's variant sub-lines and named tooling in ${language}`, async () => {
      await setLanguage(language);
      await e2e.page.goto(url(`/quotes/${state.quoteId}`));
      await e2e.page.getByTestId('quote-variant').first().waitFor();
      const variants = await e2e.page.getByTestId('quote-variant').allTextContents();
      expect(variants).toHaveLength(2);
      expect(variants[0]).toContain(WORDS[language].variant);
      expect(variants[1]).toContain('Mint');
      // The element's line named by its style in the user's language (the catalogue's names).
      expect(await e2e.page.getByTestId('quote-lines').textContent()).toContain(WORDS[language].style);
      await poll(() => e2e.page.getByTestId('quote-tool').first().textContent()).toContain(
        WORDS[language].die,
      );
      await screenshot(`01-quote-${language}`);

      // The PDF of that language, as the preview serves it, rendered to PNG to be looked at.
      const response = await fetch(
        `${e2e.service.baseUrl}/api/quotes/${state.quoteId}/localisation/${language}`,
        {
          headers: { authorization: `Bearer ${e2e.token}` },
        },
      );
      expect(response.status).toBe(200);
      const pdf = Buffer.from(await response.arrayBuffer());
      mkdirSync(ARTIFACTS, { recursive: true });
      const file = join(ARTIFACTS, `commercial-lines-02-pdf-${language}.pdf`);
      writeFileSync(file, pdf);
      execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', file, file.replace(/\.pdf$/, '')]);
      const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
      expect(text).toContain(WORDS[language].die);
      expect(text).toContain('ART-MINT-v1');
    });
  }

  it('names the operations and machines of the brief in each language', async () => {
    const machines = (await e2e.api('GET', '/api/machines')) as {
      name: string;
      names: Record<string, string | undefined>;
    }[];
    for (const language of ['en', 'fr', 'de'] as const) {
      await setLanguage(language);
      await e2e.page.goto(url(`/briefs/${state.briefId}`));
      const table = e2e.page.getByTestId('operations-0');
      await table.waitFor();
      await poll(async () => {
        const text = (await table.textContent()) ?? '';
        return machines.some((m) => m.names[language] && text.includes(m.names[language]!));
      }).toBe(true);
      const text = (await table.textContent()) ?? '';
      if (language !== 'en') {
        // No machine keeps its English name where the catalogue has one in the language.
        const english = machines.filter((m) => m.names[language] && m.names[language] !== m.name);
        expect(english.filter((m) => text.includes(m.name)).map((m) => m.name)).toEqual([]);
      }
      await screenshot(`05-operations-${language}`);
    }
  });

  it('the signed quote becomes an order with two variants, a named tool and its currency', async () => {
    await e2e.api('POST', `/api/quotes/${state.quoteId}/accept`, {
      typedName: 'Ann Buyer',
      confirm: true,
      poNumber: 'PO-4711',
    });
    const { order } = await e2e.api('POST', `/api/quotes/${state.quoteId}/order`);
    state.orderId = order.id;
    for (const language of ['en', 'fr', 'de'] as const) {
      await setLanguage(language);
      await e2e.page.goto(url(`/orders/${state.orderId}`));
      await e2e.page.getByTestId('order-variant').first().waitFor();
      expect(await e2e.page.getByTestId('order-variant').count()).toBe(2);
      const items = (await e2e.page.getByTestId('order-items').textContent()) ?? '';
      expect(items).toContain('Tea box, two flavours');
      expect(items).toContain(WORDS[language].die);
      expect(items).toContain(WORDS[language].style);
      expect(items).toContain(WORDS[language].money);
      expect(await e2e.page.getByTestId('items-total').textContent()).toContain('€');
      await poll(() => e2e.page.getByTestId('order-po-number').inputValue()).toBe('PO-4711');
      await screenshot(`03-order-${language}`);
    }
    await setLanguage('en');
    await e2e.page.goto(url('/orders'));
    await e2e.page.getByText('€').first().waitFor();
    await screenshot('04-orders');
  });
});
