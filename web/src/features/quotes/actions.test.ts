import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en.ts';
import { fr } from '../../i18n/fr.ts';
import { guidanceOf, offers, type QuoteAction, type QuoteForActions } from './actions.ts';

const quote = (
  state: QuoteForActions['state'],
  allowedActions: QuoteAction[],
  orderId: string | null = null,
): QuoteForActions => ({ state, allowedActions, orderId });

/*
 * The lists below are what GET /api/quotes/{id} answers per caller (test/quotes/lifecycle.test.ts
 * checks the API side): the screen follows them and nothing else.
 */
describe('quote screen actions and guidance', () => {
  it('offers exactly what the API allows, whatever the state says', () => {
    const draftForSales = quote('draft', ['edit', 'publish']);
    expect(offers(draftForSales, 'publish')).toBe(true);
    expect(offers(draftForSales, 'accept')).toBe(false);
    // A signed quote the API no longer offers to convert (already ordered): no button.
    expect(offers(quote('signed', [], 'order-1'), 'convert')).toBe(false);
    expect(offers(quote('signed', ['revise', 'convert']), 'convert')).toBe(true);
  });

  it('guides staff and buyers differently on a published quote', () => {
    expect(guidanceOf(quote('published', ['accept', 'decline', 'revise']))).toBe('publishedStaff');
    expect(guidanceOf(quote('published', ['accept', 'decline']))).toBe('publishedBuyer');
    expect(guidanceOf(quote('published', []))).toBe('publishedWait');
    // The buyer's line never speaks of acting on their behalf; the staff's does.
    expect(en.quotes.guide.publishedBuyer).not.toMatch(/on their behalf/);
    expect(en.quotes.guide.publishedStaff).toMatch(/on their behalf/);
  });

  it('does not ask to convert an ordered quote, nor to revise one', () => {
    expect(guidanceOf(quote('signed', ['revise', 'convert']))).toBe('signedConvert');
    expect(guidanceOf(quote('signed', [], 'order-1'))).toBe('signedOrdered');
    expect(en.quotes.guide.signedOrdered).not.toMatch(/convert it|revision/i);
    expect(guidanceOf(quote('signed', []))).toBe('signed');
  });

  it('offers a revision of a declined or expired quote to whoever may revise', () => {
    expect(guidanceOf(quote('rejected', ['revise']))).toBe('rejectedRevise');
    expect(guidanceOf(quote('rejected', []))).toBe('rejected');
    expect(guidanceOf(quote('expired', ['revise']))).toBe('expiredRevise');
    expect(guidanceOf(quote('expired', []))).toBe('expired');
    expect(en.quotes.guide.expired).not.toMatch(/make a revision/i);
    expect(guidanceOf(quote('draft', ['edit', 'publish']))).toBe('draftEdit');
    expect(guidanceOf(quote('draft', []))).toBe('draft');
  });

  it('has every guidance line in English and French', () => {
    const keys = [
      quote('draft', ['edit']),
      quote('draft', []),
      quote('published', ['accept', 'revise']),
      quote('published', ['accept']),
      quote('published', ['revise']),
      quote('published', []),
      quote('signed', ['convert']),
      quote('signed', [], 'o'),
      quote('signed', []),
      quote('rejected', ['revise']),
      quote('rejected', []),
      quote('expired', ['revise']),
      quote('expired', []),
    ].map(guidanceOf);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) {
      expect(en.quotes.guide[key as keyof typeof en.quotes.guide], key).toEqual(expect.any(String));
      expect(fr.quotes.guide[key as keyof typeof fr.quotes.guide], key).toEqual(expect.any(String));
    }
  });
});
