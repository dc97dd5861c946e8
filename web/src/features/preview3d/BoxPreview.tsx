import { Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { FoldedBoxProps } from './FoldedBox.tsx';

/** three.js and the folded box: a chunk of its own, loaded only where a 3D preview is shown. */
const FoldedBox = lazy(() => import('./FoldedBox.tsx'));

/** The 3D folded preview of a die-line (issue 29); the chunk loads when it is first shown. */
export function BoxPreview(props: FoldedBoxProps) {
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <FoldedBox {...props} />
    </Suspense>
  );
}
