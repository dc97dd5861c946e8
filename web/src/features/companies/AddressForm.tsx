import { Alert, Button, Checkbox, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { Select } from '../../ui/Select.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { addressApi } from './api.ts';

type Address = components['schemas']['Address'];
const TYPES = ['shipping', 'billing', 'other'] as const;

/** Create or edit an address of a company (POST /api/addresses, PATCH /api/addresses/{id}). */
export function AddressForm({
  companyId,
  address,
  onDone,
}: {
  companyId: string;
  address?: Address;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [type, setType] = useState<Address['type']>(address?.type ?? 'shipping');
  const [isDefault, setIsDefault] = useState(address?.isDefault ?? false);
  const [values, setValues] = useState({
    name: address?.name ?? '',
    street1: address?.street1 ?? '',
    street2: address?.street2 ?? '',
    postcode: address?.postcode ?? '',
    city: address?.city ?? '',
    region: address?.region ?? '',
    countryCode: address?.countryCode ?? '',
  });
  const required = ['street1', 'city', 'countryCode'];
  const field = (key: keyof typeof values, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={t(`addresses.${key}`)}
      value={values[key]}
      onChange={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
      error={form.error(`/${key}`)}
      required={required.includes(key)}
      name={key}
      {...extra}
    />
  );
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const optional = (value: string) => value.trim() || null;
        const body = {
          name: optional(values.name),
          street1: values.street1.trim(),
          street2: optional(values.street2),
          postcode: optional(values.postcode),
          city: values.city.trim(),
          region: optional(values.region),
          countryCode: values.countryCode.trim().toUpperCase(),
          type,
          isDefault,
        };
        const saved = await form.submit(
          () => (address ? addressApi.update(address.id, body) : addressApi.create({ ...body, companyId })),
          t('common.saved'),
        );
        if (saved) onDone();
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <Select
          label={t('addresses.type')}
          data={TYPES.map((value) => ({ value, label: t(`addresses.types.${value}`) }))}
          value={type}
          onChange={(value) => setType(TYPES.find((known) => known === value) ?? type)}
          allowDeselect={false}
          error={form.error('/type')}
        />
        {field('name')}
        {field('street1')}
        {field('street2')}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {field('postcode')}
          {field('city')}
          {field('region')}
          {field('countryCode', { description: t('addresses.countryHint'), maxLength: 2 })}
        </SimpleGrid>
        <Checkbox
          label={t('addresses.isDefault')}
          checked={isDefault}
          onChange={(e) => setIsDefault(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {address ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
