import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const FORMATS = ['pdf', 'dxf', 'cf2'] as const;

/**
 * The die-line files of a brief element (docs/dielines.md): the PDF artwork template for the
 * designer, DXF and CF2 for the die-maker, and the imposition sheet in the same three formats.
 * Plain links: the GETs are authenticated by the session cookie and the server names the files.
 */
export function DieLineDownloads({
  briefId,
  position,
  version,
}: {
  briefId: string;
  position: number;
  /** A prediction version; the current one when absent. */
  version?: number;
}) {
  const { t } = useTranslation();
  const href = (kind: 'die-line' | 'imposition-sheet', format: (typeof FORMATS)[number]) =>
    `/api/briefs/${briefId}/elements/${position}/${kind}?format=${format}${version ? `&version=${version}` : ''}`;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" data-testid={`die-line-downloads-${position}`}>
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
      </Menu.Dropdown>
    </Menu>
  );
}
