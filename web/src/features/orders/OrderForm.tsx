import { Alert, Button, Group, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProjectOptions } from '../../api/queries.ts';
import { CompanyPicker } from '../../ui/CompanyPicker.tsx';
import { Select } from '../../ui/Select.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { type OrderCreate, orderApi } from './api/index.ts';
import { DateField } from './DateField.tsx';
import { statusLabel, useOrderStatuses } from './statuses.tsx';

/** A new order: the API checks everything (project of the company, unique external id...). */
export function OrderForm({
  onDone,
  companyId: initialCompany,
}: {
  onDone: (id: string) => void;
  companyId?: string;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const statuses = useOrderStatuses();
  const [companyId, setCompanyId] = useState<string | null>(initialCompany ?? null);
  const projects = useProjectOptions(companyId);
  const [v, setV] = useState({
    projectId: null as string | null,
    statusId: null as string | null,
    billedAmount: 0 as number | string,
    externalId: '',
    orderDate: new Date().toISOString().slice(0, 10) as string | null,
    expectedDeliveryDate: null as string | null,
  });
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const body = {
          billedAmount: v.billedAmount === '' ? undefined : Number(v.billedAmount),
          ...(companyId ? { companyId } : {}),
          ...(v.projectId ? { projectId: v.projectId } : {}),
          ...(v.statusId ? { statusId: v.statusId } : {}),
          ...(v.externalId.trim() ? { externalId: v.externalId.trim() } : {}),
          ...(v.orderDate ? { orderDate: v.orderDate } : {}),
          ...(v.expectedDeliveryDate ? { expectedDeliveryDate: v.expectedDeliveryDate } : {}),
        };
        const order = await form.submit(
          // An empty amount is left out: the API names the missing field, shown under its input.
          () => orderApi.create(body as OrderCreate),
          t('common.saved'),
        );
        if (order) onDone(order.id);
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert" data-testid="error-reason">
            {form.formError}
          </Alert>
        )}
        <CompanyPicker
          label={t('common.company')}
          value={companyId}
          clearable
          onChange={(id) => {
            setCompanyId(id);
            setV({ ...v, projectId: null });
          }}
          error={form.error('/companyId')}
        />
        <Select
          searchable
          label={t('common.project')}
          data={projects}
          value={v.projectId}
          onChange={(projectId) => setV({ ...v, projectId })}
          clearable
          disabled={!companyId}
          error={form.error('/projectId')}
        />
        <SimpleGrid cols={2}>
          <NumberInput
            label={t('orders.billedAmount')}
            value={v.billedAmount}
            onChange={(billedAmount) => setV({ ...v, billedAmount })}
            min={0}
            decimalScale={2}
            required
            error={form.error('/billedAmount')}
          />
          <TextInput
            label={t('orders.externalId')}
            value={v.externalId}
            onChange={(e) => setV({ ...v, externalId: e.currentTarget.value })}
            error={form.error('/externalId')}
          />
          <DateField
            label={t('orders.orderDate')}
            value={v.orderDate}
            onChange={(orderDate) => setV({ ...v, orderDate })}
            error={form.error('/orderDate')}
          />
          <DateField
            label={t('orders.expectedDelivery')}
            value={v.expectedDeliveryDate}
            onChange={(expectedDeliveryDate) => setV({ ...v, expectedDeliveryDate })}
            error={form.error('/expectedDeliveryDate')}
          />
        </SimpleGrid>
        <Select
          label={t('common.status')}
          placeholder={t('orders.defaultStatus')}
          data={(statuses.data ?? []).map((s) => ({ value: s.id, label: statusLabel(s.internalLabel) }))}
          value={v.statusId}
          onChange={(statusId) => setV({ ...v, statusId })}
          clearable
          error={form.error('/statusId')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
