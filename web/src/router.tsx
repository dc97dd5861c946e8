import { createBrowserRouter, Navigate } from 'react-router';
import { useAuth } from './api/auth.ts';
import { loadSections, type Section } from './i18n/index.ts';
import { paths } from './paths.ts';
import { RequireAuth } from './ui/RequireAuth.tsx';

/** Where "/" leads: a buyer's portal home, staff's quotes. */
function Home() {
  const { me } = useAuth();
  return <Navigate to={me?.role === 'contact' ? paths.portal : paths.quotes} replace />;
}

/**
 * The app's routes, under /app (the API keeps every other path), declared from the paths table.
 * Each page is its own chunk, loaded when first visited, so the sign-in screen only loads the
 * shell (bench/web.ts measures it). A page names the message sections it uses beyond the common
 * ones (i18n/index.ts, SECTIONS): they are loaded with its code.
 */
const page =
  (load: () => Promise<{ default: React.ComponentType }>, sections: readonly Section[] = []) =>
  async () => {
    // The page's message sections (i18n/index.ts) load with its code: it is drawn with its words.
    const [module] = await Promise.all([load(), loadSections(sections)]);
    return { Component: module.default };
  };

export const router = createBrowserRouter(
  [
    { path: paths.signIn, lazy: page(() => import('./routes/sign-in/SignInPage.tsx')) },
    // A guest link's page: no account, the token is the credential.
    {
      path: paths.guest(':token'),
      lazy: page(() => import('./routes/guest/GuestQuotePage.tsx'), ['proofs']),
    },
    { path: paths.forgotPassword, lazy: page(() => import('./routes/sign-in/ForgotPasswordPage.tsx')) },
    { path: paths.resetPassword, lazy: page(() => import('./routes/sign-in/ResetPasswordPage.tsx')) },
    {
      element: <RequireAuth />,
      children: [
        {
          // The signed-in shell (menus, language, session warning) is a chunk of its own too:
          // the sign-in screen does not load it.
          lazy: async () => ({ Component: (await import('./ui/AppLayout.tsx')).AppLayout }),
          children: [
            { index: true, element: <Home /> },
            { path: paths.portal, lazy: page(() => import('./routes/portal/PortalHome.tsx')) },
            { path: paths.briefs(), lazy: page(() => import('./routes/briefs/BriefsPage.tsx')) },
            { path: paths.newBrief(), lazy: page(() => import('./routes/briefs/BriefEditorPage.tsx')) },
            { path: paths.brief(':id'), lazy: page(() => import('./routes/briefs/BriefEditorPage.tsx')) },
            {
              path: paths.briefVersions(':id'),
              lazy: page(() => import('./routes/briefs/BriefVersionsPage.tsx')),
            },
            {
              path: paths.briefVersion(':id', ':version'),
              lazy: page(() => import('./routes/briefs/BriefVersionPage.tsx')),
            },
            { path: paths.companies, lazy: page(() => import('./routes/companies/CompaniesPage.tsx')) },
            { path: paths.company(':id'), lazy: page(() => import('./routes/companies/CompanyPage.tsx')) },
            { path: paths.contacts(), lazy: page(() => import('./routes/contacts/ContactsPage.tsx')) },
            { path: paths.quotes, lazy: page(() => import('./routes/quotes/QuotesPage.tsx')) },
            { path: paths.newQuote(), lazy: page(() => import('./routes/quotes/NewQuotePage.tsx')) },
            {
              path: paths.quote(':id'),
              lazy: page(() => import('./routes/quotes/QuotePage.tsx'), ['proofs']),
            },
            { path: paths.orders, lazy: page(() => import('./routes/orders/OrdersPage.tsx')) },
            { path: paths.order(':id'), lazy: page(() => import('./routes/orders/OrderPage.tsx')) },
            { path: paths.articles, lazy: page(() => import('./routes/articles/ArticlesPage.tsx')) },
            { path: paths.article(':id'), lazy: page(() => import('./routes/articles/ArticlePage.tsx')) },
            { path: paths.adminUsers, lazy: page(() => import('./routes/admin/UsersPage.tsx'), ['admin']) },
            {
              path: paths.adminTokens(),
              lazy: page(() => import('./routes/admin/AccessTokensPage.tsx'), ['admin']),
            },
            {
              path: paths.adminSettings,
              lazy: page(() => import('./routes/admin/SettingsPage.tsx'), ['admin']),
            },
            {
              path: paths.adminOrganisation,
              lazy: page(() => import('./routes/admin/OrganisationPage.tsx'), ['admin']),
            },
            {
              path: paths.adminCatalogue,
              lazy: page(() => import('./routes/admin/CataloguePage.tsx'), ['admin']),
            },
            {
              path: paths.imports,
              lazy: page(() => import('./routes/imports/ImportsPage.tsx'), ['operations']),
            },
            {
              path: paths.import(':id'),
              lazy: page(() => import('./routes/imports/ImportPage.tsx'), ['operations']),
            },
            {
              path: paths.webhooks,
              lazy: page(() => import('./routes/webhooks/WebhooksPage.tsx'), ['operations']),
            },
            {
              path: paths.webhook(':id'),
              lazy: page(() => import('./routes/webhooks/WebhookPage.tsx'), ['operations']),
            },
            {
              path: paths.events,
              lazy: page(() => import('./routes/webhooks/EventsPage.tsx'), ['operations']),
            },
            { path: '*', lazy: page(() => import('./routes/NotFoundPage.tsx')) },
          ],
        },
      ],
    },
  ],
  { basename: '/app' },
);
