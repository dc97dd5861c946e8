// Every table of the service; drizzle-kit reads this file to generate migrations.
// One line per feature's schema file: add yours on its own line.

export * from './acceptances.ts';
export * from './briefs.ts';
export * from './catalogue.ts';
export * from './exports.ts';
export * from './idempotency.ts';
export * from './imports.ts';
export * from './mail.ts';
export * from './orders.ts';
export * from './organisation-data.ts';
export * from './organisation-settings.ts';
export * from './pipelines.ts';
export * from './platform.ts';
export * from './proofs.ts';
export * from './quotes.ts';
export * from './webhooks.ts';
