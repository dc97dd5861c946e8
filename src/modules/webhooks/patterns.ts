/**
 * Subscription patterns: dot-separated segments starting with `event`; a segment is a name
 * (`orders`, `created`), `*` (exactly one segment) or `**` (one or more segments).
 *
 *   event.**               every event
 *   event.orders.*         every event of orders (created, updated, deleted)
 *   event.*.deleted        every deletion
 *   event.orders.created   one event name
 */
export const PATTERN = /^event(\.([a-z0-9_]+|\*\*?))+$/;
export const PATTERN_DESCRIPTION =
  '`event.` followed by dot-separated segments: a name ([a-z0-9_]), `*` (one segment) or `**` (one or more)';

export function isValidPattern(pattern: string): boolean {
  return pattern.length <= 200 && PATTERN.test(pattern);
}

function patternSource(pattern: string): string {
  return pattern
    .split('.')
    .map((segment) => (segment === '**' ? '.+' : segment === '*' ? '[^.]+' : segment))
    .join('\\.');
}

/**
 * One anchored regular expression for a webhook's patterns, in the subset of syntax that
 * JavaScript and PostgreSQL (`~`) read alike, so the dispatcher can match in SQL.
 */
export function compilePatterns(patterns: string[]): string {
  const unique = [...new Set(patterns)];
  return `^(${unique.map(patternSource).join('|')})$`;
}

export function matchesPatterns(patterns: string[], eventName: string): boolean {
  return new RegExp(compilePatterns(patterns)).test(eventName);
}
