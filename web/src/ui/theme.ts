import { createTheme } from '@mantine/core';

// Darker primary shades than Mantine's defaults, so text on filled buttons passes WCAG AA contrast.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
});
