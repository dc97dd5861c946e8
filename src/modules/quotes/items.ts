/**
 * Quote items from what a request names: briefs (a parent item and one child per element),
 * single brief elements (placed under their brief's parent item) and catalogue articles, each
 * priced from the brief's current prediction or the article unless a price is sent.
 */

import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../../db/client.ts';
import type { LineSpecification, LineTooling, LineVariant } from '../../db/schema/line-parts.ts';
import type { PriceSource, quoteItems } from '../../db/schema/quotes.ts';
import { AppError, badRequest, type ProblemIssue } from '../../platform/errors.ts';
import { roundCents, roundUnitPrice } from '../../platform/money.ts';
import { invalidReference } from '../../platform/references.ts';
import type { Catalogue } from '../../pricing/index.ts';
import { specificationText } from '../catalogue/line-names.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import {
  liveArticles,
  liveBriefs,
  liveElements,
  liveElementsOfBriefs,
  type PredictionPrices,
  type SelectedVariant,
  type SourceBrief,
  type SourceElement,
  selectedVariants,
} from './brief-source-repository.ts';
import { amountOfUnitPrice, derivedUnitPrice, discountOf, lineTotal } from './line-money.ts';
import { briefParentItems, nextPosition, type QuoteItemRow } from './repository.ts';
import type { ItemInput } from './schemas.ts';

export type NewItem = typeof quoteItems.$inferInsert & { id: string };

/** The quote items are added to. */
export type QuoteTarget = { id: string; organisationId: string; companyId: string; currency: string };

export type ItemsRequest = { briefIds?: string[]; items?: ItemInput[] };

/** Where the request's lists are, for error pointers. */
export type RequestPointers = { briefIds: string; items: string };

export type Pricing = Pick<
  NewItem,
  | 'quantity'
  | 'price'
  | 'amount'
  | 'enginePrice'
  | 'engineAmount'
  | 'engineCost'
  | 'totalPrice'
  | 'toolingCost'
  | 'deliveryCost'
  | 'valid'
  | 'priceSource'
  | 'predictionId'
  | 'briefVersion'
  | 'tooling'
>;

/** What the engine says of an element at a quantity: its money in cents, the unit price derived. */
export type EnginePrice = {
  quantity: number;
  amount: number;
  cost: number | null;
  tooling: number;
  delivery: number;
  /** The tools `tooling` pays for, when the engine said (null: not known). */
  toolingLines?: LineTooling[] | null;
};

export const engineOfVariant = (variant: SelectedVariant): EnginePrice => ({
  quantity: variant.quantity,
  amount: roundCents(variant.productPrice),
  cost: Number.isFinite(variant.productCost) ? roundCents(variant.productCost) : null,
  tooling: roundCents(variant.toolingCost),
  delivery: roundCents(variant.deliveryCost),
  toolingLines: variant.tooling,
});

/**
 * The pricing of an element line from the engine's price at its quantity (rounding rule,
 * line-money.ts): the goods amount is the engine's product price in cents, the unit price is
 * derived from it. A manual unit price replaces the amount (quantity x price, rounded once) and
 * keeps the engine's beside it.
 */
export function pricingOfEngine(
  engine: EnginePrice,
  predictionId: string | null,
  manualPrice?: number | null,
  discount = 0,
  briefVersion: number | null = null,
): Pricing {
  const enginePrice = derivedUnitPrice(engine.amount, engine.quantity);
  const manual = manualPrice !== undefined && manualPrice !== null;
  const price = manual ? roundUnitPrice(manualPrice) : enginePrice;
  const amount = manual ? amountOfUnitPrice(engine.quantity, price) : engine.amount;
  return {
    quantity: engine.quantity,
    price,
    amount,
    enginePrice,
    engineAmount: engine.amount,
    engineCost: engine.cost,
    totalPrice: lineTotal(amount, engine.tooling, engine.delivery, discount),
    toolingCost: engine.tooling,
    deliveryCost: engine.delivery,
    tooling: engine.toolingLines ?? null,
    valid: true,
    priceSource: manual ? 'manual' : 'prediction',
    predictionId,
    briefVersion,
  };
}

/**
 * The price of an element item. From the brief's current prediction when it is COMPLETED, in the
 * quote's currency, and for the quantity it priced (the element's total quantity): the selected
 * variant's product price, tooling and delivery. A price sent in the request wins (`manual`, valid).
 * Otherwise the item is not valid (no price yet, or a quantity the prediction did not price).
 */
