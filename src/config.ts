import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl?: string;
  adminEmail: string;
  adminPassword?: string;
  jwtSecret: string;
  /** Seals stored secrets the service reads back (webhook secrets and credentials). */
  encryptionKey: string;
  jwtExpiresInSeconds: number;
  /**
   * Browser sessions (POST /api/session, docs/web.md "Sessions"): a short access token, refreshed
   * while the user is active with a rotating refresh token; the session ends after `idleSeconds`
   * without a refresh, or `maxSeconds` after sign-in. A rotated refresh token that comes back more
   * than `reuseGraceSeconds` after its rotation ends the session (reuse detection).
   */
  sessions: { accessSeconds: number; idleSeconds: number; maxSeconds: number; reuseGraceSeconds: number };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bodyLimitBytes: number;
  fileSizeLimitBytes: number;
  /**
   * The whole of a request (headers and body, uploads included) must arrive within this time, its
   * headers within headersTimeoutMs; a client that trickles one answers 408 and is disconnected.
   */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  smtpUrl?: string;
  mailFrom: string;
  publicBaseUrl: string;
  /** Hosts or CIDR ranges that outgoing webhook calls may reach although private or loopback. */
  webhookAllowedHosts: string[];
  /** Outgoing webhook calls: per-attempt timeout, delays between attempts, worker tuning. */
  webhooks: {
    timeoutMs: number;
    /** Delay before retry n (ms); after the last one fails the delivery has failed. Jittered ±20%. */
    retryDelaysMs: number[];
    /** How often each process looks for events and due retries written by others. */
    pollIntervalMs: number;
    /** Attempts in flight at once per process. */
    concurrency: number;
    /** After a commit, wait this long before dispatching, so one statement serves several commits. */
    dispatchDelayMs: number;
    /** How long the previous secret keeps signing after a rotation. */
    secretGraceSeconds: number;
  };
  /** CSV imports (docs/imports.md). */
  imports: {
    /** Largest accepted CSV file (413 beyond). */
    sizeLimitBytes: number;
    /** Rows written per transaction. */
    batchSize: number;
    /** An import whose worker has not shown signs of life for this long is resumed by another. */
    staleAfterSeconds: number;
  };
  /** Idempotency keys on create operations (docs/idempotency.md). */
  idempotency: {
    /** How long a key and its stored answer are kept; afterwards the key counts as new. */
    ttlSeconds: number;
    /** A request that holds a key for longer than this (a crashed node) loses it to a retry. */
    lockSeconds: number;
  };
  /**
   * Renders of quote PDF previews (drafts) this process runs at once, and how many more may wait
   * for one; beyond, 429 `pdf_render_busy` with Retry-After (docs/quotes.md, "Stored PDFs").
   */
  pdfRender: { concurrency: number; queue: number };
  /** Start the background job workers in this process. */
  runWorkers: boolean;
  signInThrottle: { maxFailures: number; windowSeconds: number; lockSeconds: number };
  /** The built web application (Vite's output) served at /app; absent until `npm run build`. */
  webDir: string;
};

// dist/web at the project root, both from src/config.ts (tsx, tests) and from dist/server.js (npm start).
const DEFAULT_WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'web');

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h: eleven attempts over about a day. */
const DEFAULT_WEBHOOK_RETRY_DELAYS = '5s,30s,2m,10m,30m,1h,2h,4h,8h,8h';
const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A comma-separated list of durations such as `5s,30s,2m,1h` (a bare number is seconds), in ms. */
function durations(env: NodeJS.ProcessEnv, name: string, fallback: string): number[] {
  const raw = env[name] || fallback;
  const values = raw.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(part);
    if (!match) throw new ConfigError(`${name} must be a list of durations like 5s,30s,2m,1h, got "${raw}"`);
    return Math.round(Number(match[1]) * DURATION_UNITS[match[2] ?? 's']!);
  });
  if (values.length > 50) throw new ConfigError(`${name} may list at most 50 delays`);
  return values;
}

/**
 * The JWT secret and the encryption key are generated once and kept under DATA_DIR, so that tokens
 * and sealed secrets survive a restart. Several nodes sharing one PostgreSQL must be given the same
 * JWT_SECRET and ENCRYPTION_KEY explicitly.
 */
function persistedSecret(dataDir: string, name: 'jwt-secret' | 'encryption-key'): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  // Written whole under a temporary name, then linked into place: when several processes start
  // at once on a new DATA_DIR, the first link wins and every process reads that same secret.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, randomBytes(48).toString('base64url'), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  return readFileSync(file, 'utf8').trim();
}

