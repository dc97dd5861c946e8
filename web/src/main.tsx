import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './index.css';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError } from './api/client.ts';
import { i18nReady } from './i18n/index.ts';
import { router } from './router.tsx';
import { NotificationsOnDemand } from './ui/NotificationsOnDemand.tsx';
import { cssVariablesResolver, theme } from './ui/theme.ts';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) is an answer, not a glitch: only faults are retried.
      retry: (failures, error) => !(error instanceof ApiError && error.problem.status < 500) && failures < 2,
      staleTime: 10_000,
    },
  },
});

// Drawn once the user's language is loaded (a chunk of its own), so no screen shows message keys.
void i18nReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <NotificationsOnDemand position="top-right" />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
