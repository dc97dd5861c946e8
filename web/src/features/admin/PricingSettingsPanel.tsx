import { Alert, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { adminQueries, catalogueApi } from './api.ts';
import { type CatalogueEntry, num, useCatalogueChanged } from './catalogue.ts';

/** The engine's defaults: commercial margin and ink coverage, shown and edited as percentages. */
export function PricingSettingsPanel({ manage }: { manage: boolean }) {
  const query = useQuery(adminQueries.pricingSettings());
  return (
    <QueryState query={query}>
      {(settings) => <SettingsForm key={settings.updatedAt as string} settings={settings} manage={manage} />}
    </QueryState>
  );
}

const percent = (fraction: number | undefined) =>
  fraction === undefined ? '' : Math.round(fraction * 100_000) / 1000;

function SettingsForm({ settings, manage }: { settings: CatalogueEntry; manage: boolean }) {
  const { t } = useTranslation();
  const form = useApiForm();
  const changed = useCatalogueChanged();
  const [margin, setMargin] = useState<number | string>(percent(num(settings, 'defaultCommercialMargin')));
  const [ink, setInk] = useState<number | string>(percent(num(settings, 'defaultInkCoverage')));
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const data = {
          defaultCommercialMargin: Number(margin) / 100,
          defaultInkCoverage: Number(ink) / 100,
        };
        const saved = await form.submit(
          () => catalogueApi.updatePricingSettings({ data }),
          t('admin.catalogue.saved'),
        );
        if (saved) await changed();
      }}
    >
      <Stack maw={420}>
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <Text size="sm">
          {t('admin.catalogue.settingsIntro', { currency: String(settings.currency ?? '') })}
        </Text>
        <NumberInput
          label={t('admin.catalogue.margin')}
          description={t('admin.catalogue.marginHelp')}
          suffix=" %"
          value={margin}
          onChange={setMargin}
          min={0}
          max={99}
          decimalScale={3}
          readOnly={!manage}
          error={form.error('/data/defaultCommercialMargin')}
        />
        <NumberInput
          label={t('admin.catalogue.inkCoverage')}
          suffix=" %"
          value={ink}
          onChange={setInk}
          min={0}
          max={100}
          decimalScale={3}
          readOnly={!manage}
          error={form.error('/data/defaultInkCoverage')}
        />
        {manage && (
          <Group>
            <Button type="submit" loading={form.busy}>
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
