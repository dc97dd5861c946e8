import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Server pagination: the page number lives in the URL, the total comes from the API's meta. */
export function Pager({
  meta,
  onPage,
}: {
  meta: { page: number; limit: number; total: number; hasNextPage: boolean };
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(meta.total / meta.limit), meta.hasNextPage ? meta.page + 1 : meta.page);
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {meta.total} · {t('common.page')} {meta.page}/{pages}
      </Text>
      <Pagination
        total={pages}
        value={meta.page}
        onChange={onPage}
        size="sm"
        getControlProps={(control) => ({
          'aria-label':
            control === 'previous' ? t('common.previous') : control === 'next' ? t('common.next') : control,
        })}
      />
    </Group>
  );
}
