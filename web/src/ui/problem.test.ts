import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { en } from '../i18n/en.ts';
import { fr } from '../i18n/fr.ts';
import { fieldMessage, isNotFound, isRetryable, problemFields, problemMessage } from './problem.ts';

const refusal = (problem: Partial<ApiError['problem']> & { status: number }) => new ApiError(problem);

beforeAll(async () => {
  await i18next.init({
    resources: { en: { translation: en }, fr: { translation: fr } },
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

  it("falls back to the API's detail for an unknown code, and to the status without a detail", async () => {
    await i18next.changeLanguage('fr');
    expect(
      problemMessage(refusal({ status: 409, code: 'brand_new_rule', detail: 'Something new' }), i18next.t),
    ).toBe('Something new');
    expect(problemMessage(refusal({ status: 403 }), i18next.t)).toBe(
      'Votre rôle ne permet pas cette action.',
    );
  });

  it("shows the API's own detail in English, and a fault with its request id in any language", async () => {
    await i18next.changeLanguage('en');
    expect(
      problemMessage(refusal({ status: 404, code: 'not_found', detail: 'Brief not found' }), i18next.t),
    ).toBe('Brief not found');
    await i18next.changeLanguage('fr');
    const fault = new ApiError({
      status: 500,
      code: 'internal_error',
      detail: 'internal error',
      requestId: 'r-1',
    } as never);
    expect(problemMessage(fault, i18next.t)).toBe(
      'Le service a rencontré une panne ; réessayez dans un instant. (requête r-1)',
    );
  });

  it('translates the usual field messages and keeps the pointers', async () => {
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
      '/briefElements/0/lengthDimension': 'Au plus 10000',
      '/name': 'Obligatoire',
      '/briefElements/0/productId': 'the board cannot be used for this style',
    });
    await i18next.changeLanguage('en');
    expect(fieldMessage('must be <= 10000', i18next.t)).toBe('must be <= 10000');
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
