import '@mantine/dropzone/styles.css';
import { Alert, Button, Checkbox, Group, Stack, Switch, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { number } from '../../ui/format.ts';
import { Select } from '../../ui/Select.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { type ImportRecord, uploadImport, useDelimiters, useImportTypes } from './api.ts';

/** Matches IMPORT_SIZE_LIMIT_BYTES' default; the service still decides (413 past its own limit). */
const MAX_BYTES = 100 * 1024 * 1024;

/**
 * Drag a CSV file (or pick one), choose its type, delimiter and options, upload. The service checks
 * the content (not the media type a spreadsheet gives), so any file is accepted here and a refusal
 * shows the service's reason under the matching field.
 */
export function UploadForm({ onDone }: { onDone: (record: ImportRecord) => void }) {
  const { t } = useTranslation();
  const types = useImportTypes();
  const delimiters = useDelimiters();
  const form = useApiForm();
  const [file, setFile] = useState<File>();
  const [rejected, setRejected] = useState(false);
  const [type, setType] = useState<string | null>('16');
  const [delimiter, setDelimiter] = useState<string | null>('comma');
  // On by default: a first look at what the file would do changes nothing (issue 26).
  const [dryRun, setDryRun] = useState(true);
  const [allowDelete, setAllowDelete] = useState(false);
  const kilobytes = (size: number) => `${number(Math.ceil(size / 1024))} KB`;

  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        if (!file || !type || !delimiter) return;
        const record = await form.submit(() => uploadImport(file, { type, delimiter, dryRun, allowDelete }));
        if (record) {
          setFile(undefined);
          onDone(record);
        }
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert" title={t('common.refused')}>
            <span data-testid="error-reason">{form.formError}</span>
          </Alert>
        )}
        <Dropzone
          onDrop={(files) => {
            setRejected(false);
            setFile(files[0]);
          }}
          onReject={() => setRejected(true)}
          multiple={false}
          maxSize={MAX_BYTES}
          aria-label={t('imports.drop')}
          data-testid="import-dropzone"
        >
          <Stack gap={4} align="center" p="lg" style={{ pointerEvents: 'none' }}>
            <Text fw={500}>{t('imports.drop')}</Text>
            <Text size="sm" c="dimmed">
              {t('imports.dropHint')}
            </Text>
          </Stack>
        </Dropzone>
        {file && (
          <Text size="sm" data-testid="chosen-file">
            {t('imports.chosen', { name: file.name, size: kilobytes(file.size) })}
          </Text>
        )}
        {(rejected || form.error('/csv')) && (
          <Text size="sm" c="red" role="alert">
            {form.error('/csv') ?? t('imports.notCsv')}
          </Text>
        )}
        <Group grow align="flex-start">
          <Select
            searchable
            label={t('imports.type')}
            data={(types.data ?? []).map((ty) => ({
              value: ty.code,
              label: t(`imports.types.${ty.name}`, { defaultValue: ty.name }),
            }))}
            value={type}
            onChange={setType}
            allowDeselect={false}
            error={form.error('/type')}
          />
          <Select
            label={t('imports.delimiter')}
            data={(delimiters.data ?? []).map((d) => ({ value: d.name, label: d.label }))}
            value={delimiter}
            onChange={setDelimiter}
            allowDeselect={false}
            error={form.error('/delimiter')}
          />
        </Group>
        <Checkbox
          label={t('imports.dryRun')}
          checked={dryRun}
          onChange={(e) => setDryRun(e.currentTarget.checked)}
        />
        <Switch
          label={t('imports.allowDelete')}
          description={t('imports.allowDeleteHint')}
          checked={allowDelete}
          onChange={(e) => setAllowDelete(e.currentTarget.checked)}
          color="red"
        />
        <Group justify="flex-end">
          <Button type="submit" data-testid="import-start" loading={form.busy} disabled={!file}>
            {file ? t('imports.start') : t('imports.chooseFile')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
