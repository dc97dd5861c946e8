import { Type } from '@sinclair/typebox';
import { DELIVERY_STATUSES, WEBHOOK_AUTH_TYPES, WEBHOOK_METHODS } from '../../db/schema/webhooks.ts';
import { DateTime, Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';
import { PATTERN_DESCRIPTION } from './patterns.ts';

const METHODS_ANY_CASE = [...WEBHOOK_METHODS, ...WEBHOOK_METHODS.map((m) => m.toUpperCase())] as string[];

export const WebhookMethodInput = StringEnum(METHODS_ANY_CASE, {
  description: 'HTTP method of the calls: get, post, patch, put or delete (default post)',
});
export const AuthTypeSchema = StringEnum(WEBHOOK_AUTH_TYPES, {
  description: 'none; basic (username, password); header (name, token)',
});

const EventPatterns = Type.Array(
  Type.String({ minLength: 1, maxLength: 200, description: PATTERN_DESCRIPTION }),
  {
    minItems: 1,
    maxItems: 100,
    description: 'Event patterns: `event.**` (all), `event.orders.*` (one entity), `event.orders.created`',
  },
);

export const CredentialsInput = Type.Object(
  {
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'basic' })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'basic' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'header: header name' })),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'header: header value' })),
  },
  { additionalProperties: false },
);

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'http or https address of the receiver; private and loopback addresses are refused',
});

export const CreateWebhookBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    url: Url,
    events: EventPatterns,
    authenticationType: Type.Optional(AuthTypeSchema),
    credentials: Type.Optional(Nullable(CredentialsInput)),
    httpMethod: Type.Optional(WebhookMethodInput),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    url: Type.Optional(Url),
    events: Type.Optional(EventPatterns),
    authenticationType: Type.Optional(AuthTypeSchema),
    credentials: Type.Optional(Nullable(CredentialsInput)),
    httpMethod: Type.Optional(WebhookMethodInput),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const WebhookSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    authenticationType: AuthTypeSchema,
    credentials: Nullable(
      Type.Object(
        {
          username: Type.Optional(Type.String()),
          password: Type.Optional(Type.String({ description: 'Always masked' })),
          name: Type.Optional(Type.String()),
          token: Type.Optional(Type.String({ description: 'Always masked' })),
        },
        { description: 'Secret parts are masked' },
      ),
    ),
    httpMethod: StringEnum(WEBHOOK_METHODS),
    enabled: Type.Boolean(),
    disabledReason: Nullable(
      Type.String({ description: '`gone` (410 received), `failing` (retries exhausted) or `manual`' }),
    ),
    disabledAt: Nullable(DateTime),
    previousSecretExpiresAt: Nullable(DateTime),
    lastSuccessAt: Nullable(DateTime),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Webhook' },
);

export const SecretField = Type.String({
  description: 'Standard Webhooks signing secret (`whsec_...`); shown only in this response',
});

export const DeliveryStatusSchema = StringEnum(DELIVERY_STATUSES);

export const DeliverySchema = Type.Object(
  {
    id: Uuid,
    webhookId: Uuid,
    eventId: Uuid,
    eventCode: Type.Integer(),
    eventName: Type.String(),
    status: DeliveryStatusSchema,
    attempts: Type.Integer({ description: 'Attempts started so far' }),
    nextAttemptAt: Nullable(DateTime),
    lastAttemptAt: Nullable(DateTime),
    lastStatusCode: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    completedAt: Nullable(DateTime),
    replayOf: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'WebhookDelivery' },
);

export const AttemptSchema = Type.Object(
  {
    id: Uuid,
    attempt: Type.Integer(),
    startedAt: DateTime,
    durationMs: Type.Integer(),
    statusCode: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    responseExcerpt: Nullable(Type.String({ description: 'First characters of the response body' })),
  },
  { $id: 'WebhookDeliveryAttempt' },
);
