import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { de } from '../i18n/de.ts';
import { en } from '../i18n/en.ts';
import { fr } from '../i18n/fr.ts';
import { fieldMessage, isNotFound, isRetryable, problemFields, problemMessage } from './problem.ts';

const refusal = (problem: Partial<ApiError['problem']> & { status: number }) => new ApiError(problem);

beforeAll(async () => {
  await i18next.init({
    resources: { en: { translation: en }, fr: { translation: fr }, de: { translation: de } },
    lng: 'fr',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
  });
});

describe('API refusals in the user language', () => {
  it('maps a known code to its French message, whatever the English detail says', async () => {
    await i18next.changeLanguage('fr');
    const error = refusal({
      status: 401,
      code: 'invalid_credentials',
      detail: 'Unknown username or wrong password',
    });
    expect(problemMessage(error, i18next.t)).toBe('Identifiant inconnu ou mot de passe erroné.');
  });

  it('falls back to the sentence of the status for an unknown code, never to the English detail', async () => {
    await i18next.changeLanguage('fr');
    expect(
      problemMessage(refusal({ status: 409, code: 'brand_new_rule', detail: 'Something new' }), i18next.t),
    ).toBe("Cela contredit l'état actuel de l'enregistrement.");
    expect(problemMessage(refusal({ status: 403 }), i18next.t)).toBe(
      'Votre rôle ne permet pas cette action.',
    );
    await i18next.changeLanguage('en');
    expect(
      problemMessage(refusal({ status: 404, code: 'not_found', detail: 'Brief not found' }), i18next.t),
    ).toBe('Not found: it does not exist or is not visible to you.');
  });

  it('shows a fault with its request id in any language', async () => {
    await i18next.changeLanguage('fr');
    // The service adds its request id to a fault's problem (a field the Problem type leaves out).
    const problem = { status: 500, code: 'internal_error', detail: 'internal error', requestId: 'r-1' };
    const fault = new ApiError(problem);
    expect(problemMessage(fault, i18next.t)).toBe(
      'Le service a rencontré une panne ; réessayez dans un instant. (requête r-1)',
    );
  });

  // The issue-26 report: these reached the user under "Refused by the service".
  const raw = refusal({
    status: 400,
    code: 'validation_failed',
    detail:
      'body /name must NOT have fewer than 1 characters; body /briefElements/0/quantity must be <= 50000000',
    errors: [
      {
        pointer: '/name',
        message: 'must NOT have fewer than 1 characters',
        in: 'body',
        keyword: 'minLength',
        params: { limit: 1 },
      },
      {
        pointer: '/briefElements/0/quantity',
        message: 'must be <= 50000000',
        in: 'body',
        keyword: 'maximum',
        params: { comparison: '<=', limit: 50000000 },
      },
      {
        pointer: '/count',
        message: 'must be integer',
        in: 'body',
        keyword: 'type',
        params: { type: 'integer' },
      },
      {
        pointer: '/key',
        message: 'must match pattern "^[a-zA-Z][a-zA-Z0-9_]{0,63}$"',
        in: 'body',
        keyword: 'pattern',
        params: { pattern: '^[a-zA-Z][a-zA-Z0-9_]{0,63}$' },
      },
      {
        pointer: '/id',
        message: 'must be a UUID',
        in: 'params',
        keyword: 'format',
        params: { format: 'uuid' },
      },
    ],
  });

  it.each([
    [
      'en',
      {
        '/name': 'Required',
        '/briefElements/0/quantity': 'At most 50,000,000',
        '/count': 'A whole number',
        '/key': 'Letters, digits and underscores only, starting with a letter (at most 64)',
        '/id': 'Choose a value from the list',
      },
      'Some fields are not valid: see the messages under them. Name: Required · Quantity: At most 50,000,000 · A value: A whole number · Key: Letters, digits and underscores only, starting with a letter (at most 64) · A value: Choose a value from the list',
    ],
    [
      'fr',
      {
        '/name': 'Obligatoire',
        '/briefElements/0/quantity': 'Au plus 50\u202f000\u202f000',
        '/count': 'Un nombre entier',
        '/key': 'Lettres, chiffres et tirets bas uniquement, en commençant par une lettre (64 au plus)',
        '/id': 'Choisissez une valeur dans la liste',
      },
      undefined,
    ],
    [
      'de',
      {
        '/name': 'Pflichtfeld',
        '/briefElements/0/quantity': 'Höchstens 50.000.000',
        '/count': 'Eine ganze Zahl',
        '/key': 'Nur Buchstaben, Ziffern und Unterstriche, beginnend mit einem Buchstaben (höchstens 64)',
        '/id': 'Bitte einen Wert aus der Liste wählen',
      },
      undefined,
    ],
  ])(
    'words schema issues by keyword and params in %s, with the limit in the locale',
    async (lng, fields, summary) => {
      await i18next.changeLanguage(lng);
      expect(problemFields(raw, i18next.t)).toEqual(fields);
      const message = problemMessage(raw, i18next.t);
      if (summary) expect(message).toBe(summary);
      for (const leak of ['body /', 'must ', 'params /', '50000000', 'pattern', '^[a-zA-Z]'])
        expect(message).not.toContain(leak);
    },
  );

  it.each([
    ['^[A-Z]{2}$', 'Deux lettres, le code du pays (FR, DE)'],
    ['^[A-Za-z]{3}$', 'Trois lettres, le code de la devise (EUR, CHF)'],
    ['^#[0-9A-Fa-f]{6}$', 'Une couleur : # suivi de six chiffres hexadécimaux (#1A2B3C)'],
    ['^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', 'Un code de langue (fr, en-GB)'],
    ['\\S', 'Obligatoire : pas seulement des espaces'],
    ['^(createdAt|updatedAt),(ASC|DESC|asc|desc)$', "N'utilisez que les caractères acceptés par ce champ"],
  ])('words the pattern %s as what it takes, never the expression', async (pattern, sentence) => {
    await i18next.changeLanguage('fr');
    const issue = { pointer: '/x', message: `must match pattern "${pattern}"` };
    expect(fieldMessage({ ...issue, keyword: 'pattern', params: { pattern } }, i18next.t)).toBe(sentence);
    // An API older than the keywords: the pattern read from the message.
    expect(fieldMessage(issue, i18next.t)).toBe(sentence);
  });

  it('words a quote without lines by its keyword, and never shows a sentence naming a property', async () => {
    await i18next.changeLanguage('en');
    const issue = { pointer: '/items', message: 'at least one item (or a brief in briefIds) is required' };
    expect(fieldMessage({ ...issue, keyword: 'quoteLines' }, i18next.t)).toBe(
      'Add at least one brief or article',
    );
    expect(fieldMessage(issue, i18next.t)).toBe('Add at least one brief or article');
    expect(fieldMessage({ pointer: '/x', message: 'the orderedAt date is wrong' }, i18next.t)).toBe(
      'This value is not valid',
    );
    await i18next.changeLanguage('de');
    expect(fieldMessage({ ...issue, keyword: 'quoteLines' }, i18next.t)).toBe(
      'Bitte mindestens ein Briefing oder einen Artikel hinzufügen',
    );
  });

  it('translates the usual field messages without a keyword and keeps the pointers', async () => {
    await i18next.changeLanguage('fr');
    const error = refusal({
      status: 400,
      code: 'validation_failed',
      errors: [
        { pointer: '/email', message: 'must match format "email"' },
        { pointer: '/briefElements/0/lengthDimension', message: 'must be <= 10000' },
        { pointer: '/name', message: "must have required property 'name'" },
        { pointer: '/briefElements/0/productId', message: 'the board cannot be used for this style' },
      ],
    });
    expect(problemFields(error, i18next.t)).toEqual({
      '/email': 'Saisissez une adresse e-mail valide',
      '/briefElements/0/lengthDimension': 'Au plus 10\u202f000',
      '/name': 'Obligatoire',
      '/briefElements/0/productId': "Cette valeur n'est pas valide",
    });
    await i18next.changeLanguage('en');
    // Schema text never reaches a user, even in English; the service's own sentences do.
    expect(fieldMessage('must be <= 10000', i18next.t)).toBe('At most 10,000');
    expect(fieldMessage('the board cannot be used for this style', i18next.t)).toBe(
      'the board cannot be used for this style',
    );
    expect(fieldMessage('must be after 3fa85f64-5717-4562-b3fc-2c963f66afa6', i18next.t)).toBe(
      'This value is not valid',
    );
  });

  it('counts characters by the plural rules of the language', async () => {
    const issue = (keyword: string, limit: number) => ({
      pointer: '/code',
      message: 'x',
      keyword,
      params: { limit },
    });
    await i18next.changeLanguage('en');
    expect(fieldMessage(issue('minLength', 3), i18next.t)).toBe('At least 3 characters');
    expect(fieldMessage(issue('maxLength', 1), i18next.t)).toBe('At most 1 character');
    await i18next.changeLanguage('fr');
    expect(fieldMessage(issue('maxLength', 1), i18next.t)).toBe('Au plus 1 caractère');
    expect(fieldMessage(issue('maxLength', 2000), i18next.t)).toBe('Au plus 2\u202f000 caractères');
    await i18next.changeLanguage('de');
    expect(fieldMessage(issue('minLength', 3), i18next.t)).toBe('Mindestens 3 Zeichen');
  });

  it('says a malformed id of the page address is a bad link, not a field to correct', async () => {
    await i18next.changeLanguage('de');
    const error = refusal({
      status: 400,
      code: 'validation_failed',
      detail: 'params /id must be a UUID',
      errors: [
        {
          pointer: '/id',
          message: 'must be a UUID',
          in: 'params',
          keyword: 'format',
          params: { format: 'uuid' },
        },
      ],
    });
    expect(problemMessage(error, i18next.t)).toBe(
      'Die Adresse dieser Seite ist ungültig: der Link ist vielleicht falsch oder abgeschnitten.',
    );
  });

  it('tells a not-found (no retry) from a fault or throttling (retry)', () => {
    expect(isNotFound(refusal({ status: 404 }))).toBe(true);
    expect(isRetryable(refusal({ status: 404 }))).toBe(false);
    expect(isRetryable(refusal({ status: 422 }))).toBe(false);
    expect(isRetryable(refusal({ status: 503 }))).toBe(true);
    expect(isRetryable(refusal({ status: 429 }))).toBe(true);
    expect(isRetryable(new TypeError('Failed to fetch'))).toBe(true);
  });
});
