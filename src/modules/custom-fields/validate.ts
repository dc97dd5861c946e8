import type { Executor } from '../../db/client.ts';
import type { CustomFieldEntity } from '../../db/schema/organisation-data.ts';
import { AppError, type ProblemIssue } from '../../platform/errors.ts';
import { type CustomFieldDefinition, liveDefinitions } from './repository.ts';

// Other modules read definitions through the validator they pair with.
export { type CustomFieldDefinition, liveDefinitions };

export type CustomFieldValues = Record<string, unknown>;

/** Longest accepted string value (the request schema no longer bounds values, see schemas.ts). */
export const MAX_CUSTOM_FIELD_STRING = 10_000;

/** RFC 6901 escaping of one JSON pointer segment. */
const segment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

export function issueFor(definition: CustomFieldDefinition, value: unknown): string | undefined {
  if (value === null) return definition.required ? 'is required' : undefined;
  switch (definition.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (value.length > MAX_CUSTOM_FIELD_STRING)
        return `must have at most ${MAX_CUSTOM_FIELD_STRING} characters`;
      return definition.required && value.trim() === '' ? 'is required' : undefined;
    case 'select': {
      if (typeof value !== 'string') return 'must be one option (a string)';
      const options = definition.options ?? [];
      return options.includes(value) ? undefined : `must be one of: ${options.join(', ')}`;
    }
    case 'multi-select': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        return 'must be an array of options';
      const options = definition.options ?? [];
      const unknown = (value as string[]).filter((v) => !options.includes(v));
      if (unknown.length) return `has unknown options: ${unknown.join(', ')}; allowed: ${options.join(', ')}`;
      if (new Set(value).size !== value.length) return 'must not repeat an option';
      return definition.required && value.length === 0 ? 'is required' : undefined;
    }
    default:
      return 'has an unknown field type';
  }
}

/**
 * Checks custom field values against the organisation's definitions for the entity and returns
 * the values to store: `current` merged with `incoming` (a key set to null is removed).
 * Unknown keys, wrong types and unknown options answer 400 with a pointer to the field.
 * Required fields are enforced on create (when `current` is undefined) and whenever sent as null
 * (or, for a required string or multi-select, as an empty string or empty array).
 * A null for a key that has no live definition but a stored value removes that stale value (left
 * behind by a deleted definition); any other value for an unknown key is refused.
 */
export async function validateCustomFields(
  db: Executor,
  organisationId: string,
  entity: CustomFieldEntity,
  incoming: CustomFieldValues | undefined,
  current?: CustomFieldValues,
  pointer = '/customFields',
): Promise<CustomFieldValues> {
  const isCreate = current === undefined;
  if (!incoming && !isCreate) return current;
  const byKey = await liveDefinitions(db, organisationId, entity);
  const issues: ProblemIssue[] = [];
  const keysWithIssues = new Set<string>();
  const refuse = (key: string, message: string) => {
    keysWithIssues.add(key);
    issues.push({ pointer: `${pointer}/${segment(key)}`, message, in: 'body' });
  };
  // Own properties only: a key such as "constructor" must not find Object.prototype members.
  const result: CustomFieldValues = Object.assign(Object.create(null), current ?? {});
  for (const [key, value] of Object.entries(incoming ?? {})) {
    const definition = byKey.get(key);
    if (!definition) {
      if (value === null && Object.hasOwn(result, key)) delete result[key];
      else refuse(key, `is not a custom field of ${entity}`);
      continue;
    }
    const message = issueFor(definition, value);
    if (message) refuse(key, message);
    else if (value === null) delete result[key];
    else result[key] = value;
  }
  if (isCreate) {
    for (const definition of byKey.values()) {
      if (
        definition.required &&
        !Object.hasOwn(result, definition.key) &&
        !keysWithIssues.has(definition.key)
      ) {
        refuse(definition.key, 'is required');
      }
    }
  }
  if (issues.length)
    throw new AppError('invalid_custom_fields', 'Some custom field values are not valid', { issues });
  return { ...result };
}
