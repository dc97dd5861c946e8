import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { de, deSections } from '../../i18n/de.ts';
import { en, enSections } from '../../i18n/en.ts';
import { fr, frSections } from '../../i18n/fr.ts';
import { importErrorMessage } from './errors.ts';

beforeAll(async () => {
  // The imports' words are the `operations` section, loaded with their pages (i18n/index.ts): here
  // loaded at once, and looked up the same way (the default namespace first, then the section).
  const [enOperations, frOperations, deOperations] = await Promise.all([
    enSections.operations(),
    frSections.operations(),
    deSections.operations(),
  ]);
  await i18next.init({
    resources: {
      en: { translation: en, operations: enOperations },
      fr: { translation: fr, operations: frOperations },
      de: { translation: de, operations: deOperations },
    },
    ns: ['translation', 'operations'],
    defaultNS: 'translation',
    fallbackNS: ['operations'],
    lng: 'fr',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
});

/** Every row error the import service writes, as it writes them (values filled in). */
const MESSAGES = [
  'is required',
  'must not be empty',
  'must not be empty: an article belongs to a company',
  'no company has the external id "ACME"',
  'no company has the external id "ACME" (it must exist or come earlier in the file)',
  'is required to create an article',
  'is required to create a company',
  'is required to create an order',
  'is the company itself',
  'would make the company hierarchy a cycle',
  'needs an externalId or an email to be matched',
  'belongs to a user who is not a contact',
  'is the e-mail of a user who is not a contact',
  'is the e-mail of the contact with external id "C-7"',
  'is already the e-mail of another user',
  'is already the username of another user',
  'is required: the contact signs in with it',
  'no order status has the internal label "Shipped"',
  'cannot change: the order has a project or shipping address of its company (change it through the API)',
  'must not be before orderedAt',
  'could not be imported',
  'must have at most 100 characters',
  'is not an e-mail address',
  'must be true/false, 1/0 or yes/no',
  'must be a number (a dot before decimals)',
  'must be at least 0',
  'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp',
  'has a value longer than 200 characters',
  'is not a custom field',
  'could not be written: duplicate key value violates unique constraint "x"',
  'the record must have required property name',
];

/** The messages the service's import code writes (reader.error / errors.push), read from its source. */
function serviceMessages(): string[] {
  const dir = join(import.meta.dirname, '../../../../src/modules/imports');
  const out: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(
      /(?:(?:reader|this)\.error\(\s*[^,]+,\s*|errors\.push\(\{[^}]*?message: )(['`])([^'`]+)\1/g,
    ))
      out.push(m[2]!);
  }
  return out;
}

describe('import row errors in the user language (issue 26)', () => {
  it('knows every message the import service writes (a new one fails here until worded)', () => {
    const known = (message: string) =>
      MESSAGES.some((m) => m === message || m.startsWith(message.split('${')[0]!));
    const written = serviceMessages().filter(
      (m) =>
        !m.startsWith('must be one of') &&
        !m.startsWith('must be a comma-separated') &&
        !/^is not an accepted/.test(m),
    );
    expect(written.length).toBeGreaterThan(15);
    expect(written.filter((m) => !known(m))).toEqual([]);
  });

  it.each(['fr', 'de'])('%s words every row error, none in English or raw', async (lng) => {
    await i18next.changeLanguage(lng);
    for (const message of MESSAGES) {
      const text = importErrorMessage(message, i18next.t);
      expect(text, message).not.toBe(message);
      for (const raw of ['must ', ' is ', 'external id', 'rowProblems', 'fieldProblems', '{{'])
        expect(text, message).not.toContain(raw);
    }
  });

  it('keeps the values a user needs: the external id, the status, the limit', async () => {
    await i18next.changeLanguage('fr');
    expect(importErrorMessage('no company has the external id "ACME"', i18next.t)).toContain('« ACME »');
    expect(importErrorMessage('no order status has the internal label "Shipped"', i18next.t)).toContain(
      'Shipped',
    );
    expect(importErrorMessage('has a value longer than 200 characters', i18next.t)).toBe(
      'Au plus 200 caractères',
    );
    await i18next.changeLanguage('de');
    expect(importErrorMessage('must be at least 0', i18next.t)).toBe('Mindestens 0');
    expect(importErrorMessage('something nobody wrote yet', i18next.t)).toBe('Dieser Wert ist ungültig');
    await i18next.changeLanguage('en');
    expect(importErrorMessage('is not an e-mail address', i18next.t)).toBe('Enter a valid e-mail address');
  });
});
