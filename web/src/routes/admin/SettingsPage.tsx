import { Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CurrenciesPanel } from '../../features/admin/CurrenciesPanel.tsx';
import { CustomFieldsPanel } from '../../features/admin/CustomFieldsPanel.tsx';
import { StatusesPanel } from '../../features/admin/StatusesPanel.tsx';
import { useCan } from '../../features/admin/useCan.ts';

/** Statuses, currencies and custom fields (settings:read to see, settings:manage to change). */
export default function SettingsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const manage = can('settings:manage');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'statuses';
  return (
    <Stack>
      <Title order={2}>{t('admin.settings.title')}</Title>
      <Tabs value={tab} onChange={(v) => v && setParams({ tab: v })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="statuses">{t('admin.statuses.title')}</Tabs.Tab>
          <Tabs.Tab value="currencies">{t('admin.currencies.title')}</Tabs.Tab>
          <Tabs.Tab value="fields">{t('admin.fields.title')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="statuses" pt="md">
          <StatusesPanel manage={manage} />
        </Tabs.Panel>
        <Tabs.Panel value="currencies" pt="md">
          <CurrenciesPanel manage={manage} />
        </Tabs.Panel>
        <Tabs.Panel value="fields" pt="md">
          <CustomFieldsPanel manage={manage} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