export function priceElement(
  element: Pick<SourceElement, 'position' | 'quantity'>,
  brief: Pick<SourceBrief, 'predictionStatus' | 'currentPredictionId'>,
  prices: PredictionPrices | undefined,
  currency: string,
  input: { quantity?: number; price?: number } = {},
): Pricing {
  const completed =
    brief.predictionStatus === 'COMPLETED' && brief.currentPredictionId !== null && prices !== undefined;
  const variant =
    completed && prices.currency === currency ? prices.variants.get(element.position) : undefined;
  const quantity = input.quantity ?? variant?.quantity ?? element.quantity;
  // The die-line of the line is the version current when it is quoted (priced from it or not).
  const briefVersion = completed ? prices.version : null;
  if (variant && quantity === variant.quantity) {
    return pricingOfEngine(engineOfVariant(variant), brief.currentPredictionId, input.price, 0, briefVersion);
  }
  if (input.price !== undefined) {
    const price = roundUnitPrice(input.price);
    const amount = amountOfUnitPrice(quantity, price);
    return {
      quantity,
      price,
      amount,
      enginePrice: null,
      engineAmount: null,
      engineCost: null,
      totalPrice: lineTotal(amount, 0, 0),
      toolingCost: 0,
      deliveryCost: 0,
      tooling: null,
      valid: true,
      priceSource: 'manual',
      predictionId: null,
      briefVersion,
    };
  }
  return {
    quantity,
    price: null,
    amount: null,
    enginePrice: null,
    engineAmount: null,
    engineCost: null,
    totalPrice: 0,
    toolingCost: 0,
    deliveryCost: 0,
    tooling: null,
    valid: false,
    priceSource: 'prediction',
    predictionId: null,
    briefVersion,
  };
}

/** The decoration variants of an element as a line keeps them (their quantities are the brief's). */
export const variantsOfElement = (element: Pick<SourceElement, 'decorationsCount'>): LineVariant[] =>
  (element.decorationsCount ?? []).map((d) => ({
    decorationIndex: d.decorationIndex,
    name: d.name ?? null,
    artworkReference: d.artworkReference ?? null,
    quantity: d.quantity,
  }));

/** The finishes of an element, as the operation codes of the catalogue that make them. */
export function finishesOf(
  element: Pick<
    SourceElement,
    | 'wantVarnishRecto'
    | 'wantLaminationRecto'
    | 'wantStampingRecto'
    | 'wantEmbossingDebossingRecto'
    | 'wantWindow'
  >,
): string[] {
  return [
    element.wantLaminationRecto ? 'LAMINATION' : null,
    element.wantVarnishRecto ? 'VARNISH' : null,
    element.wantStampingRecto ? 'HOT_FOIL_STAMPING' : null,
    element.wantEmbossingDebossingRecto ? 'EMBOSSING' : null,
    element.wantWindow ? 'WINDOW_PATCHING' : null,
  ].filter((code): code is string => code !== null);
}

export { specificationText } from '../catalogue/line-names.ts';

/** Name, description and specification of an element: product and board from the catalogue, colours, finishes. */
export function describeElement(
  element: SourceElement,
  catalogue: Catalogue | undefined,
  fallbackName: string | null | undefined,
) {
  const product = element.productId ? catalogue?.products.find((p) => p.id === element.productId) : undefined;
  const specification: LineSpecification = {
    productId: product?.id ?? null,
    materialReferenceId: element.materialReferenceId ?? null,
    colours: element.wantDecoration
      ? `${element.rectoColorCount ?? 0}/${element.versoColorCount ?? 0}`
      : null,
    finishes: finishesOf(element),
  };
  return {
    name: product?.name ?? fallbackName ?? `Element ${element.position + 1}`,
    description: specificationText(specification, catalogue),
    specification,
  };
}

const companyMismatch = (pointer: string, what: string) =>
  new AppError('company_mismatch', `The ${what} belongs to another company than the quote`, {
    issues: [{ pointer, message: `is a ${what} of another company than the quote`, in: 'body' }],
  });

