import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '../../ui/useApiForm.ts';
import { DateField } from '../orders/DateField.tsx';
import { projectApi } from './api.ts';

type Project = { id: string; name: string; description?: string | null; dueDate?: string | null };

/** Create or edit a project of a company (POST /api/projects, PATCH /api/projects/{id}). */
export function ProjectForm({
  companyId,
  project,
  onDone,
}: {
  companyId: string;
  project?: Project;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [name, setName] = useState(project?.name ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [dueDate, setDueDate] = useState<string | null>(project?.dueDate?.slice(0, 10) ?? null);
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const body = {
          name: name.trim(),
          description: description.trim() || null,
          dueDate: dueDate ? `${dueDate.slice(0, 10)}T00:00:00.000Z` : null,
        };
        const saved = await form.submit(
          () => (project ? projectApi.update(project.id, body) : projectApi.create({ ...body, companyId })),
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
        <TextInput
          label={t('common.name')}
          name="name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={form.error('/name')}
        />
        <Textarea
          label={t('projects.description')}
          value={description}
          autosize
          minRows={2}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={form.error('/description')}
        />
        <DateField
          label={t('projects.dueDate')}
          value={dueDate}
          onChange={(value) => setDueDate(value ? String(value) : null)}
          error={form.error('/dueDate')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {project ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
