import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "Not up to date" beside the title of a panel drawn from an estimate of an earlier form (issue 26). */
export function StaleBadge({ panel = 'drawing' }: { panel?: string }) {
  const { t } = useTranslation();
  return (
    <Badge color="gray.8" variant="filled" ml="xs" data-testid={`${panel}-stale`}>
      {t('stale.drawing')}
    </Badge>
  );
}
