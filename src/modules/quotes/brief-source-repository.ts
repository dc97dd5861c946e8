/**
 * What quotes read of briefs: the briefs, their live elements and, from the stored predictions,
 * only the parts a quote needs (the selected variant of each element, the die-lines). The
 * predictions' jsonb is picked apart in SQL so that the large outputs never leave the database.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
import { briefElements, briefs } from '../../db/schema/briefs.ts';
import type { LineTooling } from '../../db/schema/line-parts.ts';
import { articles } from '../../db/schema/orders.ts';
import { toolingOfCostLines } from '../../platform/line-parts.ts';
import type { DieLine } from '../../pricing/index.ts';

export type SourceBrief = {
  id: string;
  code: string;
  name: string;
  companyId: string;
  predictionStatus: string;
  hasPrice: boolean;
  currentPredictionId: string | null;
};

export type SourceElement = typeof briefElements.$inferSelect;

export type SelectedVariant = {
  position: number;
  unitPrice: number;
  /** The engine's product price and cost for the quantity (cents, tooling and delivery apart). */
  productPrice: number;
  productCost: number;
  toolingCost: number;
  deliveryCost: number;
  quantity: number;
  productName: string | null;
  /** The tools the tooling cost pays for (its cost breakdown's tooling lines, by code). */
  tooling: LineTooling[];
};

/** The selected variants of a prediction, with its currency and version. */
export type PredictionPrices = { currency: string; version: number; variants: Map<number, SelectedVariant> };

export async function liveBriefs(
  db: Executor,
  organisationId: string,
  ids: string[],
): Promise<SourceBrief[]> {
  if (!ids.length) return [];
  return db
    .select({
      id: briefs.id,
      code: briefs.code,
      name: briefs.name,
      companyId: briefs.companyId,
      predictionStatus: briefs.predictionStatus,
      hasPrice: briefs.hasPrice,
      currentPredictionId: briefs.currentPredictionId,
    })
    .from(briefs)
    .where(and(inArray(briefs.id, ids), eq(briefs.organisationId, organisationId), isNull(briefs.deletedAt)));
}

/** The live brief of the organisation, whole (a quantity edit prices it again). */
export async function findLiveBrief(db: Executor, organisationId: string, id: string) {
  const [brief] = await db
    .select()
    .from(briefs)
    .where(and(eq(briefs.id, id), eq(briefs.organisationId, organisationId), isNull(briefs.deletedAt)));
  return brief;
}

/** The live catalogue articles of the organisation among `ids` (what a quote line takes of them). */
export async function liveArticles(db: Executor, organisationId: string, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({
      id: articles.id,
      companyId: articles.companyId,
      code: articles.code,
      name: articles.name,
      description: articles.description,
      price: articles.price,
      enabled: articles.enabled,
    })
    .from(articles)
    .where(
      and(inArray(articles.id, ids), eq(articles.organisationId, organisationId), isNull(articles.deletedAt)),
    );
}

