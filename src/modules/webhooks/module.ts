import type { AppContext } from '../../context.ts';
import { createMailer } from '../../platform/mailer.ts';
import { defineModule } from '../../platform/module.ts';
import { createBookkeeping } from './bookkeeping.ts';
import { createDeliveryRuntime, type DeliveryRuntime } from './delivery.ts';
import { createSender } from './http.ts';
import { WEBHOOK_ENTITY } from './repository.ts';
import { webhooksRoutes } from './routes.ts';
import { createWebhookService, registerWebhookResource, type WebhookService } from './service.ts';
import { createTargetPolicy } from './ssrf.ts';

export type WebhooksServices = { webhooks: WebhookService; runtime: DeliveryRuntime };

/**
 * Webhooks and their delivery runtime: the runtime's sockets, bookkeeping connection and mailer
 * close with the app; a committed change wakes the dispatcher.
 */
export const webhooksModule = defineModule<WebhooksServices>({
  name: 'webhooks',
  services: (ctx) => {
    const policy = createTargetPolicy(ctx.config.webhookAllowedHosts);
    const sender = createSender(policy, { maxSockets: Math.max(16, ctx.config.webhooks.concurrency) });
    const mailer = createMailer(ctx);
    const bookkeeping = createBookkeeping(ctx.database);
    let runtime: DeliveryRuntime | undefined;
    const webhooks = createWebhookService({ ctx, policy, mailer, wake: () => runtime?.wakeDeliverer() });
    const started = createDeliveryRuntime(ctx, bookkeeping, webhooks, sender, {
      soleProcess: ctx.database.kind === 'pglite',
    });
    runtime = started;
    ctx.onClose(async () => {
      await started.stop();
      await bookkeeping.close();
      sender.close();
      mailer.close();
    });
    return { webhooks, runtime: started };
  },
  wire: (ctx, { webhooks, runtime }) => {
    ctx.change.onCommitted(() => runtime.wakeDispatcher());
    ctx.registry.entityPayload(WEBHOOK_ENTITY);
    registerWebhookResource(ctx.registry);
    return [{ plugin: webhooksRoutes(webhooks) }];
  },
});

/** Starts dispatching and delivering in this process (app.ts, when workers run). */
export function startWebhookDelivery(ctx: AppContext): DeliveryRuntime {
  const { runtime } = webhooksModule.services(ctx);
  runtime.start();
  return runtime;
}
