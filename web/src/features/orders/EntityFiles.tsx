import '@mantine/dropzone/styles.css';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auth } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useApiAction } from '../../api/mutation.ts';
import { date, number } from '../../ui/format.ts';
import { ErrorState, QueryState } from '../../ui/states.tsx';
import { entityApi, entityKeys, entityQueries, type Owner as Owner_ } from './api/index.ts';

type Owner = Exclude<Owner_, 'quotes'>;
type FileRow = {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  label: string | null;
  createdAt: string;
};

/** Uploads one file as multipart (openapi-fetch sends JSON bodies; the files routes take multipart). */
async function upload(owner: Owner, id: string, file: File, label: string) {
  const form = new FormData();
  if (label) form.append('label', label);
  form.append('file', file, file.name);
  const response = await fetch(`/api/${owner}/${id}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${auth.get().token}` },
    body: form,
  });
  if (!response.ok)
    throw new ApiError({ status: response.status, ...(await response.json().catch(() => ({}))) });
}

/**
 * The files of an order or an article: drop to upload (with an optional label), list, download
 * (the session cookie authenticates the link), delete; for an article, choose the preview image.
 */
export function EntityFiles({
  owner,
  id,
  canWrite,
  preview,
}: {
  owner: Owner;
  id: string;
  canWrite: boolean;
  preview?: { fileId: string | null; canChoose: boolean; onChoose: (fileId: string | null) => Promise<void> };
}) {
  const { t } = useTranslation();
  const [label, setLabel] = useState('');
  const action = useApiAction({ invalidates: [entityKeys.files(owner, id)] });
  /** Files the drop zone refused (too large): shown like a refusal until the next action. */
  const [rejected, setRejected] = useState<Error>();
  const error = rejected ?? action.error;
  const busy = action.busy !== undefined;
  const files = useQuery({ ...entityQueries.files(owner, id), select: (rows): FileRow[] => rows });
  const run = (call: () => Promise<unknown>, message: string) => {
    setRejected(undefined);
    return action.run(message, call, message);
  };
  const href = (fileId: string) => `/api/${owner}/${id}/files/${fileId}`;
  const previewFile = preview?.fileId ? files.data?.find((f) => f.id === preview.fileId) : undefined;
  return (
    <Card withBorder data-testid="files">
      <Title order={3} size="h4" mb="xs">
        {t('orders.files.title')}
      </Title>
      {previewFile?.mimeType.startsWith('image/') && (
        <Image
          src={href(previewFile.id)}
          alt={t('articles.previewOf', { name: previewFile.filename })}
          maw={240}
          mb="sm"
          radius="sm"
          data-testid="article-preview"
        />
      )}
      {canWrite && (
        <Stack gap="xs" mb="sm">
          <TextInput
            label={t('orders.files.label')}
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            maw={320}
          />
          <Dropzone
            onDrop={(dropped) =>
              void run(async () => {
                for (const file of dropped) await upload(owner, id, file, label);
                setLabel('');
              }, t('orders.files.uploaded'))
            }
            loading={busy}
            maxSize={50 * 1024 * 1024}
            onReject={(files) => setRejected(new Error(files.map((r) => r.file.name).join(', ')))}
            data-testid="file-drop"
            aria-label={t('orders.files.drop')}
          >
            <Group justify="center" mih={64} style={{ pointerEvents: 'none' }}>
              <Text size="sm">{t('orders.files.drop')}</Text>
            </Group>
          </Dropzone>
        </Stack>
      )}
      {error ? <ErrorState error={error} /> : null}
      <QueryState query={files} isEmpty={(d) => d.length === 0}>
        {(list) => (
          <Table data-testid="file-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orders.files.name')}</Table.Th>
                <Table.Th>{t('orders.files.labelColumn')}</Table.Th>
                <Table.Th ta="right">{t('orders.files.size')}</Table.Th>
                <Table.Th>{t('orders.files.added')}</Table.Th>
                <Table.Th>{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((file) => (
                <Table.Tr key={file.id}>
                  <Table.Td>
                    <Anchor href={href(file.id)} download={file.filename}>
                      {file.filename}
                    </Anchor>
                    {preview?.fileId === file.id && (
                      <Badge ml="xs" color="blue.9">
                        {t('articles.preview')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{file.label ?? ''}</Table.Td>
                  <Table.Td ta="right">{number(Math.ceil(file.size / 1024))} KB</Table.Td>
                  <Table.Td>{date(file.createdAt)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {preview?.canChoose &&
                        file.mimeType.startsWith('image/') &&
                        preview.fileId !== file.id && (
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() =>
                              void run(() => preview.onChoose(file.id), t('articles.previewSet'))
                            }
                          >
                            {t('articles.usePreview')}
                          </Button>
                        )}
                      {canWrite && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          aria-label={`${t('common.remove')} ${file.filename}`}
                          onClick={() =>
                            void run(() => entityApi.removeFile(owner, id, file.id), t('orders.removed'))
                          }
                        >
                          {t('common.remove')}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}
