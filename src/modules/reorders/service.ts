import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { type Actor, assertCompanyVisible } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { roundCents } from '../../platform/money.ts';
import type { OrderService } from '../orders/service.ts';
import type { QuoteService } from '../quotes/service.ts';
import { lastOrderLineOf, liveArticlesOf } from './repository.ts';
import type { ReorderArticleInput, ReorderSchema } from './schemas.ts';

type Reorder = Static<typeof ReorderSchema>;
type Source = { articleId: string; quantity: number; previousUnitPrice: number | null };

const pct = (difference: number, previous: number) =>
  previous === 0 ? null : Math.round((difference / previous) * 1000) / 10;

/**
 * "Order again" (docs/portal.md): a new DRAFT quote for the same articles and quantities, each
 * priced at today's article price (the quote module's own pricing of article lines), with the
 * previous prices beside the new ones. The draft is the seller's to review and publish; the buyer
 * who asked for it follows it in the portal (a contact sees the drafts they created).
 */
export function createReorderService(
  _ctx: Pick<AppContext, 'db'>,
  deps: { quotes: QuoteService; orders: OrderService },
) {
  const { quotes, orders } = deps;

  async function draft(
    actor: Actor,
    source: Reorder['source'],
    companyId: string,
    lines: Source[],
    previousCurrency: string | null,
    skipped: Reorder['skipped'],
  ): Promise<Reorder> {
    const quote = await quotes.create(actor, {
      companyId,
      ...(actor.role === 'contact' ? { contactId: actor.userId } : {}),
      items: lines.map((l) => ({ articleId: l.articleId, quantity: l.quantity })),
    });
    const roots = quote.items.filter((item) => !item.parentId);
    const comparable = previousCurrency === null || previousCurrency === quote.currency;
    const out = lines.map((line, i) => {
      const item = roots[i]!;
      const previousTotal =
        line.previousUnitPrice === null ? null : roundCents(line.previousUnitPrice * line.quantity);
      const total = roundCents(item.totalPrice ?? 0);
      const difference =
        previousTotal === null || !comparable || item.price === null
          ? null
          : roundCents(total - previousTotal);
      return {
        articleId: line.articleId,
        code: item.reference ?? '',
        name: item.name,
        quantity: line.quantity,
        previousUnitPrice: line.previousUnitPrice,
        unitPrice: item.price ?? null,
        previousTotal,
        total,
        difference,
        differencePercent:
          difference === null || previousTotal === null ? null : pct(difference, previousTotal),
      };
    });
    const known = out.every((l) => l.previousTotal !== null && l.difference !== null);
    const previousTotal = known ? roundCents(out.reduce((sum, l) => sum + l.previousTotal!, 0)) : null;
    const total = roundCents(out.reduce((sum, l) => sum + l.total, 0));
    return {
      source,
      quote: {
        id: quote.id,
        name: quote.name,
        state: quote.state,
        currency: quote.currency,
        totalPrice: quote.totalPrice,
      },
      currency: quote.currency,
      previousCurrency,
      lines: out,
      skipped,
      previousTotal,
      total,
      difference: previousTotal === null ? null : roundCents(total - previousTotal),
    };
  }

  return {
    /** POST /orders/{id}/reorder: the order's article lines again, at today's prices. */
    async fromOrder(actor: Actor, orderId: string): Promise<Reorder> {
      const order = await orders.get(actor, orderId);
      if (!order.actualDeliveryDate) {
        throw new AppError('order_not_delivered', 'Only a delivered order can be ordered again');
      }
      if (!order.companyId) throw notFound('Order');
      // The order's own lines: kit or group children come with their parent's article line.
      const roots = order.items.filter((item) => !item.parentId);
      const live = new Map(
        (
          await liveArticlesOf(
            _ctx.db,
            actor.organisationId,
            roots.flatMap((i) => (i.articleId ? [i.articleId] : [])),
          )
        ).map((a) => [a.id, a]),
      );
      const skipped: Reorder['skipped'] = [];
      const lines: Source[] = [];
      for (const item of roots) {
        if (!item.articleId) skipped.push({ orderItemId: item.id, reason: 'no_article' });
        else if (!live.has(item.articleId) || live.get(item.articleId)!.companyId !== order.companyId)
          skipped.push({ orderItemId: item.id, reason: 'article_unavailable' });
        else
          lines.push({
            articleId: item.articleId,
            quantity: item.quantity,
            previousUnitPrice: item.unitPrice ?? (item.quantity > 0 ? item.totalPrice / item.quantity : null),
          });
      }
      if (!lines.length) {
        throw new AppError('nothing_to_reorder', 'None of the order’s lines is a live article');
      }
      return draft(
        actor,
        { type: 'order', id: order.id },
        order.companyId,
        lines,
        order.currency?.code ?? null,
        skipped,
      );
    },

    /** POST /articles/{id}/reorder: one article, at today's price, beside its last ordered price. */
    async fromArticle(actor: Actor, articleId: string, input: ReorderArticleInput): Promise<Reorder> {
      const [article] = await liveArticlesOf(_ctx.db, actor.organisationId, [articleId]);
      if (!article) throw notFound('Article');
      assertCompanyVisible(actor, article.companyId, 'Article');
      const last = await lastOrderLineOf(_ctx.db, actor, article.id);
      const quantity = input.quantity ?? last?.quantity ?? 1;
      const previousUnitPrice = last
        ? (last.unitPrice ?? (last.quantity > 0 ? last.totalPrice / last.quantity : null))
        : null;
      return draft(
        actor,
        { type: 'article', id: article.id },
        article.companyId,
        [{ articleId: article.id, quantity, previousUnitPrice }],
        last?.currency ?? null,
        [],
      );
    },
  };
}

export type ReorderService = ReturnType<typeof createReorderService>;
