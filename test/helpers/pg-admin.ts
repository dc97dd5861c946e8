import pg from 'pg';

/** Tests run on PostgreSQL when DATABASE_URL is set, else on PGlite. */
export const TEST_DATABASE_URL = process.env.DATABASE_URL || undefined;

export async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
