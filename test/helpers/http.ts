import { auth, type Credentials, type TestApp } from './app.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in tests
export type Json = Record<string, any>;

/** `call(who, method, url, payload?)` against the test app; `who` undefined sends no credential. */
export const caller =
  (app: () => TestApp) => (who: Credentials | undefined, method: string, url: string, payload?: unknown) =>
    app().app.inject({
      method: method as 'GET',
      url,
      headers: who ? auth(who) : {},
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });

/** The body of a 201 answer; anything else fails the test with the status and body. */
export async function created(response: { statusCode: number; body: string; json(): Json }) {
  if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json();
}
