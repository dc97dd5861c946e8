// Generated from the source by `npm run docs:errors` (scripts/errors-doc.ts); do not edit by hand.
// The error codes each feature module throws; `platform` ones may come from any route.
import type { ErrorCode } from './error-codes.ts';

// biome-ignore format: generated, one line per module
export const CODES_BY_MODULE: Record<string, readonly ErrorCode[]> = {
  acceptances: ['validation_failed', 'unsupported_language', 'quote_without_items', 'forbidden', 'not_found', 'pdf_not_generated', 'guest_link_expired', 'guest_link_revoked', 'quote_locked', 'invalid_transition', 'quote_not_published', 'quote_changed', 'pdf_hash_mismatch', 'acceptance_not_found', 'quote_not_signed', 'proofs_not_approved', 'already_converted', 'company_mismatch', 'invalid_expiry', 'validity_passed', 'pricing_incomplete', 'invalid_discount', 'line_not_priced', 'invalid_price_break_option', 'repricing_failed'],
  addresses: ['not_found', 'unknown_company'],
  articles: ['validation_failed', 'invalid_custom_fields', 'not_found', 'duplicate_code', 'invalid_reference', 'brief_elements_unavailable'],
  auth: ['token_revoked', 'session_ended', 'session_expired', 'refresh_token_reused', 'invalid_credentials', 'session_required', 'too_many_requests', 'forbidden', 'not_found', 'already_expired'],
  briefs: ['validation_failed', 'cost_field_forbidden', 'not_found', 'reference_conflict', 'catalogue_changed', 'prediction_not_available', 'invalid_reference', 'project_company_mismatch', 'invalid_brief', 'brief_elements_unavailable', 'element_of_brief', 'last_element', 'stale_write'],
  catalogue: ['validation_failed', 'not_found'],
  companies: ['validation_failed', 'invalid_custom_fields', 'forbidden', 'not_found', 'external_id_taken', 'username_taken', 'email_taken', 'company_has_children', 'unknown_company', 'parent_not_found', 'company_cycle'],
  contacts: ['invalid_custom_fields', 'forbidden', 'not_found', 'external_id_taken', 'username_taken', 'email_taken', 'unknown_company', 'collaboration_required', 'empty_contact', 'email_required'],
  corrugated: ['validation_failed', 'not_found', 'reference_conflict', 'invalid_reference', 'flute_mismatch', 'no_corrugated_matter', 'code_taken'],
  currencies: ['not_found', 'duplicate_currency', 'base_currency'],
  'custom-fields': ['validation_failed', 'invalid_custom_fields', 'not_found', 'duplicate_custom_field'],
  dielines: ['validation_failed', 'not_found', 'catalogue_changed', 'prediction_not_available', 'not_acceptable', 'project_company_mismatch'],
  events: ['not_found'],
  exports: ['validation_failed', 'invalid_custom_fields', 'forbidden', 'not_found', 'export_not_ready', 'invalid_reference'],
  files: ['validation_failed', 'invalid_multipart', 'too_many_files', 'too_many_fields', 'forbidden', 'not_found', 'file_too_large', 'unsupported_media_type'],
  imports: ['validation_failed', 'invalid_custom_fields', 'invalid_multipart', 'too_many_files', 'too_many_fields', 'not_csv', 'forbidden', 'not_found', 'file_archived', 'external_id_taken', 'username_taken', 'email_taken', 'import_not_runnable', 'dry_run_already_run', 'import_not_cancellable', 'file_too_large', 'unsupported_media_type', 'unknown_company'],
  notifications: ['validation_failed'],
  orders: ['validation_failed', 'invalid_custom_fields', 'not_found', 'duplicate_external_id', 'item_has_children', 'invalid_reference', 'project_company_mismatch', 'address_company_mismatch', 'article_disabled', 'hierarchy_cycle', 'parent_in_other_order', 'parent_later', 'inconsistent_total'],
  organisations: ['validation_failed', 'invalid_multipart', 'too_many_files', 'too_many_fields', 'forbidden', 'not_found', 'external_id_taken', 'username_taken', 'email_taken', 'file_too_large', 'unsupported_media_type', 'unsupported_image', 'unknown_company'],
  'password-reset': ['too_many_requests', 'reset_token_invalid'],
  pipelines: ['not_found'],
  platform: ['validation_failed', 'invalid_query', 'unauthorized', 'invalid_token', 'token_expired', 'token_revoked', 'session_ended', 'invalid_access_token', 'too_many_requests', 'forbidden', 'csrf_failed', 'not_found', 'conflict', 'duplicate', 'reference_conflict', 'serialization_failure', 'idempotency_key_in_use', 'idempotency_answer_lost', 'payload_too_large', 'business_rule', 'idempotency_key_reused', 'total_out_of_range', 'invalid_reference', 'dates_out_of_order', 'value_out_of_range', 'invalid_character', 'date_out_of_range', 'invalid_value', 'bad_request', 'ctp_invalid_json_body', 'ctp_empty_json_body', 'request_aborted', 'ctp_invalid_content_length', 'bad_url', 'ctp_body_too_large', 'max_param_length', 'ctp_invalid_media_type'],
  projects: ['validation_failed', 'invalid_custom_fields', 'not_found', 'external_id_taken', 'invalid_reference', 'unknown_company', 'unknown_status'],
  proofs: ['validation_failed', 'invalid_multipart', 'too_many_files', 'too_many_fields', 'quote_without_items', 'forbidden', 'not_found', 'pdf_not_generated', 'guest_link_expired', 'guest_link_revoked', 'guest_link_not_for_proofs', 'quote_not_published', 'quote_changed', 'artwork_closed', 'proof_not_ready', 'proof_superseded', 'proof_hash_mismatch', 'file_too_large', 'unsupported_media_type', 'unsupported_artwork', 'company_mismatch', 'invalid_expiry'],
  quotes: ['validation_failed', 'unsupported_language', 'quote_without_items', 'forbidden', 'not_found', 'pdf_not_generated', 'guest_link_expired', 'guest_link_revoked', 'duplicate_external_id', 'brief_already_in_quote', 'quote_locked', 'invalid_transition', 'pdf_render_busy', 'quote_not_published', 'quote_changed', 'quote_not_signed', 'proofs_not_approved', 'already_converted', 'company_mismatch', 'project_company_mismatch', 'address_company_mismatch', 'contact_company_mismatch', 'invalid_expiry', 'validity_passed', 'pricing_incomplete', 'invalid_discount', 'line_not_priced', 'invalid_price_break_option', 'repricing_failed', 'article_disabled', 'element_not_in_brief', 'standalone_element'],
  reorders: ['validation_failed', 'quote_without_items', 'not_found', 'duplicate_external_id', 'order_not_delivered', 'nothing_to_reorder', 'company_mismatch', 'project_company_mismatch', 'address_company_mismatch'],
  statuses: ['validation_failed', 'not_found', 'duplicate_status', 'default_status'],
  users: ['validation_failed', 'invalid_custom_fields', 'forbidden', 'not_found', 'external_id_taken', 'username_taken', 'email_taken', 'last_admin', 'cannot_archive_self', 'not_a_contact', 'not_archived', 'unknown_company', 'email_required', 'password_required', 'custom_fields_not_supported'],
  webhooks: ['validation_failed', 'invalid_url', 'url_not_allowed', 'not_found', 'webhook_disabled'],
};
