import createClient, { type Middleware } from 'openapi-fetch';
import { auth, csrfToken, type Me, type SessionTimes } from './auth.ts';
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

type SessionAnswer = { token: string; expiresInSeconds: number; sessionExpiresInSeconds: number };

/** The session times of a sign-in or refresh answer, in this browser's clock. */
function sessionTimes(answer: SessionAnswer): SessionTimes {
  const now = Date.now();
  return {
    accessExpiresAt: now + answer.expiresInSeconds * 1000,
    accessLifetime: answer.expiresInSeconds * 1000,
    sessionExpiresAt: now + answer.sessionExpiresInSeconds * 1000,
    sessionLifetime: answer.sessionExpiresInSeconds * 1000,
    refreshedAt: now,
  };
}

/** Signed out, with the reason the sign-in page explains (a problem code). */
export function signedOut(reason?: string) {
  auth.set(reason ? { status: 'signed-out', reason } : { status: 'signed-out' });
}

async function refreshOnce(): Promise<boolean> {
  const csrf = csrfToken();
  if (!csrf) return false;
  const response = await fetch('/api/session/refresh', {
    method: 'POST',
    headers: { 'x-csrf-token': csrf },
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as { code?: string };
    // A session that was signed in here and ends now: the sign-in page says why.
    if (auth.get().status === 'signed-in') signedOut(problem.code ?? 'session_expired');
    return false;
  }
  const answer = (await response.json()) as SessionAnswer;
  const current = auth.get();
  let me = current.me;
  if (!me || current.status !== 'signed-in') {
    const answered = await fetch('/api/users/me', { headers: { authorization: `Bearer ${answer.token}` } });
    if (!answered.ok) return false;
    me = (await answered.json()) as Me;
  }
  auth.set({ status: 'signed-in', token: answer.token, me, session: sessionTimes(answer) });
  return true;
}

/**
 * A new access token from the refresh cookie (page reload, expiring or expired token). Tabs of one
 * browser share the refresh cookie: a Web Lock makes them refresh one after the other, so each
 * sends the refresh token the previous one set (the service's reuse grace covers the rest).
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const locks = (navigator as Navigator & { locks?: LockManager }).locks;
      return locks ? await locks.request('pqs-session-refresh', refreshOnce) : await refreshOnce();
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
    if (auth.get().status !== 'signed-out') signedOut();
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
  const me = await unwrap(
    api.GET('/api/users/me', { headers: { authorization: `Bearer ${session.token}` } }),
  );
  auth.set({
    status: 'signed-in',
    token: session.token,
    me: me as unknown as Me,
    session: sessionTimes(session),
  });
}

/** A forgotten password: the link sent by e-mail (always answered alike), then the new password with its token. */
export const passwordReset = {
  request: (login: string) => unwrap(api.POST('/api/password-reset/request', { body: { login } })),
  complete: (token: string, password: string) =>
    unwrap(api.POST('/api/password-reset', { body: { token, password } })),
};

export async function signOut() {
  await fetch('/api/session', { method: 'DELETE', credentials: 'same-origin' }).catch(() => undefined);
  auth.set({ status: 'signed-out' });
}

/** Authenticated URL for a link or an iframe (PDFs, SVGs): the session cookie authenticates GETs. */
export const fileUrl = (path: string) => path;

/**
 * A multipart/form-data body for openapi-fetch: the typed fields in their order, then the file (the
 * services read the stream in order). openapi-typescript types a `format: binary` field as a string,
 * so the typed body carries the file's name there and the serializer sends the file itself; the
 * browser sets the boundary, and the call keeps the client's token refresh.
 */
export function multipart<Fields extends Record<string, string | number | boolean | undefined>>(
  fields: Fields,
  upload: { field: keyof Fields & string; file: File },
) {
  return {
    body: fields,
    bodySerializer: () => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields))
        if (name !== upload.field && value !== undefined) form.append(name, String(value));
      form.append(upload.field, upload.file, upload.file.name);
      return form;
    },
  };
}
