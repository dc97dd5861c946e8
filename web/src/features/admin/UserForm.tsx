import { Alert, Button, Group, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '../../api/auth.ts';
import type { components } from '../../api/schema.d.ts';
import { Select } from '../../ui/Select.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { userApi } from './api.ts';

export type User = components['schemas']['User'];

/**
 * Create a user who signs in with its e-mail and a first password (POST /api/users), or change one
 * (role, names, e-mail; PATCH /api/users/{id}). The roles offered are those the actor may give.
 */
export function UserForm({
  user,
  roles,
  onDone,
}: {
  user?: User;
  roles: Role[];
  onDone: (user: User) => void;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [values, setValues] = useState({
    email: user?.email ?? '',
    password: '',
    role: (user?.role ?? 'sales') as Role,
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
  });
  const text = (key: 'email' | 'firstName' | 'lastName', label: string) => (
    <TextInput
      label={label}
      type={key === 'email' ? 'email' : 'text'}
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
          email: values.email.trim(),
          role: values.role,
          firstName: values.firstName.trim() || null,
          lastName: values.lastName.trim() || null,
        };
        const saved = await form.submit(
          () =>
            user ? userApi.update(user.id, body) : userApi.create({ ...body, password: values.password }),
          t('common.saved'),
        );
        if (saved) onDone(saved as User);
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        {text('email', t('common.email'))}
        {!user && (
          <PasswordInput
            label={t('admin.users.password')}
            description={t('admin.users.passwordHelp')}
            value={values.password}
            onChange={(e) => setValues({ ...values, password: e.currentTarget.value })}
            error={form.error('/password')}
          />
        )}
        <Select
          label={t('admin.users.role')}
          data={roles.map((r) => ({ value: r, label: t(`admin.roles.${r}`) }))}
          value={values.role}
          onChange={(v) => v && setValues({ ...values, role: v as Role })}
          allowDeselect={false}
          error={form.error('/role')}
        />
        <SimpleGrid cols={2}>
          {text('firstName', t('contacts.firstName'))}
          {text('lastName', t('contacts.lastName'))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {user ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
