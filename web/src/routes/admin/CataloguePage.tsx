import { Grid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { adminQueries } from '../../features/admin/api.ts';
import { MachinesPanel } from '../../features/admin/MachinesPanel.tsx';
import { MaterialsPanel } from '../../features/admin/MaterialsPanel.tsx';
import { NamesPanel } from '../../features/admin/NamesPanel.tsx';
import { PricingSettingsPanel } from '../../features/admin/PricingSettingsPanel.tsx';
import { RepricePanel } from '../../features/admin/RepricePanel.tsx';
import { useCan } from '../../features/admin/useCan.ts';

/**
 * The estimating catalogue an estimator tunes (catalogue:manage edits, everyone reads): machines,
 * materials and the pricing settings, beside a brief re-priced with the rates as they are now.
 */
export default function CataloguePage() {
  const { t } = useTranslation();
  const can = useCan();
  const manage = can('catalogue:manage');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'machines';
  const settings = useQuery(adminQueries.pricingSettings());
  const currency = typeof settings.data?.currency === 'string' ? settings.data.currency : 'EUR';
  return (
    <Stack>
      <Title order={2}>{t('admin.catalogue.title')}</Title>
      <Text size="sm">{manage ? t('admin.catalogue.intro') : t('admin.catalogue.readOnly')}</Text>
      <Grid>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Tabs value={tab} onChange={(v) => v && setParams({ tab: v })} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="machines">{t('admin.catalogue.machines')}</Tabs.Tab>
              <Tabs.Tab value="materials">{t('admin.catalogue.materials')}</Tabs.Tab>
              <Tabs.Tab value="settings">{t('admin.catalogue.settings')}</Tabs.Tab>
              <Tabs.Tab value="names">{t('lines.names')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="machines" pt="md">
              <MachinesPanel manage={manage} currency={currency} />
            </Tabs.Panel>
            <Tabs.Panel value="materials" pt="md">
              <MaterialsPanel manage={manage} currency={currency} />
            </Tabs.Panel>
            <Tabs.Panel value="settings" pt="md">
              <PricingSettingsPanel manage={manage} />
            </Tabs.Panel>
            <Tabs.Panel value="names" pt="md">
              <NamesPanel manage={manage} />
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <RepricePanel canReprice={can('briefs:write')} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