/** Checks the shape of each requested item (400 with pointers): what the schema cannot say. */
export function checkItemShapes(items: ItemInput[], pointer: string) {
  const issues: ProblemIssue[] = [];
  items.forEach((item, i) => {
    const at = `${pointer}/${i}`;
    const briefRef = item.briefId !== undefined || item.briefElementId !== undefined;
    if (!briefRef && item.articleId === undefined) {
      issues.push({
        pointer: at,
        message: 'needs a brief reference (briefId or briefElementId) or an articleId',
        in: 'body',
      });
      return;
    }
    if (briefRef && item.articleId !== undefined) {
      issues.push({
        pointer: `${at}/articleId`,
        message:
          'cannot be sent with briefId or briefElementId: an item is either a brief line or an article line',
        in: 'body',
      });
    }
    if (item.articleId !== undefined && item.quantity === undefined) {
      issues.push({ pointer: `${at}/quantity`, message: 'is required for an article item', in: 'body' });
    }
    if (item.briefId !== undefined && item.briefElementId === undefined) {
      for (const field of ['quantity', 'price'] as const) {
        if (item[field] !== undefined) {
          issues.push({
            pointer: `${at}/${field}`,
            message: 'applies to an element or an article item, not to a whole brief (send briefElementId)',
            in: 'body',
          });
        }
      }
    }
  });
  if (issues.length) throw badRequest('Some quote items are not valid', issues);
}

/**
 * Builds the rows of the requested items for a quote: all references checked (422 with pointers),
 * priced, positioned after the quote's existing items. Inserting them is the caller's job.
 */
