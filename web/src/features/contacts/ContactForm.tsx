import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { Select } from '../../ui/Select.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { contactApi } from './api.ts';

type Contact = components['schemas']['Contact'];

/** Create a contact (linked to `companyIds`) or edit one; pointer errors on the fields. */
export function ContactForm({
  contact,
  companyIds,
  onDone,
}: {
  contact?: Contact;
  companyIds?: string[];
  onDone: (contact: Contact) => void;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [values, setValues] = useState({
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    email: contact?.email ?? '',
    phoneNumber: contact?.phoneNumber ?? '',
    jobTitle: contact?.jobTitle ?? '',
    language: contact?.language ?? 'en',
  });
  const field = (key: Exclude<keyof typeof values, 'language'>, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
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
        const optional = (value: string) => value.trim() || null;
        const body = {
          firstName: optional(values.firstName),
          lastName: optional(values.lastName),
          email: optional(values.email),
          phoneNumber: optional(values.phoneNumber),
          jobTitle: optional(values.jobTitle),
          language: optional(values.language),
        };
        const saved = await form.submit(
          () =>
            contact
              ? contactApi.update(contact.id, body)
              : contactApi.create(companyIds ? { ...body, collaborationIds: companyIds } : body),
          t('common.saved'),
        );
        if (saved) onDone(saved as Contact);
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <SimpleGrid cols={2}>
          {field('firstName', t('contacts.firstName'))}
          {field('lastName', t('contacts.lastName'))}
        </SimpleGrid>
        {field('email', t('common.email'), 'email')}
        {field('phoneNumber', t('common.phone'))}
        {field('jobTitle', t('contacts.jobTitle'))}
        <Select
          label={t('contacts.language')}
          data={[
            { value: 'en', label: 'English' },
            { value: 'fr', label: 'Français' },
            { value: 'de', label: 'Deutsch' },
          ]}
          value={values.language}
          onChange={(language) => setValues({ ...values, language: language ?? 'en' })}
          error={form.error('/language')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {contact ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Admins let a contact sign in by giving it a password (POST /api/users/{id}/invite). */
export function InviteForm({ contactId, onDone }: { contactId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [password, setPassword] = useState('');
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const ok = await form.submit(() => contactApi.invite(contactId, password), t('common.saved'));
        if (ok) onDone();
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <Text size="sm">{t('contacts.inviteHint')}</Text>
        <TextInput
          label={t('contacts.password')}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={form.error('/password')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {t('contacts.invite')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
