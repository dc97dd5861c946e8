// Every table of the service; drizzle-kit reads this file to generate migrations.
// One line per feature's schema file: add yours on its own line.
export * from './organisation-data.ts';
export * from './platform.ts';
