import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { WebhookAuthType, WebhookCredentials, WebhookMethod } from '../../db/schema/webhooks.ts';
import type { Actor } from '../../platform/actor.ts';
import type { ErrorCode } from '../../platform/error-codes.ts';
import { AppError, badRequest, type ProblemIssue } from '../../platform/errors.ts';
import type { ChangeActor, EventRecorder } from '../../platform/events.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import type { Registry } from '../../platform/registry.ts';
import { createSecretBox } from '../../platform/secret-box.ts';
import { createWebhookDeliveries } from './deliveries.ts';
import { compilePatterns, isValidPattern, PATTERN_DESCRIPTION } from './patterns.ts';
import {
  type CredentialsInput,
  cancelPendingDeliveries,
  findLiveWebhook,
  insertWebhook,
  listWebhooks,
  liveWebhook,
  lockEnabledWebhook,
  organisationAdminEmails,
  publicWebhook,
  snapshotOf,
  softDeleteWebhook,
  updateWebhook,
  WEBHOOK_ENTITY,
  WEBHOOK_PAGE,
  type WebhookInsert,
  type WebhookRow,
} from './repository.ts';
import { newWebhookSecret } from './signing.ts';
import { BlockedTargetError, type TargetPolicy } from './ssrf.ts';

export type WebhookInput = {
  name: string;
  url: string;
  events: string[];
  authenticationType?: WebhookAuthType;
  credentials?: CredentialsInput | null;
  httpMethod?: string;
  enabled?: boolean;
};

