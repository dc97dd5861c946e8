import { ActionIcon, Group, MultiSelect, NumberInput, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fieldName } from '../../ui/problem.ts';
import { articleQueries } from '../articles/api.ts';
import { briefQueries } from '../briefs/api/index.ts';

export type Lines = { briefIds: string[]; articles: { articleId: string; quantity: number | '' }[] };

/** Pick briefs (each becomes a parent line with one child per element) and catalogue articles. */
export function LinePicker({
  companyId,
  value,
  onChange,
  errors,
}: {
  companyId: string | null;
  value: Lines;
  onChange: (v: Lines) => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const briefs = useQuery({
    ...briefQueries.list({ companyId: companyId ?? undefined, limit: 100, page: 1 }),
    enabled: !!companyId,
  });
  const articles = useQuery({
    ...articleQueries.list({ companyId: companyId ?? undefined, limit: 100, page: 1 }),
    enabled: !!companyId,
  });
  const articleName = (id: string) => articles.data?.data.find((a) => a.id === id);
  const problems = Object.entries(errors).filter(
    ([p]) => p.startsWith('/items') || p.startsWith('/briefIds'),
  );
  return (
    <Stack gap="sm">
      <MultiSelect
        label={t('quotes.fromBriefs')}
        data={(briefs.data?.data ?? []).map((b) => ({ value: b.id, label: `${b.code} · ${b.name}` }))}
        value={value.briefIds}
        onChange={(briefIds) => onChange({ ...value, briefIds })}
        searchable
        disabled={!companyId}
        error={errors['/briefIds']}
      />
      <MultiSelect
        label={t('quotes.fromArticles')}
        data={(articles.data?.data ?? []).map((a) => ({ value: a.id, label: `${a.code} · ${a.name}` }))}
        value={value.articles.map((a) => a.articleId)}
        onChange={(ids) =>
          onChange({
            ...value,
            articles: ids.map(
              (articleId) =>
                // No quantity is assumed: the user gives one for each article added.
                value.articles.find((a) => a.articleId === articleId) ?? { articleId, quantity: '' },
            ),
          })
        }
        searchable
        disabled={!companyId}
      />
      {value.articles.map((line, i) => (
        <Group key={line.articleId} gap="xs" align="flex-end">
          <NumberInput
            label={`${t('quotes.quantity')} · ${articleName(line.articleId)?.code ?? ''}`}
            value={line.quantity}
            min={1}
            required
            placeholder={t('quotes.quantity')}
            onChange={(q) =>
              onChange({
                ...value,
                articles: value.articles.map((a, j) =>
                  j === i ? { ...a, quantity: q === '' ? '' : Number(q) } : a,
                ),
              })
            }
            error={
              errors[`/items/${i}/quantity`] ??
              (line.quantity === '' ? t('quotes.quantityRequired') : undefined)
            }
          />
          <ActionIcon
            variant="subtle"
            color="red.9"
            c="red.9"
            aria-label={t('common.remove')}
            onClick={() => onChange({ ...value, articles: value.articles.filter((_, j) => j !== i) })}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      {problems.map(([pointer, message]) => (
        <Text key={pointer} c="red" size="sm" role="alert">
          {fieldName(pointer, t)}: {message}
        </Text>
      ))}
    </Stack>
  );
}

/** Whether every article picked has its quantity (nothing is sent before). */
export const linesComplete = (lines: Lines) =>
  lines.articles.every((a) => a.quantity !== '' && a.quantity > 0);

export const linesBody = (lines: Lines) => [
  ...lines.briefIds.map((briefId) => ({ briefId })),
  ...lines.articles.map((a) => ({
    articleId: a.articleId,
    ...(a.quantity === '' ? {} : { quantity: a.quantity }),
  })),
];
