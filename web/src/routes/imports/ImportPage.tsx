import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { fileUrl } from '../../api/client.ts';
import {
  canRunForReal,
  type ImportRecord,
  importApi,
  importKeys,
  isRunning,
  statusColor,
  statusKey,
  useImport,
  useImportTypes,
} from '../../features/imports/api.ts';
import { dateTime, ImportProgress, ImportResult } from '../../features/imports/ImportResult.tsx';
import { paths } from '../../paths.ts';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { seconds } from '../../ui/format.ts';
import { QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';

/** One import: its progress while it runs (polled), then its counts and row errors; its actions. */
export default function ImportPage() {
  const { id } = useParams() as { id: string };
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const record = useImport(id);
  const types = useImportTypes();
  const action = useApiForm();
  const [archived, setArchived] = useState(false);
  const navigate = useNavigate();
  const act = async (call: () => Promise<unknown>, done: string) => {
    const ok = await action.submit(call, done);
    if (ok !== undefined) {
      await queryClient.invalidateQueries({ queryKey: importKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: importKeys.lists() });
    }
    return ok !== undefined;
  };

  return (
    <Stack>
      <Anchor component={Link} to={paths.imports} size="sm">
        ← {t('imports.back')}
      </Anchor>
      <QueryState query={record}>
        {(data) => {
          const typeName = types.data?.find((ty) => ty.code === data.type)?.name ?? data.type;
          const running = isRunning(data.status);
          return (
            <>
              <Group justify="space-between">
                <Group>
                  <Title order={2}>
                    {t('imports.importTitle', {
                      code: data.code,
                      type: t(`imports.types.${typeName}`, { defaultValue: typeName }),
                    })}
                  </Title>
                  <Badge color={statusColor(data.status)} size="lg" data-testid="import-status">
                    {t(statusKey(data))}
                  </Badge>
                  {data.dryRun && <Badge color="gray.7">{t('imports.dryRunBadge')}</Badge>}
                  {data.allowDelete && <Badge color="red.8">{t('imports.allowDeleteBadge')}</Badge>}
                </Group>
                <Group gap="xs">
                  {canRunForReal(data) && (
                    <ConfirmButton
                      label={t('imports.runForReal')}
                      question={t('imports.runForRealConfirm')}
                      onConfirm={async () => {
                        const real = (await action.submit(
                          () => importApi.run(id),
                          t('imports.runStarted'),
                        )) as ImportRecord | undefined;
                        if (!real) return;
                        queryClient.setQueryData(['import', real.id], real);
                        // The dry run now names its real run: read again, it offers no second one.
                        await queryClient.invalidateQueries({ queryKey: importKeys.detail(id) });
                        await queryClient.invalidateQueries({ queryKey: importKeys.lists() });
                        navigate(paths.import(real.id));
                      }}
                    />
                  )}
                  {running && (
                    <Button
                      color="red"
                      variant="light"
                      loading={action.busy}
                      onClick={() => act(() => importApi.cancel(id), t('imports.cancelled'))}
                    >
                      {t('imports.cancel')}
                    </Button>
                  )}
                  {data.fileArchived ? (
                    <Text size="sm">{t('imports.fileArchived')}</Text>
                  ) : (
                    <Button
                      component="a"
                      variant="default"
                      href={fileUrl(`/api/imports/${id}/download`)}
                      download
                    >
                      {t('imports.download')}
                    </Button>
                  )}
                  {!archived && (
                    <ConfirmButton
                      variant="default"
                      label={t('imports.archive')}
                      question={t('imports.archiveConfirm')}
                      onConfirm={async () => {
                        const done = await act(() => importApi.archive(id), t('imports.archived'));
                        if (done) setArchived(true);
                      }}
                    />
                  )}
                </Group>
              </Group>
              {action.formError && (
                <Alert color="red" role="alert" title={t('common.refused')}>
                  <span data-testid="error-reason">{action.formError}</span>
                </Alert>
              )}
              {data.dryRun && !running && (
                <Alert color="blue" data-testid="dry-run-note">
                  {t('imports.dryRunNote')}
                </Alert>
              )}
              {data.realRunId && (
                <Anchor component={Link} to={paths.import(data.realRunId)} size="sm" data-testid="real-run">
                  {t('imports.realRun')}
                </Anchor>
              )}
              {data.fromDryRunId && (
                <Anchor component={Link} to={paths.import(data.fromDryRunId)} size="sm">
                  {t('imports.fromDryRun')}
                </Anchor>
              )}
              <Card withBorder>
                <Stack gap="xs">
                  <ImportProgress record={data} />
                  <Text size="sm" c="dimmed">
                    {t('imports.createdAt')} {dateTime(data.createdAt)}
                    {data.stats.durationMs !== null &&
                      ` · ${t('imports.duration')} ${seconds(data.stats.durationMs / 1000)}`}
                  </Text>
                </Stack>
              </Card>
              <ImportResult record={data} />
            </>
          );
        }}
      </QueryState>
    </Stack>
  );
}
