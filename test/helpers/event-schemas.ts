import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

type Json = Record<string, unknown>;
type OpenApi = { components: { schemas: Record<string, unknown> }; webhooks?: Record<string, Json> };

/**
 * Checks delivered events against the OpenAPI document's `webhooks` section: the body of the
 * entity's webhook (the delivered envelope, `entity` typed by the entity's component).
 * Answers the problems of one delivered body (empty when it matches).
 */
export function eventChecker(document: OpenApi) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (formats as unknown as { default: (ajv: Ajv2020) => void }).default(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (body: { event?: { entity?: string } }): string[] => {
    const entity = body.event?.entity ?? '';
    const hook = document.webhooks?.[entity] as
      | { post: { requestBody: { content: { 'application/json': { schema: Json } } } } }
      | undefined;
    if (!hook) return [`${entity}: no webhook in the document`];
    let validate = compiled.get(entity);
    if (!validate) {
      // The document's `#/components/...` references, resolved in the registered components.
      const schema = JSON.parse(
        JSON.stringify(hook.post.requestBody.content['application/json'].schema).replaceAll(
          '"#/components/',
          '"openapi#/components/',
        ),
      );
      validate = ajv.compile(schema);
      compiled.set(entity, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e: { instancePath: string; message?: string }) => `${entity} ${e.instancePath} ${e.message}`,
    );
  };
}
