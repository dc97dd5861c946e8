import '@mantine/dates/styles.css';
import { Alert, Button, Card, Group, Stack, TextInput, Title } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { companyQueries } from '../../features/companies/api.ts';
import { contactLabel } from '../../features/contacts/label.ts';
import { type QuoteCreate, quoteApi } from '../../features/quotes/api/index.ts';
import { LinePicker, type Lines, linesBody } from '../../features/quotes/LinePicker.tsx';
import { paths } from '../../paths.ts';
import { CompanyPicker } from '../../ui/CompanyPicker.tsx';
import { Select } from '../../ui/Select.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';

/** A new draft quote from briefs and/or catalogue articles of one company. */
export default function NewQuotePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useApiForm();
  const [companyId, setCompanyId] = useState<string | null>(params.get('companyId'));
  const [name, setName] = useState('');
  const [contactId, setContactId] = useState<string | null>(null);
  const [validUntil, setValidUntil] = useState('');
  const [lines, setLines] = useState<Lines>({ briefIds: [], articles: [] });
  const contacts = useQuery({ ...companyQueries.contacts(companyId ?? ''), enabled: !!companyId });
  return (
    <Stack maw={760}>
      <Title order={2}>{t('quotes.new')}</Title>
      <Card withBorder>
        <form
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            const items = linesBody(lines).filter((l) => 'articleId' in l);
            const created = await form.submit(
              () =>
                quoteApi.create({
                  ...(name ? { name } : {}),
                  ...(companyId ? { companyId } : {}),
                  ...(contactId ? { contactId } : {}),
                  ...(validUntil ? { validUntil } : {}),
                  ...(lines.briefIds.length ? { briefIds: lines.briefIds } : {}),
                  ...(items.length ? { items } : {}),
                  // Without a company the API answers which field is missing, under the picker.
                } as QuoteCreate),
              t('common.saved'),
            );
            if (created) navigate(paths.quote(created.id));
          }}
        >
          <Stack>
            {form.formError && (
              <Alert color="red" role="alert" data-testid="form-error">
                {form.formError}
              </Alert>
            )}
            <CompanyPicker
              label={t('common.company')}
              value={companyId}
              required
              onChange={(id) => {
                setCompanyId(id);
                setContactId(null);
                setLines({ briefIds: [], articles: [] });
              }}
              error={form.error('/companyId')}
            />
            <TextInput
              label={t('common.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={form.error('/name')}
            />
            <Select
              label={t('contacts.contact')}
              data={(contacts.data ?? []).map((c) => ({ value: c.id, label: contactLabel(c, t) }))}
              value={contactId}
              searchable
              data-testid="quote-contact"
              onChange={setContactId}
              clearable
              disabled={!companyId}
              error={form.error('/contactId')}
            />
            <DateInput
              label={t('quotes.validUntil')}
              value={validUntil || null}
              onChange={(value) => setValidUntil(value ?? '')}
              valueFormat="YYYY-MM-DD"
              clearable
              error={form.error('/validUntil')}
            />
            <LinePicker companyId={companyId} value={lines} onChange={setLines} errors={form.fields} />
            <Group justify="flex-end">
              <Button type="submit" loading={form.busy} data-testid="create-quote">
                {t('common.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
