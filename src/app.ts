import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { acceptancesModule } from './modules/acceptances/module.ts';
import { addressesModule } from './modules/addresses/module.ts';
import { articlesModule } from './modules/articles/module.ts';
import { authModule } from './modules/auth/module.ts';
import { BRIEF_BODY_REQUIREMENTS } from './modules/briefs/contract.ts';
import { briefsModule } from './modules/briefs/module.ts';
import { catalogueModule } from './modules/catalogue/module.ts';
import { companiesModule } from './modules/companies/module.ts';
import { contactsModule } from './modules/contacts/module.ts';
import { corrugatedModule } from './modules/corrugated/module.ts';
import { currenciesModule } from './modules/currencies/module.ts';
import { customFieldsModule } from './modules/custom-fields/module.ts';
import { dieLinesModule } from './modules/dielines/module.ts';
import { eventsModule } from './modules/events/module.ts';
import { withEntityWebhooks } from './modules/events/openapi-webhooks.ts';
import { exportsModule } from './modules/exports/module.ts';
import { filesModule } from './modules/files/module.ts';
import { healthModule } from './modules/health/module.ts';
import { importsModule } from './modules/imports/module.ts';
import { notificationsModule } from './modules/notifications/module.ts';
import { ordersModule } from './modules/orders/module.ts';
import { organisationsModule } from './modules/organisations/module.ts';
import { passwordResetModule } from './modules/password-reset/module.ts';
import { pipelinesModule } from './modules/pipelines/module.ts';
import { projectsModule } from './modules/projects/module.ts';
import { proofsModule } from './modules/proofs/module.ts';
import { QUOTE_BODY_REQUIREMENTS } from './modules/quotes/contract.ts';
import { quotesModule } from './modules/quotes/module.ts';
import { reordersModule } from './modules/reorders/module.ts';
import { statusesModule } from './modules/statuses/module.ts';
import { usersModule } from './modules/users/module.ts';
import { startWebhookDelivery, webhooksModule } from './modules/webhooks/module.ts';
import { createAuthenticator, createTokenSigner } from './platform/auth.ts';
import { registerCompression } from './platform/compression.ts';
import { formatSchemaErrors, registerErrorHandling } from './platform/errors.ts';
import { registerEtags } from './platform/etag.ts';
import { createChangeRunner } from './platform/events.ts';
import { registerHipeCompatibility } from './platform/hipe.ts';
import { registerIdempotency } from './platform/idempotency.ts';
import { registerInputSafety, restrictDateFormats } from './platform/input-safety.ts';
import { createJobs } from './platform/jobs.ts';
import { lazySchemaCompilers } from './platform/lazy-schemas.ts';
import { lazySerializers } from './platform/lazy-serializers.ts';
import { registerPgliteMaintenance } from './platform/maintenance.ts';
import { aliasPrefixes, type FeatureModule } from './platform/module.ts';
import { finishOpenApiDocument } from './platform/openapi-contract.ts';
import { createRegistry } from './platform/registry.ts';
import { type RouteTable, registerRouteSecurity } from './platform/route-security.ts';
import { ProblemSchema } from './platform/schemas.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { createSessionCookies } from './platform/session.ts';
import { registerWebApp, WEB_PREFIX } from './platform/web.ts';

export type BuildOptions = {
  config: Config;
  database: Database;
  /** Start job workers (default: config.runWorkers). Tests that drive jobs by hand turn them off. */
  runWorkers?: boolean;
  /** Pino logger options override, e.g. `false` in tests. */
  logger?: boolean | object;
  /** The clock of idempotency keys (tests move it forward to expire keys). */
  now?: () => Date;
  /**
   * Compile each route's validator and serializer on its first use rather than at ready
   * (platform/lazy-schemas.ts): the service (idle memory) and the tests (CPU per app built). Off,
   * every route's schemas are compiled at ready (the OpenAPI build; a test that checks they all
   * compile).
   */
  lazySchemas?: boolean;
};

export type App = FastifyInstance & { ctx: AppContext } & RouteTable;

