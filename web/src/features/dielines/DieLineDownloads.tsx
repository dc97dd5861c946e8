import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const FORMATS = ['pdf', 'dxf', 'cf2'] as const;

/**
 * The die-line files of one element (docs/dielines.md): the PDF artwork template for the designer,
 * DXF and CF2 for the die-maker, and the imposition sheet in the same three formats. `base` is the
 * resource whose `/die-line` and `/imposition-sheet` answer them (a brief element, a quote line, an
 * article); `wholeBrief` adds the brief's one-PDF-for-every-element file. Plain links: the GETs are
 * authenticated by the session cookie and the server names the files.
 */
export function DieLineMenu({
  base,
  query = '',
  testId,
  label,
  wholeBrief,
}: {
  base: string;
  /** Appended to every link (e.g. `&version=2`). */
  query?: string;
  testId: string;
  /** The button's accessible name when several menus share a page. */
  label?: string;
  /** The whole-brief PDF's URL. */
  wholeBrief?: string;
}) {
  const { t } = useTranslation();
  const href = (kind: 'die-line' | 'imposition-sheet', format: (typeof FORMATS)[number]) =>
    `${base}/${kind}?format=${format}${query}`;
  return (
    // No focus placeholder: it is a role=presentation child, which a role=menu may not hold (axe).
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
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

/** The die-line files of a brief element (the current version, or `version`). */
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
  const query = version ? `&version=${version}` : '';
  return (
    <DieLineMenu
      base={`/api/briefs/${briefId}/elements/${position}`}
      query={query}
      testId={`die-line-downloads-${position}`}
      wholeBrief={`/api/briefs/${briefId}/die-lines?format=pdf${query}`}
    />
  );
}
