import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.ts';

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center p="xl" aria-busy="true" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-hidden />
        <Text size="sm">{label ?? t('common.loading')}</Text>
      </Stack>
    </Center>
  );
}

export function Empty({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" p="md" ta="center">
      {children ?? t('common.empty')}
    </Text>
  );
}

/** A refusal or a fault, with the API's reason (problem+json detail) when there is one. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const message =
    error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
  return (
    <Alert
      color="red"
      title={
        error instanceof ApiError && error.problem.status < 500 ? t('common.refused') : t('common.error')
      }
      role="alert"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm" data-testid="error-reason">
          {message}
        </Text>
        {onRetry && (
          <Button size="xs" variant="default" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** Loading, error and empty states of a query around its content. */
export function QueryState<T>({
  query,
  isEmpty,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.error) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data === undefined) return <Loading />;
  if (isEmpty?.(query.data)) return <Empty />;
  return <>{children(query.data)}</>;
}
