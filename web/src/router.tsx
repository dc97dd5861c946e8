import { createBrowserRouter, Navigate } from 'react-router';
import { useAuth } from './api/auth.ts';
import { RequireAuth } from './ui/RequireAuth.tsx';

/**
 * The app's routes, under /app (the API keeps every other path). Each page is its own chunk,
 * loaded when first visited, so the sign-in screen only loads the shell (bench/web.ts measures it).
 */
export const paths = {
  signIn: '/sign-in',
  portal: '/portal',
  guest: (token: string) => `/guest/${token}`,
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  briefs: '/briefs',
  newBrief: '/briefs/new',
  brief: (id: string) => `/briefs/${id}`,
  briefVersions: (id: string) => `/briefs/${id}/versions`,
  briefVersion: (id: string, version: number) => `/briefs/${id}/versions/${version}`,
  companies: '/companies',
  company: (id: string) => `/companies/${id}`,
  contacts: '/contacts',
  quotes: '/quotes',
  newQuote: '/quotes/new',
  quote: (id: string) => `/quotes/${id}`,
  orders: '/orders',
  order: (id: string) => `/orders/${id}`,
  articles: '/articles',
  article: (id: string) => `/articles/${id}`,
  adminUsers: '/admin/users',
  adminTokens: '/admin/access-tokens',
  adminSettings: '/admin/settings',
  adminOrganisation: '/admin/organisation',
  adminCatalogue: '/admin/catalogue',
  imports: '/imports',
  import: (id: string) => `/imports/${id}`,
  webhooks: '/webhooks',
  webhook: (id: string) => `/webhooks/${id}`,
  events: '/events',
};

/** Where "/" leads: a buyer's portal home, staff's quotes. */
function Home() {
  const { me } = useAuth();
  return <Navigate to={me?.role === 'contact' ? '/portal' : '/quotes'} replace />;
}

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const router = createBrowserRouter(
  [
    { path: '/sign-in', lazy: page(() => import('./routes/sign-in/SignInPage.tsx')) },
    // A guest link's page: no account, the token is the credential.
    { path: '/guest/:token', lazy: page(() => import('./routes/guest/GuestQuotePage.tsx')) },
    { path: '/forgot-password', lazy: page(() => import('./routes/sign-in/ForgotPasswordPage.tsx')) },
    { path: '/reset-password', lazy: page(() => import('./routes/sign-in/ResetPasswordPage.tsx')) },
    {
      element: <RequireAuth />,
      children: [
        {
          // The signed-in shell (menus, language, session warning) is a chunk of its own too:
          // the sign-in screen does not load it.
          lazy: async () => ({ Component: (await import('./ui/AppLayout.tsx')).AppLayout }),
          children: [
            { index: true, element: <Home /> },
            { path: 'portal', lazy: page(() => import('./routes/portal/PortalHome.tsx')) },
            { path: 'briefs', lazy: page(() => import('./routes/briefs/BriefsPage.tsx')) },
            { path: 'briefs/new', lazy: page(() => import('./routes/briefs/BriefEditorPage.tsx')) },
            { path: 'briefs/:id', lazy: page(() => import('./routes/briefs/BriefEditorPage.tsx')) },
            {
              path: 'briefs/:id/versions',
              lazy: page(() => import('./routes/briefs/BriefVersionsPage.tsx')),
            },
            {
              path: 'briefs/:id/versions/:version',
              lazy: page(() => import('./routes/briefs/BriefVersionPage.tsx')),
            },
            { path: 'companies', lazy: page(() => import('./routes/companies/CompaniesPage.tsx')) },
            { path: 'companies/:id', lazy: page(() => import('./routes/companies/CompanyPage.tsx')) },
            { path: 'contacts', lazy: page(() => import('./routes/contacts/ContactsPage.tsx')) },
            { path: 'quotes', lazy: page(() => import('./routes/quotes/QuotesPage.tsx')) },
            { path: 'quotes/new', lazy: page(() => import('./routes/quotes/NewQuotePage.tsx')) },
            { path: 'quotes/:id', lazy: page(() => import('./routes/quotes/QuotePage.tsx')) },
            { path: 'orders', lazy: page(() => import('./routes/orders/OrdersPage.tsx')) },
            { path: 'orders/:id', lazy: page(() => import('./routes/orders/OrderPage.tsx')) },
            { path: 'articles', lazy: page(() => import('./routes/articles/ArticlesPage.tsx')) },
            { path: 'articles/:id', lazy: page(() => import('./routes/articles/ArticlePage.tsx')) },
            { path: 'admin/users', lazy: page(() => import('./routes/admin/UsersPage.tsx')) },
            { path: 'admin/access-tokens', lazy: page(() => import('./routes/admin/AccessTokensPage.tsx')) },
            { path: 'admin/settings', lazy: page(() => import('./routes/admin/SettingsPage.tsx')) },
            { path: 'admin/organisation', lazy: page(() => import('./routes/admin/OrganisationPage.tsx')) },
            { path: 'admin/catalogue', lazy: page(() => import('./routes/admin/CataloguePage.tsx')) },
            { path: 'imports', lazy: page(() => import('./routes/imports/ImportsPage.tsx')) },
            { path: 'imports/:id', lazy: page(() => import('./routes/imports/ImportPage.tsx')) },
            { path: 'webhooks', lazy: page(() => import('./routes/webhooks/WebhooksPage.tsx')) },
            { path: 'webhooks/:id', lazy: page(() => import('./routes/webhooks/WebhookPage.tsx')) },
            { path: 'events', lazy: page(() => import('./routes/webhooks/EventsPage.tsx')) },
            { path: '*', lazy: page(() => import('./routes/NotFoundPage.tsx')) },
          ],
        },
      ],
    },
  ],
  { basename: '/app' },
);
