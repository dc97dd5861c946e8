import { Alert, Anchor, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../api/client.ts';
import { isNotFound, isRetryable, problemMessage } from './problem.ts';

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

/**
 * A refusal or a fault, with the API's reason in the user's language (ui/problem.ts). "Retry" is
 * offered only where retrying can help (a fault, throttling), never for a refusal such as a 404.
 */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const message = problemMessage(error, t);
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
        {onRetry && isRetryable(error) && (
          <Button size="xs" variant="default" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** A record that does not exist (or is not visible to the user: the API answers the same 404). */
export function NotFoundState({ error, back }: { error?: unknown; back?: { to: string; label: string } }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="not-found" role="status">
      <Title order={2}>{t('common.notFound')}</Title>
      <Text data-testid="error-reason">{error ? problemMessage(error, t) : t('common.pageNotFound')}</Text>
      <Text size="sm">{t('common.notFoundHelp')}</Text>
      <Anchor component={Link} to={back?.to ?? '/'}>
        {back?.label ?? t('common.home')}
      </Anchor>
    </Stack>
  );
}

/** Loading, error and empty states of a query around its content. */
export function QueryState<T>({
  query,
  isEmpty,
  empty,
  back,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  isEmpty?: (data: T) => boolean;
  /** What to say when there is nothing (default "Nothing here yet"). */
  empty?: ReactNode;
  /** Where a not-found state leads back to (default home). */
  back?: { to: string; label: string };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (isNotFound(query.error)) return <NotFoundState error={query.error} back={back} />;
  if (query.error) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data === undefined) return <Loading />;
  if (isEmpty?.(query.data)) return <Empty>{empty}</Empty>;
  return <>{children(query.data)}</>;
}
