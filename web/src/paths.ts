/**
 * The app's addresses, under the router's /app basename: the router declares its routes from this
 * table (a pattern is the same function given `:id`), and every link and navigation builds its
 * target here, so a renamed route cannot leave a dead link behind.
 */

/** A search string of the given parameters, the empty ones left out ("?a=1&b=2", or ""). */
function search(params: Record<string, string | null | undefined> = {}): string {
  const pairs = Object.entries(params).filter(
    (pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== null && pair[1] !== '',
  );
  return pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : '';
}

export const paths = {
  home: '/',
  signIn: '/sign-in',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  guest: (token: string) => `/guest/${token}`,
  portal: '/portal',
  briefs: (filters?: { companyId?: string; projectId?: string }) => `/briefs${search(filters)}`,
  newBrief: (from?: { companyId?: string }) => `/briefs/new${search(from)}`,
  brief: (id: string) => `/briefs/${id}`,
  briefVersions: (id: string) => `/briefs/${id}/versions`,
  briefVersion: (id: string, version: number | string) => `/briefs/${id}/versions/${version}`,
  companies: '/companies',
  company: (id: string) => `/companies/${id}`,
  contacts: (filters?: { search?: string }) => `/contacts${search(filters)}`,
  quotes: '/quotes',
  newQuote: (from?: { companyId?: string }) => `/quotes/new${search(from)}`,
  quote: (id: string) => `/quotes/${id}`,
  orders: '/orders',
  order: (id: string) => `/orders/${id}`,
  articles: '/articles',
  article: (id: string) => `/articles/${id}`,
  adminUsers: '/admin/users',
  adminTokens: (filters?: { userId?: string }) => `/admin/access-tokens${search(filters)}`,
  adminSettings: '/admin/settings',
  adminOrganisation: '/admin/organisation',
  adminCatalogue: '/admin/catalogue',
  imports: '/imports',
  import: (id: string) => `/imports/${id}`,
  webhooks: '/webhooks',
  webhook: (id: string) => `/webhooks/${id}`,
  events: '/events',
} as const;
