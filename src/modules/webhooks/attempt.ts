import type { SecretBox } from '../../platform/secret-box.ts';
import { deliveredJson } from '../events/payload.ts';
import type { ClaimedRow, Outcome } from './delivery-repository.ts';
import type { AttemptOutcome, OutgoingRequest } from './http.ts';
import { signatureHeaders } from './signing.ts';

/* One attempt of a delivery: the HTTP request it sends, and what its outcome means (retry policy). */

const USER_AGENT = 'packaging-quote-service-webhooks/1.0';

/** Builds the HTTP request of one attempt: payload, signature and the webhook's own authentication. */
export function buildRequest(
  row: ClaimedRow,
  box: SecretBox,
  timeoutMs: number,
  signal?: AbortSignal,
): OutgoingRequest {
  const eventId = row.event_id!;
  const method = row.http_method.toUpperCase() as OutgoingRequest['method'];
  const url = new URL(row.url);
  const withBody = method !== 'GET' && method !== 'DELETE';
  let body: string | undefined;
  if (withBody) {
    body = deliveredJson({
      id: eventId,
      code: Number(row.code),
      eventName: row.event_name,
      category: row.category,
      type: row.type,
      entity: row.entity,
      tableName: row.table_name,
      entityId: row.entity_id,
      relation: row.relation,
      relationId: row.relation_id,
      fieldName: row.field_name,
      updatedColumns: row.updated_columns,
      updatedRelations: row.updated_relations,
      process: row.process,
      version: row.version,
      payload: row.payload,
      createdAt: new Date(row.event_created_at),
    });
  } else {
    // No body: the event travels by reference; the signature covers the webhook-id (the event id).
    url.searchParams.set('eventId', eventId);
    url.searchParams.set('eventName', row.event_name);
    url.searchParams.set('eventCode', String(row.code));
  }
  // Stored sealed (platform/secret-box.ts): opened only to sign and authenticate this request.
  const secrets = (row.previous_secret ? [row.secret, row.previous_secret] : [row.secret]).map(box.open);
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    ...signatureHeaders(eventId, body ?? '', secrets),
  };
  if (withBody) headers['content-type'] = 'application/json';
  const credentials = row.credentials as Record<string, string> | null;
  if (row.authentication_type === 'basic' && credentials) {
    headers.authorization = `Basic ${Buffer.from(`${credentials.username}:${box.open(credentials.password!)}`).toString('base64')}`;
  } else if (row.authentication_type === 'header' && credentials) {
    headers[credentials.name!.toLowerCase()] = box.open(credentials.token!);
  }
  return { url, method, headers, body, timeoutMs, signal };
}

const jitter = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

/** What an attempt's outcome means for its delivery. */
export function decide(
  outcome: AttemptOutcome,
  attempt: number,
  retryDelaysMs: number[],
  interrupted: boolean,
): Pick<Outcome, 'status' | 'delay_ms'> & { disable?: 'gone' | 'failing' } {
  const status = outcome.statusCode;
  if (status !== null && status >= 200 && status < 300) return { status: 'succeeded', delay_ms: 0 };
  if (status === 410) return { status: 'failed', delay_ms: 0, disable: 'gone' };
  if (interrupted) return { status: 'pending', delay_ms: 0 };
  if (attempt > retryDelaysMs.length) return { status: 'failed', delay_ms: 0, disable: 'failing' };
  const backoff = jitter(retryDelaysMs[attempt - 1]!);
  return { status: 'pending', delay_ms: Math.max(backoff, outcome.retryAfterMs ?? 0) };
}
