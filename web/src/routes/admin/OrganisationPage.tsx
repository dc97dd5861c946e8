import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OrganisationPanel } from '../../features/admin/OrganisationPanel.tsx';
import { useCan } from '../../features/admin/useCan.ts';

/** The seller's identity and commercial settings (staff read them, admins change them). */
export default function OrganisationPage() {
  const { t } = useTranslation();
  const can = useCan();
  return (
    <Stack maw={1100}>
      <Title order={2}>{t('organisation.title')}</Title>
      <Text c="dimmed" size="sm">
        {t('organisation.intro')}
      </Text>
      <OrganisationPanel manage={can('organisation_settings:manage')} />
    </Stack>
  );
}
