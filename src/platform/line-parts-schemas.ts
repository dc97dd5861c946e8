/** The API shapes of a line's parts (src/platform/line-parts.ts): quote items and order items share them. */
import { Type } from '@sinclair/typebox';
import { Nullable } from './schemas.ts';

/** A decoration variant under its line (docs/quotes.md, "Variants and tooling"); the order items carry the same shape. */
export const VariantLineSchema = Type.Object(
  {
    decorationIndex: Type.Integer({ description: 'The brief’s variant number (0..11)' }),
    name: Nullable(Type.String({ description: 'The variant’s name in the brief (null: "Variant n")' })),
    artworkReference: Nullable(Type.String({ description: 'The artwork reference given in the brief' })),
    quantity: Type.Number({
      description: 'Its share of the line quantity (the brief’s, scaled to the line)',
    }),
    amount: Nullable(
      Type.Number({
        description:
          'Its share of the line’s net goods amount, in proportion to quantity (cents; null while unpriced)',
      }),
    ),
  },
  { description: 'A decoration variant of the line' },
);

/** One tool of a line's tooling. */
export const ToolingLineSchema = Type.Object(
  {
    code: Type.String({
      description: 'The engine’s tooling code (CUTTING_DIE, FLEXO_PLATES...; TOOLING when not known)',
    }),
    name: Type.String({
      description: 'Its name in English ("Cutting die"); the app and the PDF name it per language',
    }),
    amount: Type.Number({ description: 'Its price (cents)' }),
  },
  { description: 'A tool of the line' },
);

const LineTextSchema = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String({ description: 'The specification: board · colours · finishes' })),
});

/** A line's name and description per language (src/modules/catalogue/line-names.ts). */
export const LocalisedLineSchema = Type.Object(
  { en: LineTextSchema, fr: LineTextSchema, de: LineTextSchema },
  {
    description:
      'The line’s name and description in each language of the app and the PDF: an element line is named by its style and described by its board, colours and finishes with the catalogue’s names in that language (a name typed by a user is kept as typed); other lines keep name and description',
  },
);