export async function buildItems(
  db: Executor,
  quote: QuoteTarget,
  request: ItemsRequest,
  pointers: RequestPointers,
  createdById: string,
): Promise<NewItem[]> {
  const org = quote.organisationId;
  const items = request.items ?? [];
  const briefIds = request.briefIds ?? [];
  checkItemShapes(items, pointers.items);

  // Every brief named, whole (briefIds, items with briefId only) or through one of its elements.
  const elementIds = [...new Set(items.flatMap((i) => (i.briefElementId ? [i.briefElementId] : [])))];
  const elementRows = await liveElements(db, org, elementIds);
  const elementsById = new Map(elementRows.map((e) => [e.id, e]));
  items.forEach((item, i) => {
    if (!item.briefElementId) return;
    const at = `${pointers.items}/${i}/briefElementId`;
    const element = elementsById.get(item.briefElementId);
    if (!element) throw invalidReference(at, 'brief element');
    if (!element.briefId) {
      throw new AppError(
        'standalone_element',
        'A standalone element (of an article) is quoted through its article',
        {
          issues: [
            { pointer: at, message: 'is not an element of a brief: quote the article instead', in: 'body' },
          ],
        },
      );
    }
    if (item.briefId && item.briefId !== element.briefId) {
      throw new AppError('element_not_in_brief', 'The element does not belong to the brief', {
        issues: [{ pointer: at, message: 'is not an element of briefId', in: 'body' }],
      });
    }
  });
  const wholeBriefs: { briefId: string; pointer: string; comment?: string }[] = [
    ...briefIds.map((briefId, i) => ({ briefId, pointer: `${pointers.briefIds}/${i}` })),
    ...items.flatMap((item, i) =>
      item.briefId && !item.briefElementId
        ? [{ briefId: item.briefId, pointer: `${pointers.items}/${i}/briefId`, comment: item.comment }]
        : [],
    ),
  ];
  const allBriefIds = [
    ...new Set([...wholeBriefs.map((w) => w.briefId), ...elementRows.map((e) => e.briefId!)]),
  ];
  const briefRows = await liveBriefs(db, org, allBriefIds);
  const briefsById = new Map(briefRows.map((b) => [b.id, b]));
  const pointerOfBrief = new Map<string, string>();
  for (const whole of wholeBriefs)
    if (!pointerOfBrief.has(whole.briefId)) pointerOfBrief.set(whole.briefId, whole.pointer);
  items.forEach((item, i) => {
    const element = item.briefElementId ? elementsById.get(item.briefElementId) : undefined;
    if (element && !pointerOfBrief.has(element.briefId!))
      pointerOfBrief.set(element.briefId!, `${pointers.items}/${i}/briefElementId`);
  });
  for (const briefId of allBriefIds) {
    const brief = briefsById.get(briefId);
    const pointer = pointerOfBrief.get(briefId)!;
    if (!brief) throw invalidReference(pointer, 'brief');
    if (brief.companyId !== quote.companyId) throw companyMismatch(pointer, 'brief');
  }

  // A brief is quoted once: a second whole brief would repeat every line.
  const existingParents = await briefParentItems(db, quote.id, allBriefIds);
  const parentOfBrief = new Map(existingParents.map((p) => [p.briefId!, p.id]));
  const seenWhole = new Set<string>();
  for (const whole of wholeBriefs) {
    if (parentOfBrief.has(whole.briefId) || seenWhole.has(whole.briefId)) {
      throw new AppError(
        'brief_already_in_quote',
        `The brief is already in the quote (${whole.pointer}); add single elements with briefElementId`,
      );
    }
    seenWhole.add(whole.briefId);
  }

  const articleIds = [...new Set(items.flatMap((i) => (i.articleId ? [i.articleId] : [])))];
  const articleRows = await liveArticles(db, org, articleIds);
  const articlesById = new Map(articleRows.map((a) => [a.id, a]));
  items.forEach((item, i) => {
    if (!item.articleId) return;
    const at = `${pointers.items}/${i}/articleId`;
    const article = articlesById.get(item.articleId);
    if (!article) throw invalidReference(at, 'article');
    if (!article.enabled) {
      throw new AppError('article_disabled', 'A disabled article cannot be quoted', {
        issues: [{ pointer: at, message: 'is a disabled article', in: 'body' }],
      });
    }
    if (article.companyId !== quote.companyId) throw companyMismatch(at, 'article');
  });

  const wholeElements = await liveElementsOfBriefs(db, [...seenWhole]);
  const predictionIds = [
    ...new Set(
      briefRows.flatMap((b) =>
        b.predictionStatus === 'COMPLETED' && b.currentPredictionId ? [b.currentPredictionId] : [],
      ),
    ),
  ];
  const [prices, catalogue] = await Promise.all([
    selectedVariants(db, predictionIds),
    elementRows.length || wholeElements.length ? loadCatalogue(db, org) : Promise.resolve(undefined),
  ]);

  const rows: NewItem[] = [];
  let rootPosition = await nextPosition(db, quote.id, null);
  const childPositions = new Map<string, number>();
  const base = { organisationId: org, quoteId: quote.id, createdById };

  const elementRow = (
    element: SourceElement,
    brief: SourceBrief,
    parentId: string,
    position: number,
    input: ItemInput | undefined,
  ): NewItem => {
    const pricesOf = brief.currentPredictionId ? prices.get(brief.currentPredictionId) : undefined;
    const pricing = priceElement(element, brief, pricesOf, quote.currency, input);
    const variantName = pricesOf?.variants.get(element.position)?.productName;
    return {
      ...base,
      id: uuidv7(),
      parentId,
      position,
      briefId: brief.id,
      briefElementId: element.id,
      elementPosition: element.position,
      articleId: null,
      reference: null,
      ...describeElement(element, catalogue, variantName),
      ...pricing,
      variants: variantsOfElement(element),
      comment: input?.comment ?? null,
      length: element.lengthDimension,
      width: element.widthDimension,
      height: element.heightDimension,
    };
  };

  const parentRow = (brief: SourceBrief, comment?: string): NewItem => ({
    ...base,
    id: uuidv7(),
    parentId: null,
    position: rootPosition++,
    briefId: brief.id,
    briefElementId: null,
    articleId: null,
    reference: brief.code,
    name: brief.name,
    description: null,
    quantity: 1,
    price: null,
    amount: null,
    totalPrice: 0,
    toolingCost: 0,
    deliveryCost: 0,
    valid: false,
    priceSource: null,
    predictionId: null,
    comment: comment ?? null,
  });

  const addWhole = (briefId: string, comment?: string) => {
    const brief = briefsById.get(briefId)!;
    const parent = parentRow(brief, comment);
    rows.push(parent);
    parentOfBrief.set(briefId, parent.id);
    childPositions.set(parent.id, 1);
    for (const element of wholeElements.filter((e) => e.briefId === briefId)) {
      const position = childPositions.get(parent.id)!;
      childPositions.set(parent.id, position + 1);
      rows.push(elementRow(element, brief, parent.id, position, undefined));
    }
  };

  for (const briefId of briefIds) addWhole(briefId);
  for (const item of items) {
    if (item.briefId && !item.briefElementId) {
      addWhole(item.briefId, item.comment);
    } else if (item.briefElementId) {
      const element = elementsById.get(item.briefElementId)!;
      const brief = briefsById.get(element.briefId!)!;
      let parentId = parentOfBrief.get(brief.id);
      if (!parentId) {
        const parent = parentRow(brief);
        rows.push(parent);
        parentId = parent.id;
        parentOfBrief.set(brief.id, parentId);
        childPositions.set(parentId, 1);
      }
      if (!childPositions.has(parentId))
        childPositions.set(parentId, await nextPosition(db, quote.id, parentId));
      const position = childPositions.get(parentId)!;
      childPositions.set(parentId, position + 1);
      rows.push(elementRow(element, brief, parentId, position, item));
    } else if (item.articleId) {
      const article = articlesById.get(item.articleId)!;
      const quantity = item.quantity!;
      const sent = item.price !== undefined;
      const articlePrice = article.price === null ? null : roundUnitPrice(article.price);
      const price = sent ? roundUnitPrice(item.price!) : articlePrice;
      const amount = price === null ? null : amountOfUnitPrice(quantity, price);
      rows.push({
        ...base,
        id: uuidv7(),
        parentId: null,
        position: rootPosition++,
        briefId: null,
        briefElementId: null,
        articleId: article.id,
        reference: article.code,
        name: article.name,
        description: article.description,
        quantity,
        price,
        amount,
        enginePrice: articlePrice,
        engineAmount: articlePrice === null ? null : amountOfUnitPrice(quantity, articlePrice),
        engineCost: null,
        totalPrice: lineTotal(amount, 0, 0),
        toolingCost: 0,
        deliveryCost: 0,
        valid: price !== null,
        priceSource: (sent ? 'manual' : 'article') as PriceSource,
        predictionId: null,
        comment: item.comment ?? null,
      });
    }
  }
  return rows;
}

