import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DieLineMenuProps } from './DieLineDownloads.tsx';

const FORMATS = ['pdf', 'dxf', 'cf2'] as const;

/** The download menu itself (Mantine's Menu: ~7 KB gzipped), loaded on first use by DieLineMenu. */
export default function DownloadMenu({ base, query = '', testId, label, wholeBrief }: DieLineMenuProps) {
  const { t } = useTranslation();
  const href = (kind: 'die-line' | 'imposition-sheet', format: (typeof FORMATS)[number]) =>
    `${base}/${kind}?format=${format}${query}`;
  return (
    // Opened as it appears: it is drawn by the click that asked for it.
    // No focus placeholder: it is a role=presentation child, which a role=menu may not hold (axe).
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false} defaultOpened>
      <Menu.Target>
        <Button size="xs" variant="default" data-testid={testId} aria-label={label}>
          {t('dielines.download')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('dielines.dieLine')}</Menu.Label>
        {FORMATS.map((format) => (
          <Menu.Item key={format} component="a" href={href('die-line', format)} download>
            {t(`dielines.formats.${format}`)}
          </Menu.Item>
        ))}
        {/* No Menu.Divider: it is a role=presentation child, which a role=menu may not hold (axe). */}
        <Menu.Label mt="xs">{t('dielines.sheet')}</Menu.Label>
        {FORMATS.map((format) => (
          <Menu.Item key={format} component="a" href={href('imposition-sheet', format)} download>
            {t(`dielines.formats.${format}`)}
          </Menu.Item>
        ))}
        {wholeBrief ? (
          <>
            <Menu.Label mt="xs">{t('dielines.wholeBrief')}</Menu.Label>
            <Menu.Item component="a" href={wholeBrief} download data-testid={`${testId}-whole`}>
              {t('dielines.wholeBriefPdf')}
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
