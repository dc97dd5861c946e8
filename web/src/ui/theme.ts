import {
  type CSSVariablesResolver,
  createTheme,
  Modal,
  MultiSelect,
  Notification,
  Select,
} from '@mantine/core';

// Darker primary shades than Mantine's defaults, so text on filled buttons passes WCAG AA contrast.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // Issue 26: in a searchable select the first option matching what was typed is highlighted, so
    // Enter picks it (Mantine highlights nothing by default, and Enter then chose nothing).
    Select: Select.extend({
      defaultProps: { clearButtonProps: { 'aria-label': 'Clear' }, selectFirstOptionOnChange: true },
    }),
    MultiSelect: MultiSelect.extend({
      defaultProps: { clearButtonProps: { 'aria-label': 'Clear' }, selectFirstOptionOnChange: true },
    }),
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