/**
 * Prices again the element items that are not valid yet from their brief's current prediction
 * (a brief priced since the item was added). Manual prices and valid items are left alone.
 * Returns the items that became valid, with their new pricing.
 */
export async function repriceInvalidItems(
  db: Executor,
  quote: QuoteTarget,
  items: QuoteItemRow[],
): Promise<{ item: QuoteItemRow; pricing: Pricing }[]> {
  const candidates = items.filter((i) => i.briefElementId && !i.valid && i.priceSource !== 'manual');
  if (!candidates.length) return [];
  const elements = await liveElements(
    db,
    quote.organisationId,
    candidates.map((i) => i.briefElementId!),
  );
  const elementsById = new Map(elements.map((e) => [e.id, e]));
  const briefRows = await liveBriefs(db, quote.organisationId, [
    ...new Set(elements.flatMap((e) => (e.briefId ? [e.briefId] : []))),
  ]);
  const briefsById = new Map(briefRows.map((b) => [b.id, b]));
  const prices = await selectedVariants(
    db,
    briefRows.flatMap((b) =>
      b.predictionStatus === 'COMPLETED' && b.currentPredictionId ? [b.currentPredictionId] : [],
    ),
  );
  const result: { item: QuoteItemRow; pricing: Pricing }[] = [];
  for (const item of candidates) {
    const element = elementsById.get(item.briefElementId!);
    const brief = element?.briefId ? briefsById.get(element.briefId) : undefined;
    if (!element || !brief) continue;
    const pricing = priceElement(
      element,
      brief,
      brief.currentPredictionId ? prices.get(brief.currentPredictionId) : undefined,
      quote.currency,
      { quantity: item.quantity },
    );
    if (!pricing.valid) continue;
    // A discount set while the line had no price applies to the price it gets now.
    const discount = discountOf(pricing.amount ?? 0, item);
    if (discount) {
      pricing.totalPrice = lineTotal(
        pricing.amount ?? null,
        pricing.toolingCost ?? 0,
        pricing.deliveryCost ?? 0,
        discount,
      );
    }
    result.push({ item, pricing });
  }
  return result;
}

/** Item fields as the API shows them, children under their parent. */
export function itemTree(rows: QuoteItemRow[]) {
  const byPosition = (a: QuoteItemRow, b: QuoteItemRow) => a.position - b.position || (a.id < b.id ? -1 : 1);
  const children = new Map<string, QuoteItemRow[]>();
  for (const row of rows) {
    if (!row.parentId) continue;
    const list = children.get(row.parentId) ?? [];
    list.push(row);
    children.set(row.parentId, list);
  }
  return rows
    .filter((r) => !r.parentId)
    .sort(byPosition)
    .map((root) => ({ ...root, children: (children.get(root.id) ?? []).sort(byPosition) }));
}
