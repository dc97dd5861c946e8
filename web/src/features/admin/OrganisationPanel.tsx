import {
  ActionIcon,
  Alert,
  Button,
  Fieldset,
  FileButton,
  Group,
  Image,
  NumberInput,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { paths } from '../../api/schema.d.ts';
import { Select } from '../../ui/Select.tsx';
import { QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { adminKeys, adminQueries, organisationApi } from './api.ts';

export type OrganisationSettings =
  paths['/api/organisation/settings']['get']['responses'][200]['content']['application/json'];
type Address = NonNullable<OrganisationSettings['registeredAddress']>;

/** Incoterms 2020. */
export const INCOTERMS = ['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'FAS', 'FOB', 'CFR', 'CIF'];
const TERMS_LANGUAGES = ['en', 'fr', 'de'] as const;

export const SETTINGS_KEY = adminKeys.settings;

/** The seller's identity, logo, bank details, commercial terms, VAT rates and T&Cs (admins change them). */
export function OrganisationPanel({ manage }: { manage: boolean }) {
  const query = useQuery(adminQueries.settings());
  return (
    <QueryState query={query}>
      {(settings) => (
        <Stack gap="lg">
          <LogoField settings={settings} manage={manage} />
          <SettingsForm key={String(settings.updatedAt)} settings={settings} manage={manage} />
        </Stack>
      )}
    </QueryState>
  );
}

function LogoField({ settings, manage }: { settings: OrganisationSettings; manage: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useApiForm();
  const upload = (file: File | null) =>
    file &&
    form.submit(async () => {
      await organisationApi.setLogo(file);
      await client.invalidateQueries({ queryKey: SETTINGS_KEY });
    }, t('organisation.logoSaved'));
  return (
    <Fieldset legend={t('organisation.logo')}>
      <Group align="center" gap="lg">
        {settings.logo ? (
          <Image
            src={`${settings.logo.url}?v=${settings.logo.sha256}`}
            alt={t('organisation.logoAlt')}
            h={64}
            w="auto"
            fit="contain"
            radius="sm"
            bd="1px solid var(--mantine-color-gray-3)"
            p={4}
          />
        ) : (
          <Text c="dimmed" size="sm">
            {t('organisation.noLogo')}
          </Text>
        )}
        {manage && (
          <Group gap="xs">
            <FileButton onChange={upload} accept="image/png,image/jpeg">
              {(props) => (
                <Button variant="light" loading={form.busy} {...props}>
                  {settings.logo ? t('organisation.replaceLogo') : t('organisation.uploadLogo')}
                </Button>
              )}
            </FileButton>
            {settings.logo && (
              <Button
                variant="subtle"
                color="red"
                onClick={() =>
                  form.submit(async () => {
                    await organisationApi.removeLogo();
                    await client.invalidateQueries({ queryKey: SETTINGS_KEY });
                  })
                }
              >
                {t('organisation.removeLogo')}
              </Button>
            )}
          </Group>
        )}
        <Text size="xs" c="dimmed">
          {t('organisation.logoHelp')}
        </Text>
      </Group>
      {form.formError && (
        <Alert color="red" role="alert" mt="sm">
          {form.formError}
        </Alert>
      )}
    </Fieldset>
  );
}

const emptyAddress: Address = {
  street1: '',
  street2: null,
  postcode: null,
  city: '',
  region: null,
  countryCode: '',
};

function SettingsForm({ settings, manage }: { settings: OrganisationSettings; manage: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useApiForm();
  const [values, setValues] = useState(settings);
  const [rates, setRates] = useState<{ key: string; country: string; rate: number | string }[]>(
    Object.entries(settings.vatRates).map(([country, rate]) => ({
      key: country,
      country,
      rate: Number(rate),
    })),
  );
  const set = <K extends keyof OrganisationSettings>(key: K, value: OrganisationSettings[K]) =>
    setValues((current: OrganisationSettings) => ({ ...current, [key]: value }));
  const text = (key: keyof OrganisationSettings, label: string, extra: { description?: string } = {}) => (
    <TextInput
      label={label}
      value={(values[key] as string | null) ?? ''}
      onChange={(event) => set(key, event.currentTarget.value)}
      readOnly={!manage}
      error={form.error(`/${String(key)}`)}
      {...extra}
    />
  );
  const address = (key: 'registeredAddress' | 'invoiceAddress') => {
    const value = values[key] ?? emptyAddress;
    const change = (field: keyof Address, next: string) =>
      set(key, { ...value, [field]: field === 'countryCode' ? next.toUpperCase() : next });
    const input = (field: keyof Address, label: string, span = 1) => (
      <TextInput
        label={label}
        value={(value[field] as string | null) ?? ''}
        onChange={(event) => change(field, event.currentTarget.value)}
        readOnly={!manage}
        error={form.error(`/${key}/${String(field)}`)}
        style={{ gridColumn: `span ${span}` }}
        maxLength={field === 'countryCode' ? 2 : undefined}
      />
    );
    return (
      <Fieldset legend={t(`organisation.${key}`)}>
        <SimpleGrid cols={{ base: 1, sm: 4 }}>
          {input('street1', t('organisation.street1'), 2)}
          {input('street2', t('organisation.street2'), 2)}
          {input('postcode', t('organisation.postcode'))}
          {input('city', t('organisation.city'))}
          {input('region', t('organisation.region'))}
          {input('countryCode', t('organisation.country'))}
        </SimpleGrid>
      </Fieldset>
    );
  };
  /** An address left empty is sent as null (cleared). */
  const addressBody = (value: Address | null) => {
    if (!value || !Object.values(value).some((v) => typeof v === 'string' && v.trim())) return null;
    return {
      street1: value.street1,
      street2: value.street2 || null,
      postcode: value.postcode || null,
      city: value.city,
      region: value.region || null,
      countryCode: value.countryCode,
    };
  };
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const body = {
          legalName: values.legalName,
          tradingName: values.tradingName,
          registeredAddress: addressBody(values.registeredAddress),
          invoiceAddress: addressBody(values.invoiceAddress),
          email: values.email || null,
          phoneNumber: values.phoneNumber,
          website: values.website,
          vatNumber: values.vatNumber,
          registrationNumber: values.registrationNumber,
          bankName: values.bankName,
          accountHolder: values.accountHolder,
          iban: values.iban,
          bic: values.bic,
          paymentTerms: values.paymentTerms,
          paymentDays: values.paymentDays,
          incoterm: values.incoterm,
          incotermPlace: values.incotermPlace,
          deliveryTerms: values.deliveryTerms,
          termsAndConditions: Object.fromEntries(
            TERMS_LANGUAGES.map((l) => [l, values.termsAndConditions[l] ?? null]),
          ),
          defaultVatRate: values.defaultVatRate,
          vatRates: Object.fromEntries(
            rates
              .filter((r) => r.country.trim())
              .map((r) => [r.country.trim().toUpperCase(), Number(r.rate)]),
          ),
          pdfFooter: values.pdfFooter,
        };
        const saved = await form.submit(() => organisationApi.updateSettings(body), t('organisation.saved'));
        if (saved) await client.invalidateQueries({ queryKey: SETTINGS_KEY });
      }}
    >
      <Stack gap="lg">
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <Fieldset legend={t('organisation.identity')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('legalName', t('organisation.legalName'))}
            {text('tradingName', t('organisation.tradingName'))}
            {text('vatNumber', t('organisation.vatNumber'), { description: t('organisation.vatNumberHelp') })}
            {text('registrationNumber', t('organisation.registrationNumber'))}
            {text('email', t('organisation.email'))}
            {text('phoneNumber', t('organisation.phone'))}
            {text('website', t('organisation.website'))}
          </SimpleGrid>
        </Fieldset>
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          {address('registeredAddress')}
          {address('invoiceAddress')}
        </SimpleGrid>
        <Fieldset legend={t('organisation.bank')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('bankName', t('organisation.bankName'))}
            {text('accountHolder', t('organisation.accountHolder'))}
            {text('iban', 'IBAN')}
            {text('bic', 'BIC')}
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('organisation.commercial')}>
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <TextInput
              label={t('organisation.paymentTerms')}
              value={values.paymentTerms ?? ''}
              onChange={(event) => set('paymentTerms', event.currentTarget.value)}
              readOnly={!manage}
              error={form.error('/paymentTerms')}
              style={{ gridColumn: 'span 3' }}
            />
            <NumberInput
              label={t('organisation.paymentDays')}
              value={values.paymentDays ?? ''}
              onChange={(value) => set('paymentDays', value === '' ? null : Number(value))}
              min={0}
              max={365}
              allowDecimal={false}
              readOnly={!manage}
              error={form.error('/paymentDays')}
            />
            <Select
              searchable
              label={t('organisation.incoterm')}
              data={INCOTERMS.map((code) => ({ value: code, label: `${code} · ${t(`incoterms.${code}`)}` }))}
              value={values.incoterm}
              onChange={(value) => set('incoterm', value as OrganisationSettings['incoterm'])}
              clearable
              readOnly={!manage}
              error={form.error('/incoterm')}
              style={{ gridColumn: 'span 2' }}
            />
            <TextInput
              label={t('organisation.incotermPlace')}
              value={values.incotermPlace ?? ''}
              onChange={(event) => set('incotermPlace', event.currentTarget.value)}
              readOnly={!manage}
              error={form.error('/incotermPlace')}
              style={{ gridColumn: 'span 2' }}
            />
            <Textarea
              label={t('organisation.deliveryTerms')}
              value={values.deliveryTerms ?? ''}
              onChange={(event) => set('deliveryTerms', event.currentTarget.value)}
              readOnly={!manage}
              autosize
              minRows={2}
              error={form.error('/deliveryTerms')}
              style={{ gridColumn: 'span 4' }}
            />
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('organisation.vat')}>
          <Stack gap="xs">
            <NumberInput
              label={t('organisation.defaultVatRate')}
              description={t('organisation.defaultVatRateHelp')}
              suffix=" %"
              value={values.defaultVatRate ?? ''}
              onChange={(value) => set('defaultVatRate', value === '' ? null : Number(value))}
              min={0}
              max={100}
              decimalScale={2}
              readOnly={!manage}
              error={form.error('/defaultVatRate')}
              maw={260}
            />
            <Text size="sm" fw={500}>
              {t('organisation.countryRates')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('organisation.countryRatesHelp')}
            </Text>
            {rates.map((row, index) => (
              <Group key={row.key} gap="xs" align="flex-start">
                <TextInput
                  aria-label={t('organisation.country')}
                  placeholder="DE"
                  value={row.country}
                  maxLength={2}
                  w={80}
                  readOnly={!manage}
                  error={form.error(`/vatRates/${row.country}`)}
                  onChange={(event) => {
                    const country = event.currentTarget.value.toUpperCase();
                    setRates((list) => list.map((r, i) => (i === index ? { ...r, country } : r)));
                  }}
                />
                <NumberInput
                  aria-label={t('organisation.rate')}
                  suffix=" %"
                  value={row.rate}
                  min={0}
                  max={100}
                  decimalScale={2}
                  w={120}
                  readOnly={!manage}
                  onChange={(rate) =>
                    setRates((list) => list.map((r, i) => (i === index ? { ...r, rate } : r)))
                  }
                />
                {manage && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={6}
                    aria-label={t('admin.delete')}
                    onClick={() => setRates((list) => list.filter((_, i) => i !== index))}
                  >
                    ×
                  </ActionIcon>
                )}
              </Group>
            ))}
            {manage && (
              <Button
                variant="subtle"
                size="xs"
                w="fit-content"
                onClick={() =>
                  setRates((list) => [...list, { key: crypto.randomUUID(), country: '', rate: '' }])
                }
              >
                {t('organisation.addRate')}
              </Button>
            )}
          </Stack>
        </Fieldset>
        <Fieldset legend={t('organisation.terms')}>
          <Tabs defaultValue="en">
            <Tabs.List>
              {TERMS_LANGUAGES.map((l) => (
                <Tabs.Tab key={l} value={l}>
                  {t(`organisation.languages.${l}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {TERMS_LANGUAGES.map((l) => (
              <Tabs.Panel key={l} value={l} pt="sm">
                <Textarea
                  aria-label={`${t('organisation.terms')} (${l})`}
                  value={values.termsAndConditions[l] ?? ''}
                  onChange={(event) =>
                    set('termsAndConditions', {
                      ...values.termsAndConditions,
                      [l]: event.currentTarget.value,
                    })
                  }
                  readOnly={!manage}
                  autosize
                  minRows={6}
                  maxRows={16}
                  error={form.error(`/termsAndConditions/${l}`)}
                />
              </Tabs.Panel>
            ))}
          </Tabs>
        </Fieldset>
        {text('pdfFooter', t('organisation.pdfFooter'), { description: t('organisation.pdfFooterHelp') })}
        {manage && (
          <Group>
            <Button type="submit" loading={form.busy}>
              {t('organisation.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
