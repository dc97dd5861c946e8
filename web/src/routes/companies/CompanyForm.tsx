import { Alert, Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { companyApi } from '../../features/companies/api.ts';
import { useApiForm } from '../../ui/useApiForm.ts';

type Company = components['schemas']['Company'];

/** Create (no company) or edit a company; the API's pointer errors land on the fields. */
export function CompanyForm({ company, onDone }: { company?: Company; onDone: (company: Company) => void }) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [values, setValues] = useState({
    name: company?.name ?? '',
    email: company?.email ?? '',
    phoneNumber: company?.phoneNumber ?? '',
    website: company?.website ?? '',
    vatNumber: company?.vatNumber ?? '',
  });
  const [vatExempt, setVatExempt] = useState(company?.vatExempt ?? false);
  const [vatExemptionReason, setVatExemptionReason] = useState(company?.vatExemptionReason ?? '');
  const field = (key: keyof typeof values, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      value={values[key]}
      onChange={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
      error={form.error(`/${key}`)}
      required={key === 'name'}
    />
  );
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        // Empty optional fields are sent as null (cleared); the API checks the rest.
        const optional = (value: string) => value.trim() || null;
        const body = {
          name: values.name,
          email: optional(values.email),
          phoneNumber: optional(values.phoneNumber),
          website: optional(values.website),
          vatNumber: optional(values.vatNumber),
          vatExempt,
          vatExemptionReason: vatExempt ? vatExemptionReason.trim() || null : null,
        };
        const saved = await form.submit(
          () => (company ? companyApi.update(company.id, body) : companyApi.create(body)),
          t('common.saved'),
        );
        if (saved) onDone(saved as Company);
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        {field('name', t('common.name'))}
        {field('email', t('common.email'), 'email')}
        {field('phoneNumber', t('common.phone'))}
        {field('website', t('companies.website'))}
        <TextInput
          label={t('companies.vat')}
          description={t('companies.vatHelp')}
          value={values.vatNumber}
          onChange={(e) => setValues({ ...values, vatNumber: e.currentTarget.value })}
          error={form.error('/vatNumber')}
        />
        <Checkbox
          label={t('companies.vatExempt')}
          checked={vatExempt}
          onChange={(e) => setVatExempt(e.currentTarget.checked)}
        />
        {vatExempt && (
          <TextInput
            label={t('companies.vatExemptionReason')}
            description={t('companies.vatExemptionReasonHelp')}
            value={vatExemptionReason}
            onChange={(e) => setVatExemptionReason(e.currentTarget.value)}
            error={form.error('/vatExemptionReason')}
            required
          />
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {company ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