/** The live elements of these briefs, by brief then position. */
export function liveElementsOfBriefs(db: Executor, briefIds: string[]): Promise<SourceElement[]> {
  if (!briefIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(briefElements)
    .where(and(inArray(briefElements.briefId, briefIds), isNull(briefElements.deletedAt)))
    .orderBy(asc(briefElements.briefId), asc(briefElements.position), asc(briefElements.id));
}

/** Live elements of the organisation among `ids` (standalone ones included: briefId null). */
export function liveElements(db: Executor, organisationId: string, ids: string[]): Promise<SourceElement[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .select()
    .from(briefElements)
    .where(
      and(
        inArray(briefElements.id, ids),
        eq(briefElements.organisationId, organisationId),
        isNull(briefElements.deletedAt),
      ),
    );
}

/** The selected variant of each element of these predictions (the prices a quote takes). */
export async function selectedVariants(
  db: Executor,
  predictionIds: string[],
): Promise<Map<string, PredictionPrices>> {
  const result = new Map<string, PredictionPrices>();
  if (!predictionIds.length) return result;
  const rows = rowsOf<{
    id: string;
    currency: string;
    version: number;
    position: number;
    unit_price: number;
    product_price: number | null;
    product_cost: number | null;
    tooling_cost: number;
    delivery_cost: number;
    quantity: number;
    product_name: string | null;
    tooling_lines: { code: string; label: string; amount: number }[] | string | null;
  }>(
    await db.execute(sql`
      select p.id, p.currency, p.version, (v->>'position')::int as position, (v->>'unitPrice')::float8 as unit_price,
        (v->>'productPrice')::float8 as product_price, (v->>'productCost')::float8 as product_cost,
        (v->>'toolingCost')::float8 as tooling_cost, (v->>'deliveryCost')::float8 as delivery_cost,
        (v->>'quantity')::float8 as quantity, v->'parts'->>'1' as product_name,
        v->'costBreakdown'->'tooling'->'lines' as tooling_lines
      from brief_predictions p
      cross join lateral jsonb_array_elements(p.output->'briefPrice'->'predictionRequestsComputed') v
      where p.id in (${sql.join(
        predictionIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and (v->>'selected')::boolean`),
  );
  for (const row of rows) {
    let prices = result.get(row.id);
    if (!prices) {
      prices = { currency: row.currency, version: Number(row.version), variants: new Map() };
      result.set(row.id, prices);
    }
    prices.variants.set(Number(row.position), {
      position: Number(row.position),
      unitPrice: Number(row.unit_price),
      // Predictions stored before the engine gave productPrice: quantity x unit price.
      productPrice:
        row.product_price === null
          ? Number(row.unit_price) * Number(row.quantity)
          : Number(row.product_price),
      productCost: row.product_cost === null ? Number.NaN : Number(row.product_cost),
      toolingCost: Number(row.tooling_cost),
      deliveryCost: Number(row.delivery_cost),
      quantity: Number(row.quantity),
      productName: row.product_name,
      tooling: toolingOfCostLines(
        typeof row.tooling_lines === 'string' ? JSON.parse(row.tooling_lines) : row.tooling_lines,
      ),
    });
  }
  return result;
}

export type ElementDrawing = {
  position: number;
  productCode: string | null;
  dieLine: DieLine;
  /** The prediction's version, and the inside size the element was priced at (file names). */
  version: number;
  inside: { lengthDimension: number; widthDimension: number; heightDimension: number } | null;
};

/** The die-line of each element of these predictions, by prediction id then element position. */
export async function dieLinesOf(
  db: Executor,
  predictionIds: string[],
): Promise<Map<string, Map<number, ElementDrawing>>> {
  const result = new Map<string, Map<number, ElementDrawing>>();
  if (!predictionIds.length) return result;
  const rows = rowsOf<{
    id: string;
    position: number;
    product_code: string | null;
    die_line: DieLine | string;
    version: number;
    length: number | null;
    width: number | null;
    height: number | null;
  }>(
    await db.execute(sql`
      select p.id, (e->>'position')::int as position, e->>'productCode' as product_code, e->'dieLine' as die_line,
        p.version, (i->>'lengthDimension')::float8 as length, (i->>'widthDimension')::float8 as width,
        (i->>'heightDimension')::float8 as height
      from brief_predictions p
      cross join lateral jsonb_array_elements(p.output->'briefComputed'->'briefElements') e
      left join lateral (
        select x as i from jsonb_array_elements(p.input->'briefElements') x
        where (x->>'position')::int = (e->>'position')::int limit 1
      ) input on true
      where p.id in (${sql.join(
        predictionIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and e->'dieLine' is not null`),
  );
  for (const row of rows) {
    const byPosition = result.get(row.id) ?? new Map<number, ElementDrawing>();
    result.set(row.id, byPosition);
    const dieLine = typeof row.die_line === 'string' ? (JSON.parse(row.die_line) as DieLine) : row.die_line;
    byPosition.set(Number(row.position), {
      position: Number(row.position),
      productCode: row.product_code,
      dieLine,
      version: Number(row.version),
      inside:
        row.length === null || row.width === null
          ? null
          : {
              lengthDimension: Number(row.length),
              widthDimension: Number(row.width),
              heightDimension: Number(row.height ?? 0),
            },
    });
  }
  return result;
}