function sessionLifetimes(env: NodeJS.ProcessEnv): Config['sessions'] {
  const accessSeconds = integer(env, 'SESSION_ACCESS_EXPIRES_IN', 900, 10, 24 * 3600);
  const idleSeconds = integer(env, 'SESSION_IDLE_EXPIRES_IN', 8 * 3600, 20, 30 * 24 * 3600);
  const maxSeconds = integer(env, 'SESSION_MAX_EXPIRES_IN', 7 * 24 * 3600, 20, 365 * 24 * 3600);
  const reuseGraceSeconds = integer(env, 'SESSION_REFRESH_REUSE_GRACE', 10, 0, 300);
  if (idleSeconds <= accessSeconds)
    throw new ConfigError('SESSION_IDLE_EXPIRES_IN must be longer than SESSION_ACCESS_EXPIRES_IN');
  if (maxSeconds < idleSeconds)
    throw new ConfigError('SESSION_MAX_EXPIRES_IN must be at least SESSION_IDLE_EXPIRES_IN');
  return { accessSeconds, idleSeconds, maxSeconds, reuseGraceSeconds };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// connection string');
  }
  const adminEmail = env.ADMIN_EMAIL || 'admin@example.com';
  if (!/^[^@\s]+@[^@\s]+$/.test(adminEmail))
    throw new ConfigError(`ADMIN_EMAIL is not an e-mail address: "${adminEmail}"`);
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD must have at least 8 characters');
  }
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const jwtSecret = env.JWT_SECRET || persistedSecret(dataDir, 'jwt-secret');
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must have at least 32 characters');
  const encryptionKey = env.ENCRYPTION_KEY || persistedSecret(dataDir, 'encryption-key');
  if (encryptionKey.length < 32) throw new ConfigError('ENCRYPTION_KEY must have at least 32 characters');
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl))
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const headersTimeoutMs = integer(
    env,
    'HEADERS_TIMEOUT_MS',
    Math.min(10_000, requestTimeoutMs),
    100,
    3_600_000,
  );
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    adminEmail,
    adminPassword,
    jwtSecret,
    encryptionKey,
    jwtExpiresInSeconds: integer(env, 'JWT_EXPIRES_IN', 3600, 60, 30 * 24 * 3600),
    sessions: sessionLifetimes(env),
    logLevel,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    fileSizeLimitBytes: integer(env, 'FILE_SIZE_LIMIT_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    requestTimeoutMs,
    headersTimeoutMs,
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'no-reply@localhost',
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://${host}:${port}`).replace(/\/$/, ''),
    webhookAllowedHosts: (env.WEBHOOK_ALLOWED_HOSTS || '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    webhooks: {
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 300_000),
      retryDelaysMs: durations(env, 'WEBHOOK_RETRY_DELAYS', DEFAULT_WEBHOOK_RETRY_DELAYS),
      pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, 10, 60_000),
      concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 128, 1, 4096),
      dispatchDelayMs: integer(env, 'WEBHOOK_DISPATCH_DELAY_MS', 10, 0, 10_000),
      secretGraceSeconds: integer(env, 'WEBHOOK_SECRET_GRACE_SECONDS', 86_400, 0, 30 * 86_400),
    },
    imports: {
      sizeLimitBytes: integer(env, 'IMPORT_SIZE_LIMIT_BYTES', 100 * 1024 * 1024, 1024, 2 ** 31 - 1),
      batchSize: integer(env, 'IMPORT_BATCH_SIZE', 1000, 1, 5000),
      staleAfterSeconds: integer(env, 'IMPORT_STALE_AFTER_SECONDS', 120, 10, 86_400),
    },
    idempotency: {
      ttlSeconds: integer(env, 'IDEMPOTENCY_KEY_TTL_SECONDS', 86_400, 60, 30 * 86_400),
      lockSeconds: integer(env, 'IDEMPOTENCY_LOCK_SECONDS', 300, 5, 86_400),
    },
    pdfRender: {
      concurrency: integer(env, 'PDF_RENDER_CONCURRENCY', 2, 1, 64),
      queue: integer(env, 'PDF_RENDER_QUEUE', 8, 0, 1000),
    },
    runWorkers: bool(env, 'RUN_WORKERS', true),
    webDir: resolve(env.WEB_DIR || DEFAULT_WEB_DIR),
    signInThrottle: {
      maxFailures: integer(env, 'SIGN_IN_MAX_FAILURES', 5, 1, 1000),
      windowSeconds: integer(env, 'SIGN_IN_WINDOW_SECONDS', 900, 1, 86400),
      lockSeconds: integer(env, 'SIGN_IN_LOCK_SECONDS', 900, 1, 86400),
    },
  };
}
