import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { money } from '../../ui/format.ts';
import { Select } from '../../ui/Select.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { INCOTERMS } from '../admin/OrganisationPanel.tsx';
import { quoteApi, quoteKeys } from './api/index.ts';

type Quote = components['schemas']['Quote'];

/**
 * Net, VAT and gross totals of a quote (VAT = round(net x rate) once per quote, decided by the
 * API from the customer: docs/quotes.md), shown under the lines.
 */
export function QuoteVatTotals({ quote }: { quote: Quote }) {
  const { t } = useTranslation();
  if (quote.vatTreatment === 'none') return null;
  const rate = quote.vatRate ?? 0;
  const vatLabel =
    quote.vatTreatment === 'standard'
      ? t('quoteTerms.vatRate', { rate })
      : quote.vatTreatment === 'exempt'
        ? t('quoteTerms.exempt', { reason: quote.vatExemptionReason ?? '' })
        : t(`quoteTerms.treatments.${quote.vatTreatment}`);
  return (
    <SimpleGrid cols={3} mt="xs" maw={520} ml="auto" data-testid="quote-vat">
      <Cell label={t('quoteTerms.net')} value={money(quote.netTotal, quote.currency)} />
      <Cell label={vatLabel} value={money(quote.vatAmount, quote.currency)} />
      <Cell label={t('quoteTerms.gross')} value={money(quote.grossTotal, quote.currency)} strong />
    </SimpleGrid>
  );
}

function Cell({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 700 : 500}>{value}</Text>
    </div>
  );
}

/** The quote's commercial terms; a draft's are edited here (PUT /api/quotes/{id}). */
export function QuoteTermsCard({ quote, editable }: { quote: Quote; editable: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const payment = [
    quote.paymentTerms,
    quote.paymentDays != null ? t('quoteTerms.days', { count: quote.paymentDays }) : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const rows: [string, string | null][] = [
    [t('quoteTerms.poNumber'), quote.poNumber],
    [t('quoteTerms.paymentTerms'), payment || null],
    [t('quoteTerms.incoterm'), [quote.incoterm, quote.incotermPlace].filter(Boolean).join(' ') || null],
    [t('quoteTerms.deliveryTerms'), quote.deliveryTerms],
  ];
  return (
    <Card withBorder data-testid="quote-terms">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          {t('quoteTerms.title')}
        </Title>
        {editable && !editing && (
          <Button variant="subtle" size="xs" onClick={() => setEditing(true)}>
            {t('common.edit')}
          </Button>
        )}
      </Group>
      {editing ? (
        <TermsForm quote={quote} onDone={() => setEditing(false)} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {rows.map(([label, value]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text size="sm">{value ?? '—'}</Text>
            </div>
          ))}
        </SimpleGrid>
      )}
    </Card>
  );
}

function TermsForm({ quote, onDone }: { quote: Quote; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useApiForm();
  const [values, setValues] = useState({
    poNumber: quote.poNumber ?? '',
    paymentTerms: quote.paymentTerms ?? '',
    paymentDays: quote.paymentDays as number | string | null,
    incoterm: quote.incoterm ?? null,
    incotermPlace: quote.incotermPlace ?? '',
    deliveryTerms: quote.deliveryTerms ?? '',
  });
  const text = (key: 'poNumber' | 'paymentTerms' | 'incotermPlace' | 'deliveryTerms', label: string) => (
    <TextInput
      label={label}
      value={values[key]}
      onChange={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
      error={form.error(`/${key}`)}
    />
  );
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const body = {
          poNumber: values.poNumber.trim() || null,
          paymentTerms: values.paymentTerms.trim() || null,
          paymentDays:
            values.paymentDays === '' || values.paymentDays == null ? null : Number(values.paymentDays),
          incoterm: values.incoterm || null,
          incotermPlace: values.incotermPlace.trim() || null,
          deliveryTerms: values.deliveryTerms.trim() || null,
        };
        const saved = await form.submit(() => quoteApi.update(quote.id, body), t('common.saved'));
        if (saved) {
          await client.invalidateQueries({ queryKey: quoteKeys.detail(quote.id) });
          onDone();
        }
      }}
    >
      <Stack gap="xs">
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('poNumber', t('quoteTerms.poNumber'))}
          {text('paymentTerms', t('quoteTerms.paymentTerms'))}
          <NumberInput
            label={t('quoteTerms.paymentDays')}
            value={values.paymentDays ?? ''}
            onChange={(v) => setValues({ ...values, paymentDays: v })}
            min={0}
            max={365}
            allowDecimal={false}
            error={form.error('/paymentDays')}
          />
          <Select
            searchable
            label={t('quoteTerms.incoterm')}
            data={INCOTERMS}
            value={values.incoterm}
            // The choices are the API's incoterms (INCOTERMS): a chosen value is one of them.
            onChange={(v) => setValues({ ...values, incoterm: v as Quote['incoterm'] })}
            clearable
            error={form.error('/incoterm')}
          />
          {text('incotermPlace', t('quoteTerms.incotermPlace'))}
          {text('deliveryTerms', t('quoteTerms.deliveryTerms'))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
