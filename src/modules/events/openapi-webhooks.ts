import type { TSchema } from '@sinclair/typebox';
import type { Registry } from '../../platform/registry.ts';

/**
 * The OpenAPI 3.1 `webhooks` section: one webhook per entity whose events deliver a declared
 * payload (`ctx.registry.entityPayload`, platform/registry.ts), its request body the delivered document with
 * `entity` typed by the entity's schema (a component: the GET answer's own when it is the same
 * schema, else `<Name>EventEntity`). Webhooks send a `post` by default (a webhook may choose
 * `put` or `patch`; the body is the same).
 */

type Json = Record<string, unknown>;
type Document = { components?: { schemas?: Record<string, unknown> }; webhooks?: Record<string, unknown> };

const COMPONENTS = '#/components/schemas/';

/** `ORDER_ITEM` -> `OrderItem`. */
const pascal = (name: string) =>
  name
    .toLowerCase()
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** A TypeBox schema as a component: no `$id`, TypeBox refs (`$ref: "Name"`) as component refs. */
function asComponent(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asComponent);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id') continue;
    out[key] =
      key === '$ref' && typeof value === 'string' && !value.startsWith('#')
        ? `${COMPONENTS}${value}`
        : asComponent(value);
  }
  return out;
}

/** The component name of an entity's payload schema (added to the document when missing). */
export const payloadComponentName = (entity: string, schema: TSchema) =>
  schema.$id ?? `${pascal(entity)}EventEntity`;

export function withEntityWebhooks<T extends object>(
  document: T,
  registry: Pick<Registry, 'entityPayloads'>,
): T {
  const doc = document as Document;
  doc.components ??= {};
  doc.components.schemas ??= {};
  const schemas = doc.components.schemas;
  const webhooks: Record<string, unknown> = {};
  for (const [entity, payload] of [...registry.entityPayloads()].sort(([a], [b]) => a.localeCompare(b))) {
    const name = payloadComponentName(entity, payload.schema);
    schemas[name] ??= asComponent(payload.schema);
    for (const ref of payload.refs ?? []) schemas[ref.$id!] ??= asComponent(ref);
    webhooks[entity] = {
      post: {
        operationId: `on${pascal(entity)}Event`,
        security: [],
        summary: `An event of a ${entity.toLowerCase().replaceAll('_', ' ')}`,
        description:
          `Sent to the webhooks whose patterns match the event's name (e.g. \`event.<plural>.created\`): ` +
          `\`entity\` is the ${entity} as its GET answer shows it to staff (docs/webhooks.md, "Entity payloads"); ` +
          'null when the change recorded none. Signed with the Standard Webhooks headers.',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: `${COMPONENTS}Event` },
                  {
                    type: 'object',
                    properties: {
                      event: { type: 'object', properties: { entity: { type: 'string', enum: [entity] } } },
                      entity: { anyOf: [{ $ref: `${COMPONENTS}${name}` }, { type: 'null' }] },
                    },
                  },
                ],
              },
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx answer acknowledges the delivery; others are retried' },
        },
      },
    };
  }
  doc.webhooks = { ...(doc.webhooks ?? {}), ...webhooks };
  return document;
}
