import { type Static, Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';

export const ReorderArticleBody = Type.Object(
  {
    quantity: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1e9,
        description: 'How many to order; default the quantity last ordered of the article, else 1',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReorderArticleInput = Static<typeof ReorderArticleBody>;

const Money = (description: string) => Nullable(Type.Number({ description }));

export const ReorderLineSchema = Type.Object({
  articleId: Uuid,
  code: Type.String(),
  name: Type.String(),
  quantity: Type.Number(),
  previousUnitPrice: Money(
    'Unit price of the order line (or of the article’s last order); null when unknown',
  ),
  unitPrice: Money(
    'Today’s unit price in the new draft; null when the article has no price (the seller prices it)',
  ),
  previousTotal: Money('quantity x previous unit price, rounded to cents'),
  total: Type.Number({ description: 'The new draft line’s total' }),
  difference: Money('total - previousTotal (null when either is unknown)'),
  differencePercent: Money('difference / previousTotal x 100, one decimal'),
});

export const ReorderSchema = Type.Object(
  {
    source: Type.Object({ type: StringEnum(['order', 'article'] as const), id: Uuid }),
    quote: Type.Object({
      id: Uuid,
      name: Type.String(),
      state: Type.String({ description: 'Always `draft`: the seller reviews and publishes it' }),
      currency: Type.String(),
      totalPrice: Type.Number(),
    }),
    currency: Type.String({ description: 'Currency of the new prices (the draft’s)' }),
    previousCurrency: Nullable(
      Type.String({ description: 'Currency of the previous prices; differences are null when it differs' }),
    ),
    lines: Type.Array(ReorderLineSchema),
    skipped: Type.Array(
      Type.Object({
        orderItemId: Uuid,
        reason: StringEnum(['no_article', 'article_unavailable'] as const),
      }),
      { description: 'Order lines not carried over: free lines without an article, archived articles' },
    ),
    previousTotal: Money('Sum of the lines’ previous totals (null when one is unknown)'),
    total: Type.Number({ description: 'Sum of the new lines’ totals' }),
    difference: Money('total - previousTotal'),
  },
  { $id: 'Reorder' },
);
