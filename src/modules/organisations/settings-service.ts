/**
 * The seller's identity and commercial defaults (docs/settings-and-files.md): read by staff,
 * changed by admins, printed on the quote PDFs; the defaults and the VAT a new quote takes.
 */
import { electronicFormatIBAN, isValidBIC, validateIBAN } from 'ibantools';
import type { Db, Executor } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { badRequest, notFound, type ProblemIssue } from '../../platform/errors.ts';
import { type ChangeRunner, changedFields } from '../../platform/events.ts';
import { checkVatNumber } from '../../platform/vat-numbers.ts';
import { removeLabelledFilesInTransaction } from '../files/in-transaction.ts';
import { readMultipartForm } from '../files/multipart.ts';
import { readFileContent } from '../files/repository.ts';
import type { createFilesService } from '../files/service.ts';
import { checkLogo, LOGO_LIMIT_BYTES } from './logo.ts';
import {
  customerVatOf,
  findLogoFile,
  findSettings,
  ORGANISATION_SETTINGS_ENTITY,
  type SellerAddress,
  type SettingsRow,
  type SettingsValues,
  saveSettings,
} from './repository.ts';
import type { UpdateOrganisationSettings } from './schemas.ts';
import { decideVat, type VatDecision } from './vat.ts';

type FilesService = ReturnType<typeof createFilesService>;

export const LOGO_URL = '/api/organisation/settings/logo';
export const BRAND_LOGO_URL = '/api/organisation/brand/logo';
const LOGO_LABEL = 'logo';

const TEXT_FIELDS = [
  'legalName',
  'tradingName',
  'email',
  'phoneNumber',
  'website',
  'registrationNumber',
  'bankName',
  'accountHolder',
  'paymentTerms',
  'incotermPlace',
  'deliveryTerms',
  'pdfFooter',
] as const;

/** Trimmed, and blank as null: a cleared field in a form sends "". */
const clean = (value: string | null | undefined) => {
  if (value === undefined) return undefined;
  const trimmed = value?.trim() ?? '';
  return trimmed ? trimmed : null;
};

const cleanAddress = (address: UpdateOrganisationSettings['registeredAddress']): SellerAddress | null =>
  address
    ? {
        street1: address.street1.trim(),
        street2: clean(address.street2) ?? null,
        postcode: clean(address.postcode) ?? null,
        city: address.city.trim(),
        region: clean(address.region) ?? null,
        countryCode: address.countryCode,
      }
    : null;

/** The settings as the API shows them, defaults filled in when the row does not exist yet. */
function present(
  organisationId: string,
  name: string,
  row: SettingsRow | null,
  logo: Awaited<ReturnType<typeof findLogoFile>> | undefined,
) {
  return {
    organisationId,
    name,
    legalName: row?.legalName ?? null,
    tradingName: row?.tradingName ?? null,
    logo: logo ? { ...logo, url: LOGO_URL } : null,
    registeredAddress: row?.registeredAddress ?? null,
    invoiceAddress: row?.invoiceAddress ?? null,
    email: row?.email ?? null,
    phoneNumber: row?.phoneNumber ?? null,
    website: row?.website ?? null,
    vatNumber: row?.vatNumber ?? null,
    registrationNumber: row?.registrationNumber ?? null,
    bankName: row?.bankName ?? null,
    accountHolder: row?.accountHolder ?? null,
    iban: row?.iban ?? null,
    bic: row?.bic ?? null,
    paymentTerms: row?.paymentTerms ?? null,
    paymentDays: row?.paymentDays ?? null,
    incoterm: row?.incoterm ?? null,
    incotermPlace: row?.incotermPlace ?? null,
    deliveryTerms: row?.deliveryTerms ?? null,
    termsAndConditions: row?.termsAndConditions ?? {},
    defaultVatRate: row?.defaultVatRate ?? null,
    vatRates: row?.vatRates ?? {},
    pdfFooter: row?.pdfFooter ?? null,
    updatedAt: row?.updatedAt ?? null,
  };
}

