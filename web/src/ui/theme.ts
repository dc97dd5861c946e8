import { type CSSVariablesResolver, createTheme, type MantineThemeComponent } from '@mantine/core';

/**
 * Default props as plain theme objects, not `Modal.extend(...)`: `extend` would import each
 * component (Modal, Select, MultiSelect and their Combobox, ScrollArea, Popover) into the entry
 * chunk, which the sign-in screen loads (bench/web.ts, budget 250 KB gzipped).
 */
const closeLabel: MantineThemeComponent = { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } };
// Issue 26: in a searchable select the first option matching what was typed is highlighted, so
// Enter picks it (Mantine highlights nothing by default, and Enter then chose nothing).
const searchableSelect: MantineThemeComponent = {
  defaultProps: { clearButtonProps: { 'aria-label': 'Clear' }, selectFirstOptionOnChange: true },
};

// Darker primary shades than Mantine's defaults, so text on filled buttons passes WCAG AA contrast.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
  components: {
    Modal: closeLabel,
    Notification: closeLabel,
    Select: searchableSelect,
    MultiSelect: searchableSelect,
  },
});

/** Mantine's dimmed text (gray 6) is below WCAG AA contrast on white: one shade darker. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    // Field errors (red 6 on white is 3.3:1): red 9 passes AA for their small text.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