/** Headers a webhook's own header credential may not set: they belong to HTTP or to the signature. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'user-agent',
]);
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** Any control character (C0 or DEL), which would let a value split or forge header lines. */
const hasControl = (value: string) =>
  [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

function invalid(pointer: string, message: string, code: ErrorCode = 'validation_failed') {
  return new AppError(code, `${pointer.slice(1)} ${message}`, { issues: [{ pointer, message, in: 'body' }] });
}

function normaliseCredentials(
  type: WebhookAuthType,
  credentials: CredentialsInput | null | undefined,
): WebhookCredentials | null {
  const given = credentials ?? {};
  const keys = Object.keys(given);
  const only = (allowed: string[]) => {
    const extra = keys.find((key) => !allowed.includes(key));
    if (extra) throw invalid(`/credentials/${extra}`, `is not used by authenticationType ${type}`);
  };
  if (type === 'none') {
    only([]);
    return null;
  }
  if (type === 'basic') {
    only(['username', 'password']);
    if (!given.username) throw invalid('/credentials/username', 'is required for basic authentication');
    if (!given.password) throw invalid('/credentials/password', 'is required for basic authentication');
    if (given.username.includes(':') || hasControl(given.username))
      throw invalid('/credentials/username', 'may not contain ":" or control characters');
    if (hasControl(given.password))
      throw invalid('/credentials/password', 'may not contain control characters');
    return { username: given.username, password: given.password };
  }
  only(['name', 'token']);
  if (!given.name) throw invalid('/credentials/name', 'is required for header authentication');
  if (!given.token) throw invalid('/credentials/token', 'is required for header authentication');
  const lower = given.name.toLowerCase();
  if (!HEADER_NAME.test(given.name)) throw invalid('/credentials/name', 'is not a valid HTTP header name');
  if (RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-'))
    throw invalid('/credentials/name', `may not be ${given.name}: the service sets that header itself`);
  if (hasControl(given.token)) throw invalid('/credentials/token', 'may not contain control characters');
  return { name: given.name, token: given.token };
}

function validatePatterns(patterns: string[]) {
  const issues: ProblemIssue[] = patterns
    .map((pattern, index) => ({ pattern, index }))
    .filter(({ pattern }) => !isValidPattern(pattern))
    .map(({ index }) => ({
      pointer: `/events/${index}`,
      message: `must be ${PATTERN_DESCRIPTION}`,
      in: 'body',
    }));
  if (issues.length) throw badRequest('events holds invalid patterns', issues);
  return [...new Set(patterns)];
}

export { WEBHOOK_PAGE } from './repository.ts';

export type WebhookServiceDeps = {
  ctx: Pick<AppContext, 'db' | 'change' | 'config' | 'log'>;
  policy: TargetPolicy;
  mailer: Mailer;
  /** Tells this process's delivery worker that a delivery is waiting (no-op without workers). */
  wake: () => void;
};

/**
 * The webhooks of an organisation: create, list, update, delete, rotate the signing secret, and
 * the system's own disabling (with an e-mail to the admins); the deliveries' views, replay and
 * test event come from deliveries.ts, in the same service.
 */
export function createWebhookService({ ctx, policy, mailer, wake }: WebhookServiceDeps) {
  const { db } = ctx;
  // The signing secret and the password or token sent to receivers are stored sealed
  // (platform/secret-box.ts); the header name and the user name stay readable for the masked view.
  const box = createSecretBox(ctx.config.encryptionKey);
  const seal = (credentials: WebhookCredentials | null): WebhookCredentials | null => {
    if (credentials && 'password' in credentials)
      return { username: String(credentials.username), password: box.seal(String(credentials.password)) };
    if (credentials && 'token' in credentials)
      return { name: String(credentials.name), token: box.seal(String(credentials.token)) };
    return credentials;
  };

  async function checkUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalid('/url', 'is not a valid URL', 'invalid_url');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw invalid('/url', 'must be an http or https address', 'invalid_url');
    if (url.username || url.password)
      throw invalid('/url', 'may not carry credentials: use authenticationType basic', 'invalid_url');
    if (url.hash) throw invalid('/url', 'may not have a fragment', 'invalid_url');
    try {
      await policy.check(url);
    } catch (error) {
      if (error instanceof BlockedTargetError) throw invalid('/url', error.message, 'url_not_allowed');
      throw error;
    }
    return url.toString();
  }

  async function applyUpdate(tx: Tx, record: EventRecorder, before: WebhookRow, set: Partial<WebhookInsert>) {
    const after = await updateWebhook(tx, before.id, set);
    const changed = Object.keys(set).filter(
      (key) =>
        JSON.stringify(before[key as keyof WebhookRow]) !== JSON.stringify(set[key as keyof typeof set]),
    );
    if (before.enabled && !after.enabled) await cancelPendingDeliveries(tx, before.id, 'webhook disabled');
    await record({
      on: WEBHOOK_ENTITY,
      type: 'UPDATE',
      entityId: before.id,
      snapshot: snapshotOf(after),
      updatedColumns: changed.filter((key) => !['eventsRegex', 'secret', 'previousSecret'].includes(key)),
    });
    return after;
  }

  const service = {
    ...createWebhookDeliveries({ db, change: ctx.change, wake }),

    async create(actor: Actor, input: WebhookInput) {
      const patterns = validatePatterns(input.events);
      const url = await checkUrl(input.url);
      const authenticationType = input.authenticationType ?? 'none';
      const credentials = normaliseCredentials(authenticationType, input.credentials);
      const secret = newWebhookSecret();
      const row = await ctx.change(actor, async (tx, record) => {
        const created = await insertWebhook(tx, {
          organisationId: actor.organisationId,
          name: input.name.trim(),
          url,
          events: patterns,
          eventsRegex: compilePatterns(patterns),
          authenticationType,
          credentials: seal(credentials),
          httpMethod: (input.httpMethod ?? 'post').toLowerCase() as WebhookMethod,
          enabled: input.enabled ?? true,
          disabledReason: input.enabled === false ? 'manual' : null,
          disabledAt: input.enabled === false ? new Date() : null,
          secret: box.seal(secret),
          createdById: actor.userId,
        });
        await record({
          on: WEBHOOK_ENTITY,
          type: 'CREATE',
          entityId: created.id,
          snapshot: snapshotOf(created),
        });
        return created;
      });
      return { ...publicWebhook(row), secret };
    },

    async list(actor: Actor, query: PageQuery & { enabled?: boolean }) {
      const page = resolvePage(query, WEBHOOK_PAGE);
      const { rows, total } = await listWebhooks(db, actor.organisationId, query.enabled, page);
      return pageResult(rows.map(publicWebhook), total, page);
    },

    async get(actor: Actor, id: string) {
      return publicWebhook(await liveWebhook(db, actor.organisationId, id));
    },

    async update(actor: Actor, id: string, input: Partial<WebhookInput>) {
      const patterns = input.events ? validatePatterns(input.events) : undefined;
      const url = input.url !== undefined ? await checkUrl(input.url) : undefined;
      const row = await ctx.change(actor, async (tx, record) => {
        const before = await liveWebhook(tx, actor.organisationId, id, true);
        const set: Partial<WebhookInsert> = {};
        if (input.name !== undefined) set.name = input.name.trim();
        if (url !== undefined) set.url = url;
        if (patterns) {
          set.events = patterns;
          set.eventsRegex = compilePatterns(patterns);
        }
        if (input.httpMethod !== undefined) set.httpMethod = input.httpMethod.toLowerCase() as WebhookMethod;
        const type = input.authenticationType ?? before.authenticationType;
        if (input.authenticationType !== undefined || input.credentials !== undefined) {
          const typeChanged = type !== before.authenticationType;
          if (input.credentials === undefined && typeChanged && type !== 'none')
            throw invalid('/credentials', `is required when authenticationType becomes ${type}`);
          if (input.credentials !== undefined || typeChanged) {
            set.authenticationType = type;
            set.credentials = seal(normaliseCredentials(type, input.credentials));
          }
        }
        if (input.enabled !== undefined && input.enabled !== before.enabled) {
          set.enabled = input.enabled;
          set.disabledReason = input.enabled ? null : 'manual';
          set.disabledAt = input.enabled ? null : new Date();
        }
        if (Object.keys(set).length === 0) return before;
        return applyUpdate(tx, record, before, set);
      });
      return publicWebhook(row);
    },

    async setEnabled(actor: Actor, id: string, enabled: boolean) {
      return service.update(actor, id, { enabled });
    },

    async remove(actor: Actor, id: string) {
      await ctx.change(actor, async (tx, record) => {
        const before = await liveWebhook(tx, actor.organisationId, id, true);
        const after = await softDeleteWebhook(tx, id);
        await cancelPendingDeliveries(tx, id, 'webhook deleted');
        await record({ on: WEBHOOK_ENTITY, type: 'DELETE', entityId: id, snapshot: snapshotOf(before) });
        return after;
      });
      return { id, deleted: true as const };
    },

    /**
     * A new signing secret; the previous one keeps signing (a second signature in
     * `webhook-signature`) for the grace period so receivers can switch without losing calls.
     */
    async rotateSecret(actor: Actor, id: string, gracePeriodSeconds?: number) {
      const grace = gracePeriodSeconds ?? ctx.config.webhooks.secretGraceSeconds;
      const secret = newWebhookSecret();
      const row = await ctx.change(actor, async (tx, record) => {
        const before = await liveWebhook(tx, actor.organisationId, id, true);
        return applyUpdate(tx, record, before, {
          secret: box.seal(secret),
          previousSecret: grace > 0 ? before.secret : null, // still sealed
          previousSecretExpiresAt: grace > 0 ? new Date(Date.now() + grace * 1000) : null,
        });
      });
      return { ...publicWebhook(row), secret };
    },

    /**
     * The service disables a webhook (410 received, or retries exhausted without any success), then
     * tells the organisation's admins by e-mail. Outside of any transaction: it sends mail.
     */
    async disableBySystem(
      organisationId: string,
      webhookId: string,
      reason: 'gone' | 'failing',
      detail: string,
    ): Promise<boolean> {
      const actor: ChangeActor = { organisationId, userId: null };
      const disabled = await ctx.change(actor, async (tx, record) => {
        const before = await lockEnabledWebhook(tx, webhookId);
        if (!before) return undefined;
        return applyUpdate(tx, record, before, {
          enabled: false,
          disabledReason: reason,
          disabledAt: new Date(),
        });
      });
      if (!disabled) return false;
      ctx.log.warn({ webhookId, organisationId, reason, detail }, 'webhook disabled');
      const why =
        reason === 'gone'
          ? 'the receiver answered 410 Gone, which means it no longer wants these calls'
          : 'its deliveries kept failing for about a day, through every retry';
      await mailer.send({
        organisationId,
        kind: 'webhook_disabled',
        to: await organisationAdminEmails(db, organisationId),
        subject: `Webhook "${disabled.name}" has been disabled`,
        text:
          `The webhook "${disabled.name}" (${disabled.url}, id ${disabled.id}) was disabled because ${why}.\n\n` +
          `Last error: ${detail}\n\n` +
          'Events are not queued for it while it is disabled. Once the receiver works again, enable it with ' +
          `POST /api/webhooks/${disabled.id}/enable and replay the deliveries you need from ` +
          `GET /api/webhooks/${disabled.id}/deliveries.\n`,
      });
      return true;
    },
  };
  return service;
}

export type WebhookService = ReturnType<typeof createWebhookService>;

/** Event resources of webhooks: the API view, never the credentials or the secret. */
export function registerWebhookResource(registry: Pick<Registry, 'eventResource'>) {
  registry.eventResource('webhooks', async (executor, organisationId, id) => {
    const row = await findLiveWebhook(executor, organisationId, id);
    return row ? (publicWebhook(row) as unknown as Record<string, unknown>) : undefined;
  });
}
