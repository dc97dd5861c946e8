import { Button, Group, Text } from '@mantine/core';
import { Component, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { renewFailedLoads, retryableLazy } from '../../ui/retryableLazy.tsx';

export type DieLineMenuProps = {
  base: string;
  /** Appended to every link (e.g. `&version=2`). */
  query?: string;
  testId: string;
  /** The button's accessible name when several menus share a page. */
  label?: string;
  /** The whole-brief PDF's URL. */
  wholeBrief?: string;
};

const loadMenu = () => import('./DownloadMenu.tsx');
/** After a failed load, the next click tries again. */
const LazyMenu = retryableLazy(loadMenu);
const preload = () => void loadMenu().catch(() => undefined);

/**
 * The die-line files of one element (docs/dielines.md): the PDF artwork template for the designer,
 * DXF and CF2 for the die-maker, and the imposition sheet in the same three formats. `base` is the
 * resource whose `/die-line` and `/imposition-sheet` answer them (a brief element, a quote line, an
 * article); `wholeBrief` adds the brief's one-PDF-for-every-element file. Plain links: the GETs are
 * authenticated by the session cookie and the server names the files.
 *
 * The menu's code is loaded on use (issue 31): the button is drawn alone, its code is fetched when
 * the pointer or the focus reaches it, and the first click draws the menu open (the button shows
 * it is loading meanwhile). If the code cannot be loaded, the button says so and a click tries
 * again.
 */
export function DieLineMenu(props: DieLineMenuProps) {
  const [asked, setAsked] = useState(false);
  const [failed, setFailed] = useState(false);
  const button = (loading: boolean) => (
    <DownloadButton
      {...props}
      loading={loading}
      failed={failed}
      onAsk={() => {
        renewFailedLoads();
        setFailed(false);
        setAsked(true);
      }}
    />
  );
  if (!asked) return button(false);
  return (
    <MenuBoundary
      onFailed={() => {
        setAsked(false);
        setFailed(true);
      }}
    >
      <Suspense fallback={button(true)}>
        <LazyMenu {...props} />
      </Suspense>
    </MenuBoundary>
  );
}

function DownloadButton({
  testId,
  label,
  loading,
  failed,
  onAsk,
}: DieLineMenuProps & { loading: boolean; failed: boolean; onAsk: () => void }) {
  const { t } = useTranslation();
  const button = (
    <Button
      size="xs"
      variant="default"
      data-testid={testId}
      aria-label={label}
      aria-haspopup="menu"
      loading={loading}
      onPointerEnter={preload}
      onFocus={preload}
      onClick={onAsk}
    >
      {failed ? t('common.retry') : t('dielines.download')}
    </Button>
  );
  if (!failed) return button;
  return (
    <Group gap={6} wrap="nowrap" display="inline-flex">
      <Text size="xs" c="red.9" role="alert">
        {t('common.error')}
      </Text>
      {button}
    </Group>
  );
}

/** Turns a failed load of the menu's code back into the button (DieLineMenu shows the error). */
class MenuBoundary extends Component<{ onFailed: () => void; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch() {
    this.props.onFailed();
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
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