export type OrganisationSettings = ReturnType<typeof present>;

/** What a new quote takes from the settings: its terms and its VAT. */
export type QuoteTermsDefaults = {
  paymentTerms: string | null;
  paymentDays: number | null;
  incoterm: SettingsRow['incoterm'];
  incotermPlace: string | null;
  deliveryTerms: string | null;
};

/** Checks what needs more than the schema (IBAN, BIC, VAT number, rate countries); 400 with pointers. */
function validate(input: UpdateOrganisationSettings) {
  const issues: ProblemIssue[] = [];
  const out: { iban?: string | null; bic?: string | null; vatNumber?: string | null } = {};
  const iban = clean(input.iban);
  if (iban !== undefined) {
    if (iban === null) out.iban = null;
    else {
      const electronic = electronicFormatIBAN(iban) ?? '';
      const result = validateIBAN(electronic);
      if (!result.valid) issues.push({ pointer: '/iban', message: 'is not a valid IBAN', in: 'body' });
      else out.iban = electronic;
    }
  }
  const bic = clean(input.bic);
  if (bic !== undefined) {
    if (bic === null) out.bic = null;
    else {
      const compact = bic.replace(/\s/g, '').toUpperCase();
      if (!isValidBIC(compact)) issues.push({ pointer: '/bic', message: 'is not a valid BIC', in: 'body' });
      else out.bic = compact;
    }
  }
  const vatNumber = clean(input.vatNumber);
  if (vatNumber !== undefined) {
    if (vatNumber === null) out.vatNumber = null;
    else {
      const checked = checkVatNumber(vatNumber);
      if ('error' in checked) issues.push({ pointer: '/vatNumber', message: checked.error, in: 'body' });
      else out.vatNumber = checked.value;
    }
  }
  for (const [country, rate] of Object.entries(input.vatRates ?? {})) {
    const pointer = `/vatRates/${country.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!/^[A-Z]{2}$/.test(country)) {
      issues.push({ pointer, message: 'must be keyed by an ISO 3166-1 alpha-2 country code', in: 'body' });
    } else if (Math.round(rate * 100) !== rate * 100) {
      issues.push({ pointer, message: 'must have at most 2 decimals', in: 'body' });
    }
  }
  const rate = input.defaultVatRate;
  if (typeof rate === 'number' && Math.round(rate * 100) !== rate * 100) {
    issues.push({ pointer: '/defaultVatRate', message: 'must have at most 2 decimals', in: 'body' });
  }
  if (issues.length) throw badRequest('Some settings are not valid', issues);
  return out;
}

export function createOrganisationSettingsService({
  db,
  change,
  files,
  fileSizeLimitBytes,
}: {
  db: Db;
  change: ChangeRunner;
  files: Pick<FilesService, 'storeFile'>;
  fileSizeLimitBytes: number;
}) {
  const target = (organisationId: string) => ({ entity: 'organisation' as const, entityId: organisationId });

  async function load(db: Executor, organisationId: string) {
    const found = await findSettings(db, organisationId);
    if (!found) throw notFound('Organisation');
    const logo = found.settings?.logoFileId
      ? await findLogoFile(db, organisationId, found.settings.logoFileId)
      : undefined;
    return { found, view: present(organisationId, found.name, found.settings, logo) };
  }

  /** Writes `values` under the organisation's row lock and records the change (when there is one). */
  function write(
    actor: Actor,
    apply: (tx: Executor, current: SettingsRow | null) => Promise<SettingsValues>,
  ) {
    return change(actor, async (tx, record) => {
      const found = await findSettings(tx, actor.organisationId, true);
      if (!found) throw notFound('Organisation');
      const before = present(actor.organisationId, found.name, found.settings, undefined);
      const values = await apply(tx, found.settings);
      const row = await saveSettings(tx, actor.organisationId, { ...values, updatedById: actor.userId });
      const after = present(actor.organisationId, found.name, row, undefined);
      const updatedColumns = changedFields(
        { ...before, logoFileId: found.settings?.logoFileId ?? null },
        { ...after, logoFileId: row.logoFileId },
      ).filter((c) => c !== 'updatedAt');
      if (updatedColumns.length) {
        await record({
          on: ORGANISATION_SETTINGS_ENTITY,
          type: found.settings ? 'UPDATE' : 'CREATE',
          entityId: actor.organisationId,
          snapshot: { ...after, logoFileId: row.logoFileId },
          updatedColumns,
        });
      }
    });
  }

  return {
    async get(actor: Actor) {
      return (await load(db, actor.organisationId)).view;
    },

    async update(actor: Actor, input: UpdateOrganisationSettings) {
      const checked = validate(input);
      await write(actor, async (_tx, current) => {
        const values: SettingsValues = {};
        for (const key of TEXT_FIELDS) {
          const value = clean(input[key]);
          if (value !== undefined) values[key] = value;
        }
        Object.assign(values, checked);
        if (input.registeredAddress !== undefined)
          values.registeredAddress = cleanAddress(input.registeredAddress);
        if (input.invoiceAddress !== undefined) values.invoiceAddress = cleanAddress(input.invoiceAddress);
        if (input.paymentDays !== undefined) values.paymentDays = input.paymentDays;
        if (input.incoterm !== undefined) values.incoterm = input.incoterm;
        if (input.defaultVatRate !== undefined) values.defaultVatRate = input.defaultVatRate;
        if (input.vatRates !== undefined) values.vatRates = input.vatRates;
        if (input.termsAndConditions !== undefined) {
          const terms = { ...(current?.termsAndConditions ?? {}) };
          for (const [language, text] of Object.entries(input.termsAndConditions) as [
            keyof typeof terms,
            string | null | undefined,
          ][]) {
            if (text === undefined) continue;
            const cleaned = text?.replace(/\r\n?/g, '\n').trim();
            if (cleaned) terms[language] = cleaned;
            else delete terms[language];
          }
          values.termsAndConditions = terms;
        }
        return values;
      });
      return (await load(db, actor.organisationId)).view;
    },

    /** Replaces the logo with an uploaded PNG or JPEG (multipart field `file`). */
    async setLogo(actor: Actor, request: Parameters<typeof readMultipartForm>[0]) {
      const { file } = await readMultipartForm(request, {
        fileField: 'file',
        limitBytes: Math.min(LOGO_LIMIT_BYTES, fileSizeLimitBytes),
      });
      const kind = await checkLogo(file.content, file.mimeType);
      const base = file.filename.replace(/\.[^.]*$/, '') || 'logo';
      await change(actor, async (tx, record) => {
        await removeLabelledFilesInTransaction(tx, actor, target(actor.organisationId), LOGO_LABEL, record);
        const stored = await files.storeFile(
          tx,
          actor,
          {
            ...target(actor.organisationId),
            filename: `${base}.${kind.extension}`,
            mimeType: kind.mimeType,
            content: file.content,
            label: LOGO_LABEL,
          },
          record,
        );
        await saveSettings(tx, actor.organisationId, { logoFileId: stored.id, updatedById: actor.userId });
        await record({
          on: ORGANISATION_SETTINGS_ENTITY,
          type: 'UPDATE',
          entityId: actor.organisationId,
          snapshot: { organisationId: actor.organisationId, logoFileId: stored.id },
          updatedColumns: ['logoFileId'],
        });
      });
      return (await load(db, actor.organisationId)).view;
    },

    async removeLogo(actor: Actor) {
      await change(actor, async (tx, record) => {
        const found = await findSettings(tx, actor.organisationId, true);
        if (!found?.settings?.logoFileId) return;
        await removeLabelledFilesInTransaction(tx, actor, target(actor.organisationId), LOGO_LABEL, record);
        await saveSettings(tx, actor.organisationId, { logoFileId: null, updatedById: actor.userId });
        await record({
          on: ORGANISATION_SETTINGS_ENTITY,
          type: 'UPDATE',
          entityId: actor.organisationId,
          snapshot: { organisationId: actor.organisationId, logoFileId: null },
          updatedColumns: ['logoFileId'],
        });
      });
      return (await load(db, actor.organisationId)).view;
    },

    /** The logo's bytes (404 when there is none). */
    async readLogo(actor: Actor) {
      const logo = await sellerLogo(db, actor.organisationId);
      if (!logo) throw notFound('Logo');
      return logo;
    },

    /** The seller's name and logo path, for the buyer portal (`logoPath` for a guest's own route). */
    async brandOf(organisationId: string, logoPath: string = BRAND_LOGO_URL) {
      const found = await findSettings(db, organisationId);
      if (!found) throw notFound('Organisation');
      const row = found.settings;
      const logo = row?.logoFileId ? await findLogoFile(db, organisationId, row.logoFileId) : undefined;
      return {
        name: row?.tradingName || row?.legalName || found.name,
        logoUrl: logo ? logoPath : null,
        email: row?.email ?? null,
        phoneNumber: row?.phoneNumber ?? null,
        website: row?.website ?? null,
      };
    },

    /** The logo of an organisation (a guest link's seller). */
    async logoOf(organisationId: string) {
      const logo = await sellerLogo(db, organisationId);
      if (!logo) throw notFound('Logo');
      return logo;
    },

    /** Everything the quote PDF prints of the seller. */
    async sellerOf(db: Executor, organisationId: string) {
      const found = await findSettings(db, organisationId);
      if (!found) throw notFound('Organisation');
      return {
        ...present(organisationId, found.name, found.settings, undefined),
        logo: await sellerLogo(db, organisationId),
      };
    },

    /** The terms a new quote starts with, and the VAT of its customer. */
    async quoteDefaults(
      tx: Executor,
      organisationId: string,
      customer: { companyId: string; addressId: string | null },
    ): Promise<QuoteTermsDefaults & { vat: VatDecision }> {
      const found = await findSettings(tx, organisationId);
      const row = found?.settings ?? null;
      return {
        paymentTerms: row?.paymentTerms ?? null,
        paymentDays: row?.paymentDays ?? null,
        incoterm: row?.incoterm ?? null,
        incotermPlace: row?.incotermPlace ?? null,
        deliveryTerms: row?.deliveryTerms ?? null,
        vat: await vatOf(tx, organisationId, customer, row),
      };
    },

    /** The VAT of a customer of the organisation (see vat.ts, decideVat). */
    vatFor: (
      tx: Executor,
      organisationId: string,
      customer: { companyId: string; addressId: string | null },
    ) => vatOf(tx, organisationId, customer),
  };

  async function vatOf(
    tx: Executor,
    organisationId: string,
    customer: { companyId: string; addressId: string | null },
    known?: SettingsRow | null,
  ) {
    const row = known !== undefined ? known : ((await findSettings(tx, organisationId))?.settings ?? null);
    const seller = {
      country: row?.registeredAddress?.countryCode ?? row?.invoiceAddress?.countryCode ?? null,
      defaultRate: row?.defaultVatRate ?? null,
      rates: row?.vatRates ?? {},
    };
    return decideVat(seller, await customerVatOf(tx, organisationId, customer.companyId, customer.addressId));
  }

  async function sellerLogo(db: Executor, organisationId: string) {
    const found = await findSettings(db, organisationId);
    const id = found?.settings?.logoFileId;
    if (!id) return null;
    const file = await findLogoFile(db, organisationId, id);
    if (!file) return null;
    const content = await readFileContent(db, file.id);
    return content ? { file, content } : null;
  }
}

export type OrganisationSettingsService = ReturnType<typeof createOrganisationSettingsService>;