/** The feature modules, in the order their routes are registered (and listed in OpenAPI). */
const MODULES: FeatureModule[] = [
  healthModule,
  authModule,
  passwordResetModule,
  organisationsModule,
  catalogueModule,
  corrugatedModule,
  usersModule,
  eventsModule,
  webhooksModule,
  statusesModule,
  currenciesModule,
  customFieldsModule,
  filesModule,
  companiesModule,
  contactsModule,
  projectsModule,
  pipelinesModule,
  addressesModule,
  articlesModule,
  ordersModule,
  briefsModule,
  dieLinesModule,
  importsModule,
  exportsModule,
  quotesModule,
  acceptancesModule,
  proofsModule,
  reordersModule,
  notificationsModule,
];

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
/** Where Swagger UI is served. */
const DOCS_PREFIX = '/docs';

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: [
              'req.headers.authorization',
              'req.headers["x-access-token"]',
              'req.headers.cookie',
              'req.headers["x-csrf-token"]',
            ],
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    bodyLimit: config.bodyLimitBytes,
    // Slow requests (issue 23): Node answers 408 and closes a connection whose request has not fully
    // arrived in time. It looks every connectionsCheckingInterval (30 s by default), so that is
    // made a fraction of the timeout. No connectionTimeout (idle socket): it would also cut long
    // answers (PDFs, exports) still being computed.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(config.requestTimeoutMs / 4))),
    },
    schemaErrorFormatter: formatSchemaErrors,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    return503OnClosing: true,
    // Serializers always on first answer (idle memory); validators too with lazySchemas.
    schemaController: {
      compilersFactory: options.lazySchemas ? lazySchemaCompilers() : { buildSerializer: lazySerializers },
    },
    ajv: {
      customOptions: {
        // Unknown properties are refused (400) rather than silently dropped, so typos surface.
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true,
      },
      // After ajv-formats: dates are refused outside the supported years (platform/input-safety.ts).
      onCreate: restrictDateFormats,
    } as FastifyServerOptions['ajv'],
  }).withTypeProvider<TypeBoxTypeProvider>();

  const signer = createTokenSigner(config.jwtSecret, config.jwtExpiresInSeconds);
  const closeHooks: Array<() => Promise<void>> = [];
  const registry = createRegistry();
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    log: app.log,
    change: createChangeRunner(database, registry),
    jobs: createJobs(database, app.log),
    signer,
    authenticator: createAuthenticator(database.db, signer),
    session: createSessionCookies(config.jwtSecret, config.publicBaseUrl),
    registry,
    onClose: (hook) => void closeHooks.push(hook),
  };

  registerPgliteMaintenance(ctx);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  await registerSecurityHeaders(app, { web: WEB_PREFIX, docs: DOCS_PREFIX });
  registerInputSafety(app);
  registerHipeCompatibility(app);
  app.addSchema(ProblemSchema);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Packaging quotation, order and brief-pricing service',
        version: '1.0.0',
        description:
          'Every operation is served under `/api`; orders, order items, articles, quotes and briefs are also served ' +
          'at their unprefixed paths (`/orders`, ...). Errors are RFC 9457 problem+json documents.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          accessToken: { type: 'apiKey', in: 'header', name: 'X-ACCESS-TOKEN' },
        },
      },
    },
    // Document-wide fixes for generated clients (problem+json, binary answers, typed dates,
    // servers, requirements the services check): platform/openapi-contract.ts.
    transformObject: (document) =>
      'openapiObject' in document
        ? finishOpenApiDocument(withEntityWebhooks(document.openapiObject, registry), {
            unprefixedPrefixes: aliasPrefixes(MODULES),
            bodyRequirements: [...BRIEF_BODY_REQUIREMENTS, ...QUOTE_BODY_REQUIREMENTS],
          })
        : document.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { deepLinking: true } });
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.fileSizeLimitBytes, files: 1, fields: 20 },
    throwFileSizeLimit: true,
  });

  await app.register(fastifyCookie);
  const routeTable = registerRouteSecurity(app, ctx.authenticator, ctx.session, aliasPrefixes(MODULES));
  registerIdempotency(app, ctx, { now: options.now });
  // After idempotency (its onSend keeps the answer uncompressed) and before every route and the
  // web app's static files: the plugin attaches itself to routes as they are added.
  registerEtags(app);
  await registerCompression(app);
  // After compression: the OpenAPI document is a large JSON answer.
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  for (const module of MODULES) {
    for (const { plugin, root, aliased } of module.wire(ctx)) {
      await app.register(plugin, { prefix: root ? '' : '/api' });
      if (aliased) await app.register(plugin, { prefix: '' });
    }
  }

  await registerWebApp(app, config.webDir);

  app.addHook('onClose', async () => {
    for (const hook of closeHooks.reverse()) await hook();
    await ctx.jobs.stop();
  });

  const runWorkers = options.runWorkers ?? config.runWorkers;
  await ctx.jobs.start({ runWorkers });
  if (runWorkers) startWebhookDelivery(ctx);
  return Object.assign(app, { ctx, ...routeTable }) as unknown as App;
}
