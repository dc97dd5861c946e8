/**
 * Every `code` a problem+json answer of this service can carry, with its HTTP status, a title and
 * what a client should make of it. `AppError` takes a code of this registry and nothing else, so
 * a new code is added here first; docs/errors.md is generated from it (`npm run docs:errors`) and
 * the OpenAPI document lists, per route, the codes of its statuses.
 *
 * A few codes are answered with another status at some sites (`alsoStatus`); `AppError` accepts
 * such a status only when it is listed here.
 */

export type ErrorStatus =
  | 400
  | 401
  | 403
  | 404
  | 405
  | 406
  | 409
  | 410
  | 413
  | 414
  | 415
  | 422
  | 429
  | 500
  | 503;

export type ErrorSpec = {
  status: ErrorStatus;
  alsoStatus?: readonly ErrorStatus[];
  title: string;
  /** When it happens and what the client should do. */
  description: string;
  /** Produced by the framework or the database driver rather than thrown by the service's code. */
  source?: 'framework' | 'database';
};

export const ERROR_CODES = {
  // Request shape: validation by the route schemas and the service's own input checks.
  validation_failed: {
    status: 400,
    title: 'Invalid input',
    description:
      'A body, query, path or header value does not match the schema or a field rule. `errors` holds one JSON pointer and message per value (the first 20; `errorsTotal` counts them all when there are more): correct them and send again.',
  },
  invalid_query: {
    status: 400,
    title: 'Invalid search query',
    description:
      'The crud-style search (`s`, `filter`, `or`, `sort`) cannot be read. `errors` points at the parameter.',
  },
  invalid_custom_fields: {
    status: 400,
    title: 'Invalid custom field values',
    description:
      'Some `customFields` values do not match their field definitions (type, options). `errors` points at each.',
  },
  unsupported_language: {
    status: 400,
    title: 'Unsupported language',
    description:
      'The localisation id names no language the quote documents are written in; use one of those listed in the message.',
  },
  invalid_multipart: {
    status: 400,
    title: 'Unreadable multipart body',
    description: 'The multipart/form-data body is malformed or was cut off; send the form again.',
  },
  too_many_files: {
    status: 400,
    title: 'Too many files',
    description: 'The form carries more than one file; send exactly one.',
  },
  too_many_fields: {
    status: 400,
    title: 'Too many form fields',
    description: 'The form carries more fields than the operation reads; send only the documented fields.',
  },
  not_csv: {
    status: 400,
    title: 'Not CSV text',
    description:
      'The uploaded import file is not CSV text (binary content or an unknown encoding); export it as UTF-8 CSV.',
  },
  invalid_url: {
    status: 400,
    title: 'Invalid webhook URL',
    description: 'The webhook URL is not an absolute http(s) URL the service can call.',
  },
  url_not_allowed: {
    status: 400,
    title: 'Webhook target not allowed',
    description:
      'The webhook URL points at a private, loopback or otherwise blocked address; use a public endpoint.',
  },
  quote_without_items: {
    status: 422,
    alsoStatus: [400],
    title: 'Quote without items',
    description:
      'A quote must keep at least one item: 400 when a create request gives neither `briefIds` nor `items`, 422 when a change would leave it empty.',
  },

  // Credentials.
  unauthorized: {
    status: 401,
    title: 'Credential required',
    description: 'No bearer token, access token or session cookie was sent; sign in and send one.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid bearer token',
    description:
      'The bearer token is malformed, not signed by this service, or its user no longer exists; sign in again.',
  },
  token_expired: {
    status: 401,
    title: 'Bearer token expired',
    description: 'The bearer token has expired; sign in again (or refresh the session).',
  },
  token_revoked: {
    status: 401,
    title: 'Bearer token revoked',
    description: 'The password changed after the token was issued; sign in again with the new password.',
  },
  session_ended: {
    status: 401,
    title: 'Session ended',
    description:
      'The token belongs to a browser session that was signed out (DELETE /api/session); sign in again. ' +
      "The user's other sessions and bearer tokens are not affected.",
  },
  session_expired: {
    status: 401,
    title: 'Session expired',
    description:
      'The browser session was not refreshed within SESSION_IDLE_EXPIRES_IN, or reached SESSION_MAX_EXPIRES_IN from sign-in; sign in again.',
  },
  refresh_token_reused: {
    status: 401,
    title: 'Refresh token reused',
    description:
      'A refresh token that had already been exchanged came back: it may have been stolen, so the whole session (its access tokens too) is ended; sign in again.',
  },
  invalid_access_token: {
    status: 401,
    title: 'Invalid access token',
    description: 'The X-ACCESS-TOKEN is unknown or was revoked; mint a new one.',
  },
  invalid_credentials: {
    status: 401,
    title: 'Wrong username or password',
    description: 'Sign-in refused. Repeated failures are throttled (`too_many_requests`).',
  },
  session_required: {
    status: 401,
    title: 'Session required',
    description:
      'The operation is authenticated by the session cookie only (web app); sign in through POST /api/session.',
  },
  too_many_requests: {
    status: 429,
    title: 'Too many attempts',
    description:
      'Too many failed sign-ins (or requests); wait the `Retry-After` seconds before trying again.',
  },

  // Permissions.
  forbidden: {
    status: 403,
    title: 'Not allowed',
    description:
      'The role may not perform the operation (docs/permissions.md), or the row belongs to a company the user is not linked to, or the target user is of an equal or stronger role.',
  },
  cost_field_forbidden: {
    status: 403,
    title: 'Cost field not allowed',
    description:
      'A role without `costs:read` (contacts, guests, external sales) sent a commercial margin: only the seller’s estimating staff set it; the pointers name the fields.',
  },
  csrf_failed: {
    status: 403,
    title: 'CSRF check failed',
    description:
      'A write authenticated by the session cookie did not send the X-CSRF-Token header with the value of the csrf cookie.',
  },

  // Missing things.
  not_found: {
    status: 404,
    title: 'Not found',
    description:
      'The resource does not exist, was deleted, or belongs to another organisation (indistinguishable on purpose).',
  },
  route_not_found: {
    status: 404,
    title: 'No such route',
    description: 'No operation is served at this method and path; check the OpenAPI document.',
    source: 'framework',
  },
  pdf_not_generated: {
    status: 404,
    alsoStatus: [409],
    title: 'PDF not generated',
    description:
      'The quote has no PDF in this language: 404 on download (generate it with POST /quotes/{id}/generate-pdf), 409 on sharing when the quote is no longer published and cannot be rendered.',
  },
  file_archived: {
    status: 410,
    title: 'File archived',
    description: 'The file of this import was archived by retention and cannot be read any more.',
  },
  guest_link_expired: {
    status: 410,
    title: 'Guest link expired',
    description: 'The guest link has passed its expiry; ask the sender for a new link.',
  },
  guest_link_revoked: {
    status: 410,
    title: 'Guest link revoked',
    description: 'The guest link was revoked by the sender; ask for a new link.',
  },
  guest_link_not_for_proofs: {
    status: 403,
    title: 'Guest link not made for proofs',
    description:
      'This guest link shares the quote only; deciding on artwork proofs needs a link made for proofs (`proofs: true`).',
  },

  // Conflicts with the stored state.
  conflict: {
    status: 409,
    title: 'Conflict',
    description: 'The change conflicts with the current state of the resource; read it again and retry.',
  },
  duplicate: {
    status: 409,
    title: 'Duplicate value',
    description: 'A record with the same unique value already exists (reported by the database).',
    source: 'database',
  },
  reference_conflict: {
    status: 409,
    title: 'Reference conflict',
    description:
      'A referenced record does not exist or is still referenced by another one (an article used by items, a row in use).',
  },
  serialization_failure: {
    status: 409,
    title: 'Concurrent change',
    description: 'A concurrent change conflicted with this one; retry the request.',
    source: 'database',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency-Key in use',
    description:
      'A request with the same Idempotency-Key is still being processed; retry after `Retry-After` seconds to get its answer.',
  },
  idempotency_answer_lost: {
    status: 409,
    title: 'Idempotency-Key answer lost',
    description:
      'The request with this Idempotency-Key was carried out (the detail names the records it created), but its answer could not be stored (the node answering it stopped, or the database refused the write). It is not run again: read the records instead of sending the request again.',
  },
  external_id_taken: {
    status: 409,
    title: 'externalId taken',
    description:
      'Another company, project or user of the organisation has this externalId; use another or update that record.',
  },
  duplicate_external_id: {
    status: 409,
    title: 'Duplicate order externalId',
    description: 'Another order of the organisation has this externalId.',
  },
  duplicate_code: {
    status: 409,
    title: 'Duplicate article code',
    description: 'Another article of the organisation has this code.',
  },
  duplicate_currency: {
    status: 409,
    title: 'Duplicate currency',
    description: 'The currency already exists in the organisation; update it instead.',
  },
  duplicate_custom_field: {
    status: 409,
    title: 'Duplicate custom field',
    description: 'A custom field with this key already exists for the entity.',
  },
  duplicate_status: {
    status: 409,
    title: 'Duplicate status',
    description: 'A status of the entity has this label already.',
  },
  username_taken: {
    status: 409,
    title: 'Username taken',
    description:
      'A user with this username (e-mail) already exists; usernames are unique across organisations.',
  },
  email_taken: {
    status: 409,
    title: 'E-mail taken',
    description: 'A user of the organisation already has this e-mail.',
  },
  base_currency: {
    status: 409,
    title: 'Base currency',
    description:
      "The organisation's base currency keeps rate 1 and its code; it cannot be changed or deleted.",
  },
  default_status: {
    status: 409,
    title: 'Default status',
    description: 'The default status cannot be deleted or unset; make another status the default first.',
  },
  last_admin: {
    status: 409,
    title: 'Last admin',
    description: 'The change would leave the organisation without an admin; promote another user first.',
  },
  cannot_archive_self: {
    status: 409,
    title: 'Cannot archive yourself',
    description: 'A user cannot archive their own account; ask another admin.',
  },
  not_a_contact: {
    status: 409,
    title: 'Not a contact',
    description: 'Only contacts are deleted this way; archive other users.',
  },
  not_archived: {
    status: 409,
    title: 'Not archived',
    description: 'The user is not archived, so there is nothing to restore.',
  },
  company_has_children: {
    status: 409,
    title: 'Company has children',
    description: 'The company has child companies; archive or re-parent them first.',
  },
  item_has_children: {
    status: 409,
    title: 'Item has children',
    description: 'The order item has live child items; delete them first or pass `cascade=true`.',
  },
  brief_already_in_quote: {
    status: 409,
    title: 'Brief already quoted',
    description: 'The brief is already an item of this quote.',
  },
  catalogue_changed: {
    status: 409,
    title: 'Catalogue changed',
    description: 'The catalogue changed since this brief version was priced; price the brief again.',
  },
  prediction_not_available: {
    status: 409,
    title: 'Prediction not available',
    description:
      'The brief has no finished price prediction (still running, or failed); poll it or price it again.',
  },
  quote_locked: {
    status: 409,
    title: 'Quote locked',
    description: 'Only a draft quote is changed; make a revision of a published quote to change it.',
  },
  invalid_transition: {
    status: 409,
    title: 'Transition not allowed',
    description:
      'The quote cannot go from its current state to the requested one (see docs/quotes.md for the state machine).',
  },
  pdf_render_busy: {
    status: 429,
    title: 'PDF renderer busy',
    description:
      'Every preview renderer of this node is busy and its queue is full (PDF_RENDER_CONCURRENCY, PDF_RENDER_QUEUE); retry after `Retry-After` seconds.',
  },
  quote_not_published: {
    status: 409,
    title: 'Quote not published',
    description: 'PDFs and guest links exist for published quotes only; publish the quote first.',
  },
  quote_changed: {
    status: 409,
    title: 'Quote changed',
    description: 'The quote changed while its PDF was rendered; generate it again.',
  },
  pdf_hash_mismatch: {
    status: 409,
    title: 'PDF hash mismatch',
    description:
      'The SHA-256 the client sent of the PDF it showed is not that of the quote’s stored PDF in that language (or the PDF was replaced meanwhile): reload the quote, show the current PDF and answer again.',
  },
  order_not_delivered: {
    status: 409,
    title: 'Order not delivered',
    description:
      'Only a delivered order (one with an actual delivery date) can be ordered again; order again from its articles meanwhile.',
  },
  nothing_to_reorder: {
    status: 422,
    title: 'Nothing to order again',
    description:
      'None of the order’s lines is an article that is still live: there is nothing to re-price. Ask the seller for a quote instead.',
  },
  acceptance_not_found: {
    status: 404,
    title: 'Acceptance not found',
    description:
      'The quote has no recorded answer: it was not accepted or declined through POST /quotes/{id}/accept or /decline (or a guest link), e.g. it is still published, or staff moved it with PUT state.',
  },
  quote_not_signed: {
    status: 409,
    title: 'Quote not signed',
    description: 'Only a signed (accepted) quote is converted into an order, or has a signed PDF.',
  },
  artwork_closed: {
    status: 409,
    title: 'Artwork closed',
    description:
      'Artwork is uploaded for a leaf line of a published or signed quote that is not yet an order; a draft is still changing, a rejected or expired quote is revised first, and an order changes artwork with the converter.',
  },
  proof_not_ready: {
    status: 409,
    title: 'Proof not ready',
    description:
      'The proof is still being made (preflight and proof PDF run in the background): poll GET /quotes/{id}/proofs until `preflightState` is `done`, show the proof, then decide.',
  },
  proof_superseded: {
    status: 409,
    title: 'Proof superseded or decided',
    description:
      'Only the latest proof version of a line is decided, once: this one has a newer version or a decision already. Reload the proofs and decide on the latest.',
  },
  proof_hash_mismatch: {
    status: 409,
    title: 'Proof hash mismatch',
    description:
      'The SHA-256 the client sent of the proof it showed is not that of the stored proof PDF: reload the proof, show it and decide again.',
  },
  proofs_not_approved: {
    status: 409,
    title: 'Proofs not approved',
    description:
      'A quote whose lines have artwork becomes an order only once every such line’s latest proof is approved; `errors` points at the items. Have the buyer approve the proofs, then convert.',
  },
  already_converted: {
    status: 409,
    title: 'Already converted',
    description: 'The quote has already been converted into an order; read that order.',
  },
  import_not_runnable: {
    status: 409,
    title: 'Import cannot be run for real',
    description:
      'POST /api/imports/{id}/run starts a real run from a dry run that ended (status 4 SENT or 5 DONE); ' +
      'this import is not a dry run, or has not ended, or its file was refused.',
  },
  dry_run_already_run: {
    status: 409,
    title: 'Dry run already run for real',
    description: 'A real run was already started from this dry run; read that import instead.',
  },
  import_not_cancellable: {
    status: 409,
    title: 'Import not cancellable',
    description: 'Only a requested or running import can be cancelled.',
  },
  export_not_ready: {
    status: 409,
    title: 'Export not ready',
    description: 'The export is not done yet; poll GET /exports/{id} until its status is done.',
  },
  webhook_disabled: {
    status: 409,
    title: 'Webhook disabled',
    description: 'A disabled webhook does not replay deliveries; enable it first.',
  },

  // Bodies too large or of the wrong type.
  payload_too_large: {
    status: 413,
    title: 'Body too large',
    description: 'The body is larger than the configured limit (BODY_LIMIT_BYTES); send less.',
  },
  file_too_large: {
    status: 413,
    title: 'File too large',
    description: 'The uploaded file is larger than the limit given in the message.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'The operation takes multipart/form-data; send the file as such.',
  },
  unsupported_artwork: {
    status: 415,
    title: 'Unsupported artwork',
    description:
      'Artwork is a PDF, PNG, JPEG or TIFF file, recognised by its content (not its name or declared type); send one of those.',
  },
  unsupported_image: {
    status: 415,
    title: 'Unsupported image',
    description:
      'The organisation logo must be a PNG or JPEG image (recognised by its content, at most 4096 pixels a side) that can be printed; send another file.',
  },
  not_acceptable: {
    status: 406,
    title: 'Not acceptable',
    description:
      'None of the media types the `Accept` header asks for is one the operation answers with; the message lists those it does (or name one with `?format=`).',
  },

  // Business rules.
  business_rule: {
    status: 422,
    title: 'Business rule refused',
    description: 'The request is well formed but a business rule refuses it; the message says which.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency-Key reused',
    description:
      'The Idempotency-Key was already used with another request (method, path or body); send a new key.',
  },
  total_out_of_range: {
    status: 422,
    title: 'Total out of range',
    description: 'A total computed from the request (quantity times price) exceeds the supported amount.',
  },
  invalid_reference: {
    status: 422,
    title: 'Unknown reference',
    description:
      'An id in the body names no record of this organisation (or none of the right kind). `errors` points at it.',
  },
  unknown_company: {
    status: 422,
    title: 'Unknown company',
    description: 'A company id in the body names no company of the organisation.',
  },
  unknown_status: {
    status: 422,
    title: 'Unknown status',
    description: 'A status id in the body names no status of the entity.',
  },
  parent_not_found: {
    status: 422,
    title: 'Parent company not found',
    description: 'The parent company does not exist in the organisation.',
  },
  company_cycle: {
    status: 422,
    title: 'Company cycle',
    description: 'A company cannot be its own parent or the child of one of its descendants.',
  },
  company_mismatch: {
    status: 422,
    title: 'Company mismatch',
    description: 'A referenced record (brief, article, element) belongs to another company than the quote.',
  },
  project_company_mismatch: {
    status: 422,
    title: 'Project of another company',
    description: 'The project belongs to another company than the one given.',
  },
  address_company_mismatch: {
    status: 422,
    title: 'Address of another company',
    description: 'The address is not an address of the order or quote company.',
  },
  contact_company_mismatch: {
    status: 422,
    title: 'Contact of another company',
    description: 'The contact is not a contact of the quote company.',
  },
  collaboration_required: {
    status: 422,
    title: 'Collaboration required',
    description:
      "A contact created by a limited user must be linked to at least one of that user's companies.",
  },
  reset_token_invalid: {
    status: 400,
    title: 'Password reset link not valid',
    description:
      'The password reset token is unknown, was already used or has expired (docs/security.md, Password reset); ' +
      'ask for a new link (POST /api/password-reset/request).',
  },
  dates_out_of_order: {
    status: 400,
    title: 'Dates out of order',
    description:
      'A date is before the date it must follow (an order delivered before it was placed, a quote valid until ' +
      'a date before it was issued...); the pointer names the later field, `params.after` the earlier one.',
  },
  empty_contact: {
    status: 400,
    title: 'Empty contact',
    description:
      'A contact needs at least a name, an e-mail, a phone number, an external id or a custom field value.',
  },
  email_required: {
    status: 422,
    title: 'E-mail required',
    description: 'A user who signs in needs an e-mail.',
  },
  password_required: {
    status: 422,
    title: 'Password required',
    description: 'A user of this role needs a password to sign in.',
  },
  custom_fields_not_supported: {
    status: 422,
    title: 'Custom fields not supported',
    description: 'Only contacts carry custom fields among users.',
  },
  already_expired: {
    status: 422,
    title: 'Already expired',
    description: 'The requested expiry of the access token is in the past.',
  },
  invalid_expiry: {
    status: 422,
    title: 'Invalid expiry',
    description:
      'The guest link expiry must be in the future and within the maximum number of days given in the message.',
  },
  validity_passed: {
    status: 422,
    title: 'Validity passed',
    description: '`validUntil` has passed; set a later date before publishing the quote.',
  },
  pricing_incomplete: {
    status: 422,
    title: 'Pricing incomplete',
    description: 'Some quote items have no price yet (a brief not priced); price them before publishing.',
  },
  invalid_discount: {
    status: 422,
    title: 'Discount not valid',
    description:
      'A quote line takes a discount as a percentage or as an amount (not both), at most the line’s goods amount.',
  },
  line_not_priced: {
    status: 422,
    title: 'Line has no price of its own',
    description:
      'A group line (a brief) takes its money from its element lines: change their quantity, price or discount; or the line has no engine price to go back to.',
  },
  invalid_price_break_option: {
    status: 422,
    title: 'No such price-break column',
    description:
      'The option sent when accepting names no price-break column of the quote (by id or quantity), or the quote offers several columns and none was chosen, or it offers none.',
  },
  repricing_failed: {
    status: 422,
    title: 'Quantity not priced',
    description:
      'The pricing engine cannot price the element at the requested quantity (the message says why); choose another quantity or set a price.',
  },
  article_disabled: {
    status: 422,
    title: 'Article disabled',
    description: 'A disabled article cannot be quoted or ordered; enable it or pick another.',
  },
  invalid_brief: {
    status: 422,
    title: 'Brief cannot be priced',
    description:
      'The brief element names unknown catalogue records or cannot be priced; `errors` points at the values.',
  },
  brief_elements_unavailable: {
    status: 422,
    title: 'Brief elements unavailable',
    description: 'Brief elements are not available for this operation; create the article without one.',
  },
  element_of_brief: {
    status: 422,
    alsoStatus: [409],
    title: 'Element of a brief',
    description:
      'An element of a brief is created, moved and deleted with its brief (PUT /briefs/{id}), not on its own (409 on a direct change, 422 when moving a standalone element into a brief).',
  },
  element_not_in_brief: {
    status: 422,
    title: 'Element not in brief',
    description: 'The element named by the quote item does not belong to its brief.',
  },
  standalone_element: {
    status: 422,
    title: 'Standalone element',
    description: 'A standalone element cannot be quoted with a brief; quote it on its own.',
  },
  hierarchy_cycle: {
    status: 422,
    title: 'Item hierarchy cycle',
    description: 'An order item cannot become a descendant of itself.',
  },
  parent_in_other_order: {
    status: 422,
    title: 'Parent in another order',
    description: 'A parent item must belong to the same order as its children.',
  },
  parent_later: {
    status: 422,
    title: 'Parent after child',
    description: 'In a batch, a parent item must come before its children.',
  },
  inconsistent_total: {
    status: 422,
    title: 'Inconsistent total',
    description: '`totalPrice` is not `quantity` times `unitPrice`; send matching values or omit the total.',
  },

  // The database refused a value (backstops behind the request checks).
  value_out_of_range: {
    status: 400,
    alsoStatus: [422],
    title: 'Value out of range',
    description: 'A numeric value (400) or a total computed from it (422) is outside its allowed range.',
    source: 'database',
  },
  invalid_character: {
    status: 400,
    title: 'Invalid character',
    description: 'A text value contains a character that cannot be stored (NUL).',
    source: 'database',
  },
  date_out_of_range: {
    status: 400,
    title: 'Date out of range',
    description: 'A date is outside the supported years.',
    source: 'database',
  },
  invalid_value: {
    status: 400,
    title: 'Invalid value',
    description: 'A value (a date, a number) has an invalid format.',
    source: 'database',
  },

  // Refused by the HTTP framework before a route runs (Fastify's codes, without FST_ERR_).
  bad_request: {
    status: 400,
    title: 'Bad request',
    description:
      'The framework refused the request for a reason without a code of its own; the message says why.',
    source: 'framework',
  },
  ctp_invalid_json_body: {
    status: 400,
    title: 'Invalid JSON',
    description: 'The body is not valid JSON although Content-Type is application/json.',
    source: 'framework',
  },
  ctp_empty_json_body: {
    status: 400,
    title: 'Empty JSON body',
    description:
      'Content-Type is application/json but the body is empty; send a JSON document or no Content-Type.',
    source: 'framework',
  },
  request_aborted: {
    status: 400,
    title: 'Request cut off',
    description:
      'The connection closed, or the request took longer than the service waits for one (REQUEST_TIMEOUT_MS: 408), before the whole body arrived. The client has gone, so this is only logged; send the request again, faster.',
    source: 'framework',
  },
  ctp_invalid_content_length: {
    status: 400,
    title: 'Wrong Content-Length',
    description: 'The body size does not match the Content-Length header.',
    source: 'framework',
  },
  bad_url: {
    status: 400,
    title: 'Bad URL',
    description: 'A path component is not a valid URL component (bad percent-encoding).',
    source: 'framework',
  },
  ctp_body_too_large: {
    status: 413,
    title: 'Body too large',
    description: 'The JSON body is larger than the configured limit (BODY_LIMIT_BYTES).',
    source: 'framework',
  },
  max_param_length: {
    status: 414,
    title: 'Path parameter too long',
    description: 'A path parameter exceeds the maximum length.',
    source: 'framework',
  },
  ctp_invalid_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description:
      'The Content-Type is not one the operation accepts (application/json unless documented otherwise).',
    source: 'framework',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    description:
      'An unexpected error; the body says only "internal error" and the request id to quote when reporting it.',
    source: 'framework',
  },
  last_element: {
    status: 409,
    title: 'Last element of a brief',
    description:
      'Deleting the only element of a brief (HIPE BriefElements Delete): a brief keeps at least one element. Delete the brief instead.',
  },
  stale_write: {
    status: 409,
    title: 'Changed meanwhile',
    description:
      'The brief’s elements changed between reading them and writing this element change. Read the brief again and retry.',
  },
  flute_mismatch: {
    status: 422,
    title: 'Flute of another board',
    description:
      'A corrugated composition names a flute that is not the flute of its corrugated material. `errors` points at the flute; send the board’s own flute or another board.',
  },
  no_corrugated_matter: {
    status: 422,
    title: 'No corrugated matter',
    description:
      'The organisation’s estimating catalogue has no corrugated matter to file corrugated boards or flutes under. Restore the default catalogue’s corrugated matter first.',
  },
  code_taken: {
    status: 409,
    title: 'Reference taken',
    description:
      'Another live corrugated record of the organisation already has this reference. Choose another reference or update that record.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes answered with status S (their own status or one of `alsoStatus`). */
export type CodeWithStatus<S extends ErrorStatus> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never;
}[ErrorCode];

const registry: Record<string, ErrorSpec> = ERROR_CODES;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(registry, code);

/** The statuses a code may be answered with: its own first. */
export function statusesOf(code: ErrorCode): readonly ErrorStatus[] {
  const spec = registry[code] as ErrorSpec;
  return [spec.status, ...(spec.alsoStatus ?? [])];
}

export const errorSpec = (code: ErrorCode): ErrorSpec => registry[code] as ErrorSpec;
