import type { AppContext } from '../../context.ts';
import { createMailer } from '../../platform/mailer.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { createBookkeeping } from './bookkeeping.ts';
import { createDeliveryRuntime, type DeliveryRuntime } from './delivery.ts';
import { createSender } from './http.ts';
import { webhooksRoutes } from './routes.ts';
import { createWebhookService, registerWebhookResource, type WebhookService } from './service.ts';
import { createTargetPolicy } from './ssrf.ts';

export type WebhookModule = { service: WebhookService; runtime: DeliveryRuntime };
const modules = new WeakMap<AppContext, WebhookModule>();

/** The webhook service and delivery runtime of an app, made once per context. */
export function webhookModule(ctx: AppContext): WebhookModule {
  let module = modules.get(ctx);
  if (module) return module;
  const policy = createTargetPolicy(ctx.config.webhookAllowedHosts);
  const sender = createSender(policy, { maxSockets: Math.max(16, ctx.config.webhooks.concurrency) });
  const mailer = createMailer(ctx);
  const bookkeeping = createBookkeeping(ctx.database);
  let runtime: DeliveryRuntime | undefined;
  const service = createWebhookService({ ctx, policy, mailer, wake: () => runtime?.wakeDeliverer() });
  runtime = createDeliveryRuntime(ctx, bookkeeping, service, sender, {
    soleProcess: ctx.database.kind === 'pglite',
  });
  module = { service, runtime };
  modules.set(ctx, module);
  const started = runtime;
  ctx.change.onCommitted(() => started.wakeDispatcher());
  ctx.onClose(async () => {
    await started.stop();
    await bookkeeping.close();
    sender.close();
    mailer.close();
  });
  registerWebhookResource();
  return module;
}

/** Starts dispatching and delivering in this process (app.ts, when workers run). */
export function startWebhookDelivery(ctx: AppContext): DeliveryRuntime {
  const { runtime } = webhookModule(ctx);
  runtime.start();
  return runtime;
}

export const webhooksFeature: FeatureModule = {
  name: 'webhooks',
  wire: (ctx) => [{ plugin: webhooksRoutes(ctx, webhookModule(ctx)) }],
};
