import { Paper, Title } from '@mantine/core';
import { Component, type ReactNode, Suspense, useId, useState } from 'react';
import { renewFailedLoads, retryableLazy } from './retryableLazy.tsx';

const loadModal = () => import('./DialogModal.tsx');
/** After a failed load, the next opening tries again. */
const LazyModal = retryableLazy(loadModal);

/** Fetches the dialog's code ahead of use (e.g. once a form has unsaved changes). */
export function preloadDialog() {
  void loadModal().catch(() => undefined);
}

type DialogProps = {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  'data-testid'?: string;
  children: ReactNode;
};

/**
 * A centred modal dialog of the signed-in frame (the session warning, the unsaved-changes
 * question), whose code (Mantine's Modal, focus trap, scroll lock: ~8 KB gzipped) is loaded when it
 * first opens, not with every page (issue 31). Once loaded it stays mounted, so it closes with its
 * transition. If its code cannot be loaded, the same title, text and buttons are shown in a plain
 * box (ChunkFallback): the question is still asked and answered.
 */
export function Dialog(props: DialogProps) {
  const [used, setUsed] = useState(props.opened);
  if (props.opened && !used) setUsed(true);
  if (!used) return null;
  return (
    <DialogBoundary dialog={props}>
      {/* While the code loads (it is usually fetched ahead), nothing is shown yet. */}
      <Suspense fallback={null}>
        <LazyModal
          opened={props.opened}
          onClose={props.onClose}
          title={props.title}
          centered
          data-testid={props['data-testid']}
        >
          {props.children}
        </LazyModal>
      </Suspense>
    </DialogBoundary>
  );
}

type BoundaryProps = { dialog: DialogProps; children: ReactNode };

class DialogBoundary extends Component<BoundaryProps, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidUpdate(previous: BoundaryProps) {
    // Opened again after a failed load: try the code again.
    if (this.state.failed && this.props.dialog.opened && !previous.dialog.opened) {
      renewFailedLoads();
      this.setState({ failed: false });
    }
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return this.props.dialog.opened ? <ChunkFallback {...this.props.dialog} /> : null;
  }
}

function ChunkFallback({ title, children, ...props }: DialogProps) {
  const titleId = useId();
  return (
    <Paper
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid={props['data-testid']}
      shadow="xl"
      withBorder
      p="md"
      pos="fixed"
      top="30%"
      left="50%"
      w={440}
      maw="calc(100vw - 32px)"
      style={{ transform: 'translateX(-50%)', zIndex: 300 }}
    >
      <Title order={2} size="h4" mb="sm" id={titleId}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}
