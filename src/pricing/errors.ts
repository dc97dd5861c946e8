/** A reason the engine refuses a brief, located by a JSON pointer into the brief input. */
export interface PricingIssue {
  /** e.g. `/briefElements/0/lengthDimension` (array index, not element position). */
  pointer: string;
  message: string;
}

export type PricingErrorCode = 'INVALID_BRIEF';

/** Thrown by priceBrief/analyseValue when the brief cannot be priced; `issues` says why and where. */
export class PricingError extends Error {
  readonly code: PricingErrorCode;
  readonly issues: PricingIssue[];

  constructor(code: PricingErrorCode, issues: PricingIssue[]) {
    const first = issues[0];
    super(
      first
        ? `${first.pointer}: ${first.message}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ''}`
        : code,
    );
    this.name = 'PricingError';
    this.code = code;
    this.issues = issues;
  }
}
