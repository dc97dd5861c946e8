import { type Static, Type } from '@sinclair/typebox';
import { FINDING_SEVERITIES, PREFLIGHT_STATES, PROOF_DECISIONS } from '../../db/schema/proofs.ts';
import { DateTime, Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';
import { FINDING_CODES } from './preflight.ts';

export const FindingSchema = Type.Object(
  {
    code: StringEnum(FINDING_CODES, { description: 'Stable code of the rule (docs/proofs.md)' }),
    severity: StringEnum(FINDING_SEVERITIES),
    params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
      description: 'The figures of the finding (sizes in mm, resolutions in ppi)',
    }),
  },
  { additionalProperties: false },
);

const Blank = Type.Object({ widthMm: Type.Number(), heightMm: Type.Number(), bleedMm: Type.Number() });

export const ArtworkInfoSchema = Type.Object(
  {
    kind: StringEnum(['pdf', 'png', 'jpeg', 'tiff'] as const),
    widthMm: Type.Number({ description: 'Print size of the first page, mm' }),
    heightMm: Type.Number(),
    minPpi: Nullable(Type.Number({ description: 'Lowest effective resolution of its images at print size' })),
    colourSpaces: Type.Array(Type.String()),
    outputIntent: Nullable(Type.String()),
    blank: Nullable(Blank),
  },
  { description: 'What preflight read of the artwork' },
);

export const ProofDecisionSchema = Type.Object(
  {
    decision: StringEnum(PROOF_DECISIONS),
    userId: Nullable(Uuid),
    role: Nullable(Type.String({ description: 'The role of the user, or `guest`' })),
    guestLinkId: Nullable(
      Type.String({
        format: 'uuid',
        description: 'A guest’s decision: the guest link made for proofs it came through',
      }),
    ),
    email: Nullable(Type.String({ description: 'A guest’s decision: the e-mail the guest typed' })),
    typedName: Nullable(Type.String()),
    comment: Nullable(Type.String()),
    decidedAt: Nullable(DateTime),
    ip: Nullable(Type.String()),
    userAgent: Nullable(Type.String()),
    proofSha256: Nullable(Type.String({ description: 'SHA-256 (hex) of the proof PDF decided on' })),
    hashFromClient: Type.Boolean({ description: 'Whether the client sent that hash (it matched)' }),
  },
  { description: 'The evidence of the decision' },
);

export const ProofSchema = Type.Object(
  {
    id: Uuid,
    quoteId: Uuid,
    quoteItemId: Uuid,
    version: Type.Integer({ minimum: 1 }),
    artworkFilename: Type.String(),
    artworkSha256: Type.String(),
    preflightState: StringEnum(PREFLIGHT_STATES),
    findings: Type.Array(FindingSchema),
    artwork: Nullable(ArtworkInfoSchema),
    proofSha256: Nullable(Type.String()),
    urls: Type.Object({
      artwork: Type.String(),
      proofPdf: Nullable(Type.String()),
      preview: Nullable(
        Type.String({ description: 'PNG of the artwork over the blank (?fit=page: whole page)' }),
      ),
    }),
    decision: Nullable(ProofDecisionSchema),
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'ArtworkProof', description: 'One proof version of a quote line' },
);

export const ProofLinesSchema = Type.Object(
  {
    quoteId: Uuid,
    proofsPending: Type.Integer({ description: 'Lines with artwork whose latest proof is not approved' }),
    uploadOpen: Type.Boolean({
      description: 'Whether artwork is taken now (published or signed, not an order)',
    }),
    lines: Type.Array(
      Type.Object({
        quoteItemId: Uuid,
        name: Type.String(),
        reference: Nullable(Type.String()),
        quantity: Type.Number(),
        hasTemplate: Type.Boolean({
          description: 'Whether the line has a die-line to check the artwork against',
        }),
        status: StringEnum(['none', 'awaiting_decision', 'approved', 'changes_requested'] as const),
        versions: Type.Array(Type.Ref('ArtworkProof'), { description: 'Newest first' }),
      }),
    ),
  },
  { $id: 'ArtworkProofLines' },
);

export const DecisionBody = Type.Object(
  {
    decision: StringEnum(PROOF_DECISIONS),
    typedName: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The name the buyer types as signature',
    }),
    confirm: Type.Optional(Type.Boolean({ description: 'Required true to approve' })),
    comment: Type.Optional(Type.String({ maxLength: 5000, description: 'Required to request changes' })),
    proofSha256: Type.Optional(
      Type.String({
        pattern: '^[0-9a-fA-F]{64}$',
        description: 'SHA-256 of the proof PDF as the client showed it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DecisionInput = Static<typeof DecisionBody>;

/** A guest's decision (a guest link made for proofs): the same, with the e-mail the guest types. */
export const GuestDecisionBody = Type.Object(
  {
    ...DecisionBody.properties,
    email: Type.String({
      format: 'email',
      maxLength: 254,
      description: 'The guest’s e-mail, kept with the evidence (required: the link names no person)',
    }),
  },
  { additionalProperties: false },
);
export type GuestDecisionInput = Static<typeof GuestDecisionBody>;
export const GuestProofParams = Type.Object({
  token: Type.String({ minLength: 20, maxLength: 100 }),
  proofId: Uuid,
});

export const ProofParams = Type.Object({ id: Uuid, proofId: Uuid });
export const ItemParams = Type.Object({ id: Uuid, itemId: Uuid });
export const PreviewQuery = Type.Object({
  fit: Type.Optional(StringEnum(['blank', 'page'] as const)),
});
