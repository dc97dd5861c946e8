import { Type } from '@sinclair/typebox';
import { DIELINE_FORMATS, FORMAT_NAMES } from './negotiation.ts';

export const DieLineQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union(
        FORMAT_NAMES.map((name) => Type.Literal(name)),
        {
          description:
            'pdf (artwork template), dxf (CAD, millimetres) or cf2 (die-maker); overrides Accept. Default: Accept, else pdf',
        },
      ),
    ),
    version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'A prediction version (default: the current one)' }),
    ),
  },
  { additionalProperties: false },
);

/** The format alone (a quote item's die-line is the version it was quoted at). */
export const DieLineFormatQuery = Type.Object(
  { format: DieLineQuery.properties.format },
  { additionalProperties: false },
);

/** The whole-brief template: a PDF only. */
export const BriefTemplateQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Literal('pdf', { description: 'pdf (the only format of the whole-brief file)' }),
    ),
    version: DieLineQuery.properties.version,
  },
  { additionalProperties: false },
);

export const QuoteItemParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The quote' }),
  itemId: Type.String({ format: 'uuid', description: 'An element line of the quote' }),
});

export const PDF_RESPONSE = {
  description:
    'The PDF template of every element of the brief version, one page per element, layers as the element’s template',
  content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
};

const binary = (mediaType: string) => ({ schema: { type: 'string', contentMediaType: mediaType } });

export const DIELINE_RESPONSE = {
  description:
    'The die-line file; `Content-Disposition` names it (brief code, version, element, product, inside size) and `ETag` is a hash of its bytes',
  content: Object.fromEntries(
    Object.values(DIELINE_FORMATS).map((f) => [f.mediaType, binary(f.mediaType)]),
  ) as Record<string, ReturnType<typeof binary>>,
};

export const NOT_MODIFIED = {
  description: 'Not modified: the `If-None-Match` ETag is the current one',
  type: 'null',
};
