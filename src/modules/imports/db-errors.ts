/** The SQLSTATE of a database error, also when wrapped (Drizzle wraps driver errors in `cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * What went wrong, without the statement and its parameters that Drizzle puts in its own message
 * (a batch's parameters are the whole batch): the database's message when there is one.
 */
export function messageOf(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && e instanceof Error) return e.message;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith('Failed query:') ? 'a database statement failed' : message.slice(0, 1000);
}

/** Errors of the database or the network rather than of the client's request. */
export const isInfrastructureError = (error: unknown) =>
  sqlState(error) !== undefined ||
  (error instanceof Error &&
    (error.name === 'DrizzleQueryError' || /^E[A-Z]+$/.test(String((error as { code?: unknown }).code))));
