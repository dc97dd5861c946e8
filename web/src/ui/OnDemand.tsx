import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { Component, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { renewFailedLoads } from './retryableLazy.tsx';

const boundaries = new Set<ChunkBoundary>();

/** "Retry" in any failed part: every failed part loads again (a lost network usually failed all). */
function retryFailedParts() {
  renewFailedLoads();
  for (const boundary of boundaries) if (boundary.state.failed) boundary.setState({ failed: false });
}

/**
 * A part of a page whose code is a chunk of its own (retryableLazy), loaded when the part is first
 * shown: while it loads, a box of the part's height says so (the page does not jump when it
 * arrives); if the chunk cannot be loaded (network, a deployment replaced it), the box says so and
 * offers to try again, instead of the route's error screen taking the whole page.
 */
export function OnDemand({
  height,
  testId,
  children,
}: {
  /** The part's usual height, kept by the loading and error states. */
  height: number;
  /** data-testid of the loading state. */
  testId?: string;
  children: ReactNode;
}) {
  return (
    <ChunkBoundary height={height}>
      <Suspense fallback={<Pending height={height} testId={testId} />}>{children}</Suspense>
    </ChunkBoundary>
  );
}

function Pending({ height, testId }: { height: number; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Center mih={height} aria-busy="true" aria-live="polite" data-testid={testId}>
      <Stack align="center" gap={4}>
        <Loader size="sm" aria-hidden />
        <Text size="xs" c="dimmed">
          {t('common.loading')}
        </Text>
      </Stack>
    </Center>
  );
}

function Failed({ height, onRetry }: { height: number; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Center mih={height} role="alert">
      <Stack align="center" gap={4}>
        <Text size="sm">{t('common.error')}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Center>
  );
}

class ChunkBoundary extends Component<{ height: number; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidMount() {
    boundaries.add(this);
  }
  componentWillUnmount() {
    boundaries.delete(this);
  }
  render() {
    if (this.state.failed) return <Failed height={this.props.height} onRetry={retryFailedParts} />;
    return this.props.children;
  }
}
