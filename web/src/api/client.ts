import createClient, { type Middleware } from 'openapi-fetch';
import { auth, csrfToken, type Me } from './auth.ts';
import type { paths } from './schema.d.ts';

/** The API client: typed from docs/openapi.json (`npm run web:api-types`), bearer token from memory. */
export const api = createClient<paths>({ baseUrl: '' });

export type Problem = {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  code?: string;
  /** Validation issues; schema issues add the rule's `keyword` and `params` (docs/errors.md). */
  errors?: {
    pointer: string;
    message: string;
    in?: string;
    keyword?: string;
    params?: Record<string, unknown>;
  }[];
};

/** A refused call: the API's problem+json, so screens show its reason and its field pointers. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail || problem.title || `HTTP ${problem.status}`);
  }
  /**
   * The API's English field messages keyed by JSON pointer: which fields were refused. Screens show
   * the translated sentences of ui/problem.ts (problemFields), never these texts.
   */
  get fields(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.issues) out[e.pointer] = e.message;
    return out;
  }
  /** The first issue of each pointer, with its rule (keyword, params) when the API sent it. */
  get issues(): NonNullable<Problem['errors']> {
    const seen = new Set<string>();
    return (this.problem.errors ?? []).filter((e) => !seen.has(e.pointer) && seen.add(e.pointer));
  }
}

let refreshing: Promise<boolean> | undefined;

/** A new bearer token from the session cookie (page reload, expired token). */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const csrf = csrfToken();
      if (!csrf) return false;
      const response = await fetch('/api/session/refresh', {
        method: 'POST',
        headers: { 'x-csrf-token': csrf },
        credentials: 'same-origin',
      });
      if (!response.ok) return false;
      const { token } = (await response.json()) as { token: string };
      const me = await fetch('/api/users/me', { headers: { authorization: `Bearer ${token}` } });
      if (!me.ok) return false;
      auth.set({ status: 'signed-in', token, me: (await me.json()) as Me });
      return true;
    } catch {
      return false;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

const bearer: Middleware = {
  onRequest({ request }) {
    const { token } = auth.get();
    if (token && !request.headers.has('authorization'))
      request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status !== 401 || request.url.includes('/api/session')) return response;
    // The token expired: one refresh from the cookie, then the call again; else signed out.
    if (await refreshSession()) {
      const retry = new Request(request, { headers: new Headers(request.headers) });
      retry.headers.set('authorization', `Bearer ${auth.get().token}`);
      return fetch(retry);
    }
    auth.set({ status: 'signed-out' });
    return response;
  },
};
api.use(bearer);

/** The data of an openapi-fetch answer, or an ApiError with the API's problem. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const problem = (error && typeof error === 'object' ? error : {}) as Problem;
    throw new ApiError({ ...problem, status: response.status });
  }
  return data as NonNullable<T>;
}

export async function signIn(username: string, password: string) {
  const session = await unwrap(api.POST('/api/session', { body: { username, password } }));
  auth.set({ status: 'signed-in', token: session.token });
  const me = await unwrap(api.GET('/api/users/me'));
  auth.set({ status: 'signed-in', token: session.token, me: me as unknown as Me });
}

export async function signOut() {
  await fetch('/api/session', { method: 'DELETE', credentials: 'same-origin' }).catch(() => undefined);
  auth.set({ status: 'signed-out' });
}

/** Authenticated URL for a link or an iframe (PDFs, SVGs): the session cookie authenticates GETs. */
export const fileUrl = (path: string) => path;
