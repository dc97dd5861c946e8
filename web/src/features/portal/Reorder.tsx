import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useApiMutation } from '../../api/mutation.ts';
import type { components } from '../../api/schema.d.ts';
import { paths } from '../../paths.ts';
import { money, number, percent } from '../../ui/format.ts';
import { ErrorState } from '../../ui/states.tsx';
import { articleApi } from '../articles/api.ts';
import { orderApi } from '../orders/api/index.ts';

type Reorder = components['schemas']['Reorder'];
export type ReorderSource = { type: 'order' | 'article'; id: string };

/** "Order again" (POST /orders/{id}/reorder or /articles/{id}/reorder) and its answer. */
export function useReorder() {
  return useApiMutation({
    mutationFn: (source: ReorderSource): Promise<Reorder> =>
      source.type === 'order' ? orderApi.reorder(source.id) : articleApi.reorder(source.id),
  });
}

const signed = (value: number, currency: string) => (value > 0 ? '+' : '') + money(value, currency);

/** The new draft beside the previous prices: one block per line, so it fits a phone too. */
export function ReorderResult({
  result,
  error,
  onClose,
}: {
  result: Reorder | undefined;
  error: unknown;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const opened = Boolean(result || error);
  const previousCurrency = result?.previousCurrency ?? result?.currency ?? 'EUR';
  const skipped = (reason: 'no_article' | 'article_unavailable') =>
    result?.skipped.filter((s) => s.reason === reason).length ?? 0;
  return (
    <Modal opened={opened} onClose={onClose} title={t('portal.reorderTitle')} size="lg">
      {error ? <ErrorState error={error} /> : null}
      {result && (
        <Stack data-testid="reorder-result">
          <Text size="sm">{t('portal.reorderIntro', { name: result.quote.name })}</Text>
          {result.previousCurrency && result.previousCurrency !== result.currency ? (
            <Alert color="gray">{t('portal.currencyChanged', { currency: result.previousCurrency })}</Alert>
          ) : null}
          <Stack gap={0}>
            {result.lines.map((line) => (
              <div
                key={line.articleId}
                style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', padding: '8px 0' }}
                data-testid="reorder-line"
              >
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {line.code} · {line.name} × {number(line.quantity)}
                </Text>
                <Group justify="space-between" gap="xs">
                  <Text size="xs" c="dimmed">
                    {t('portal.previousPrice')}: {money(line.previousUnitPrice, previousCurrency, 4)} →{' '}
                    {t('portal.newPrice')}:{' '}
                    {line.unitPrice === null
                      ? t('portal.priceUnknown')
                      : money(line.unitPrice, result.currency, 4)}
                  </Text>
                  <Text
                    size="sm"
                    fw={600}
                    c={
                      line.difference && line.difference > 0
                        ? 'red.9'
                        : line.difference
                          ? 'teal.9'
                          : undefined
                    }
                    data-testid="reorder-difference"
                  >
                    {line.difference === null
                      ? money(line.total, result.currency)
                      : `${signed(line.difference, result.currency)} (${percent(line.differencePercent)})`}
                  </Text>
                </Group>
              </div>
            ))}
          </Stack>
          <Group justify="space-between">
            <Text size="sm">
              {t('portal.previousPrice')}: {money(result.previousTotal, previousCurrency)}
            </Text>
            <Text fw={700} data-testid="reorder-total">
              {t('portal.newPrice')}: {money(result.total, result.currency)}
              {result.difference !== null ? ` (${signed(result.difference, result.currency)})` : ''}
            </Text>
          </Group>
          {skipped('no_article') > 0 && (
            <Text size="xs" c="dimmed">
              {t('portal.skipped_no_article', { count: skipped('no_article') })}
            </Text>
          )}
          {skipped('article_unavailable') > 0 && (
            <Text size="xs" c="dimmed">
              {t('portal.skipped_article_unavailable', { count: skipped('article_unavailable') })}
            </Text>
          )}
          <Group justify="flex-end">
            <Button onClick={() => navigate(paths.quote(result.quote.id))} data-testid="open-new-quote">
              {t('portal.openNewQuote')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
