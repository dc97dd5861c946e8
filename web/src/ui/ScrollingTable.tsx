import { Table } from '@mantine/core';
import type { ComponentProps, ReactNode } from 'react';

/**
 * A table that may be wider than the screen (a phone): it scrolls sideways in a region of its own,
 * which takes the keyboard focus and is named after the table, so the keyboard scrolls it too
 * (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollingTable({
  minWidth,
  label,
  children,
}: {
  /** Below this width the table scrolls rather than squeezes its columns. */
  minWidth: number;
  /** The region's accessible name: the table's title. */
  label: string;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{
        viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } as ComponentProps<'div'>,
      }}
    >
      {children}
    </Table.ScrollContainer>
  );
}
