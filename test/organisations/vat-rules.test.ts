/** The VAT rules without a database: VAT number shapes, the decision order, the rounding. */
import { describe, expect, it } from 'vitest';
import { decideVat, vatTotals } from '../../src/modules/organisations/vat.ts';
import { checkVatNumber, vatNumberCountry } from '../../src/platform/vat-numbers.ts';

describe('checkVatNumber', () => {
  it('normalises and accepts numbers of each EU country’s shape', () => {
    for (const [typed, stored] of [
      ['fr 40 303 265 045', 'FR40303265045'],
      ['DE-123.456.789', 'DE123456789'],
      ['ATU12345678', 'ATU12345678'],
      ['BE0123456789', 'BE0123456789'],
      ['EL123456789', 'EL123456789'],
      ['ESX1234567X', 'ESX1234567X'],
      ['IE1234567WA', 'IE1234567WA'],
      ['NL123456789B01', 'NL123456789B01'],
      ['SE123456789001', 'SE123456789001'],
      ['XI123456789', 'XI123456789'],
    ]) {
      expect(checkVatNumber(typed!), typed).toEqual({ value: stored });
    }
  });

  it('refuses a number of the wrong shape for its EU prefix', () => {
    for (const bad of [
      'FR123',
      'FRO0303265045',
      'DE12345678',
      'NL123456789X01',
      'ATX12345678',
      'IT1234567890',
    ]) {
      expect(checkVatNumber(bad), bad).toHaveProperty('error');
    }
  });

  it('keeps other numbers as typed (their formats are not checked)', () => {
    expect(checkVatNumber(' CHE-123.456.789 MWST ')).toEqual({ value: 'CHE-123.456.789 MWST' });
    expect(checkVatNumber('GB123456789')).toEqual({ value: 'GB123456789' });
    expect(vatNumberCountry('EL123456789')).toBe('GR');
    expect(vatNumberCountry('CHE-1')).toBeUndefined();
  });
});

describe('decideVat', () => {
  const seller = { country: 'FR', defaultRate: 20, rates: { DE: 19, GR: 24 } };
  const customer = { country: 'FR', vatNumber: null, vatExempt: false, vatExemptionReason: null };

  it('applies its rules in order: exempt, reverse charge, country rate, export, default', () => {
    expect(decideVat(seller, { ...customer, vatExempt: true, vatExemptionReason: 'Embassy' })).toEqual({
      treatment: 'exempt',
      rate: 0,
      exemptionReason: 'Embassy',
    });
    // Exempt wins over a reverse charge.
    expect(
      decideVat(seller, {
        ...customer,
        country: 'DE',
        vatNumber: 'DE123456789',
        vatExempt: true,
        vatExemptionReason: 'x',
      }).treatment,
    ).toBe('exempt');
    expect(decideVat(seller, { ...customer, country: 'DE', vatNumber: 'DE123456789' }).treatment).toBe(
      'reverse_charge',
    );
    expect(decideVat(seller, { ...customer, country: 'DE' })).toMatchObject({
      treatment: 'standard',
      rate: 19,
    });
    // No rate for Italy: the default (a private buyer in the EU).
    expect(decideVat(seller, { ...customer, country: 'IT' })).toMatchObject({
      treatment: 'standard',
      rate: 20,
    });
    expect(decideVat(seller, { ...customer, country: 'US', vatNumber: 'X' })).toMatchObject({
      treatment: 'export',
    });
    expect(decideVat(seller, customer)).toMatchObject({ treatment: 'standard', rate: 20 });
    // A domestic customer with a VAT number is no reverse charge.
    expect(decideVat(seller, { ...customer, vatNumber: 'FR40303265045' })).toMatchObject({ rate: 20 });
    // No country known: the VAT number's prefix tells it (EL is Greece).
    expect(decideVat(seller, { ...customer, country: null, vatNumber: 'EL123456789' }).treatment).toBe(
      'reverse_charge',
    );
  });

  it('a seller without a default rate: none (country rates still apply)', () => {
    const bare = { country: 'FR', defaultRate: null, rates: { DE: 19 } };
    expect(decideVat(bare, customer)).toEqual({ treatment: 'none', rate: null, exemptionReason: null });
    expect(decideVat(bare, { ...customer, country: 'DE' })).toMatchObject({ rate: 19 });
    // A seller outside the EU never reverse-charges nor exports.
    const swiss = { country: 'CH', defaultRate: 8.1, rates: {} };
    expect(decideVat(swiss, { ...customer, country: 'DE', vatNumber: 'DE123456789' })).toMatchObject({
      treatment: 'standard',
      rate: 8.1,
    });
  });
});

describe('vatTotals', () => {
  it('rounds the VAT of the net total once, half up to the cent', () => {
    expect(vatTotals(1234.5, 19)).toEqual({ netTotal: 1234.5, vatAmount: 234.56, grossTotal: 1469.06 });
    expect(vatTotals(1234.5, 5.5)).toEqual({ netTotal: 1234.5, vatAmount: 67.9, grossTotal: 1302.4 });
    expect(vatTotals(0.1, 20)).toEqual({ netTotal: 0.1, vatAmount: 0.02, grossTotal: 0.12 });
    expect(vatTotals(100, null)).toEqual({ netTotal: 100, vatAmount: 0, grossTotal: 100 });
    expect(vatTotals(100, 0)).toEqual({ netTotal: 100, vatAmount: 0, grossTotal: 100 });
  });
});
