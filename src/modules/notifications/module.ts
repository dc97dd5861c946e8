import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../platform/errors.ts';
import { createMailDelivery, MAIL_DELIVER_JOB, queuedMailIn } from '../../platform/mail-outbox.ts';
import { defineModule } from '../../platform/module.ts';
import { actorOf } from '../../platform/route-security.ts';
import { problemResponses } from '../../platform/schemas.ts';
import { findRecipient, setOptOuts } from './repository.ts';
import { createNotifier } from './service.ts';
import { NOTIFICATION_DESCRIPTIONS, NOTIFICATION_KINDS, type NotificationKind } from './templates.ts';

/** The delivery sweep: picks up retries and anything a lost wake-up left behind. */
export const MAIL_DELIVER_CRON = '* * * * *';

const Preferences = Type.Object(
  {
    emailOptOuts: Type.Array(Type.String(), { description: 'The kinds of e-mail the user does not want' }),
    kinds: Type.Array(
      Type.Object({ kind: Type.String(), description: Type.String(), enabled: Type.Boolean() }),
      { description: 'Every kind of notification e-mail, and whether the user gets it' },
    ),
  },
  { $id: 'NotificationPreferences' },
);

const PreferencesBody = Type.Object(
  {
    emailOptOuts: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
      maxItems: NOTIFICATION_KINDS.length,
      description: `Kinds to opt out of (replaces the list): ${NOTIFICATION_KINDS.join(', ')}`,
    }),
  },
  { additionalProperties: false },
);

const present = (optOuts: string[]) => ({
  emailOptOuts: optOuts,
  kinds: NOTIFICATION_KINDS.map((kind) => ({
    kind,
    description: NOTIFICATION_DESCRIPTIONS[kind],
    enabled: !optOuts.includes(kind),
  })),
});

const notificationRoutes =
  (ctx: Pick<AppContext, 'db'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(Preferences);
    const tags = ['users'];
    app.get(
      '/users/me/notification-preferences',
      {
        config: { permission: 'profile:read' },
        schema: {
          tags,
          operationId: 'getNotificationPreferences',
          summary: 'The notification e-mails the current user gets',
          response: { 200: Type.Ref('NotificationPreferences'), ...problemResponses() },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const user = await findRecipient(ctx.db, actor.organisationId, actor.userId);
        return present(user?.emailOptOuts ?? []);
      },
    );
    app.put(
      '/users/me/notification-preferences',
      {
        config: { permission: 'profile:preferences' },
        schema: {
          tags,
          operationId: 'setNotificationPreferences',
          summary: 'Opt out of (or back into) kinds of notification e-mail',
          description: `Kinds: ${NOTIFICATION_KINDS.map((k) => `\`${k}\` (${NOTIFICATION_DESCRIPTIONS[k]})`).join(', ')}.`,
          body: PreferencesBody,
          response: { 200: Type.Ref('NotificationPreferences'), ...problemResponses() },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const sent = request.body.emailOptOuts;
        const unknown = sent.findIndex((kind) => !NOTIFICATION_KINDS.includes(kind as NotificationKind));
        if (unknown >= 0) {
          throw badRequest('Unknown notification kind', [
            {
              pointer: `/emailOptOuts/${unknown}`,
              message: `must be one of: ${NOTIFICATION_KINDS.join(', ')}`,
              in: 'body',
            },
          ]);
        }
        const stored = await setOptOuts(
          ctx.db,
          actor.organisationId,
          actor.userId,
          [...new Set(sent)].sort(),
        );
        return present(stored ?? []);
      },
    );
  };

/**
 * Notification e-mails: the commit hook that queues them with the change that causes them, the
 * outbox delivery job, and each user's preferences.
 */
export const notificationsModule = defineModule({
  name: 'notifications',
  services: (ctx) => {
    const delivery = createMailDelivery(ctx);
    ctx.onClose(async () => delivery.close());
    return { notifier: createNotifier({ config: ctx.config }), delivery };
  },
  wire: (ctx, { notifier, delivery }) => {
    ctx.change.beforeCommit(async (tx, recorded) => {
      await notifier.onChanges(tx, recorded);
      // Wake the worker once the change has committed; the minute sweep covers a lost wake-up.
      if (!queuedMailIn(tx)) return undefined;
      return () => {
        ctx.jobs
          .send(MAIL_DELIVER_JOB, {})
          .catch((error) => ctx.log.warn({ err: error }, 'mail delivery not woken (the sweep will send)'));
      };
    });
    ctx.jobs.define(
      MAIL_DELIVER_JOB,
      async () => {
        await delivery.deliverDue();
      },
      {
        // One queued and one running: a wake-up during a delivery round queues the next round.
        queue: { policy: 'stately', retryLimit: 0, expireInSeconds: 600 },
        work: { pollingIntervalSeconds: 0.5 },
      },
    );
    ctx.jobs.afterStart(async () => {
      await ctx.jobs.schedule(MAIL_DELIVER_JOB, MAIL_DELIVER_CRON);
    });
    return [{ plugin: notificationRoutes(ctx) }];
  },
});
