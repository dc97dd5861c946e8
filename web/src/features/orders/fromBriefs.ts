import { ApiError } from '../../api/client.ts';
import { type ArticleCreate, articleApi } from '../articles/api.ts';
import { briefApi } from '../briefs/api/index.ts';
import type { BulkItem } from './api/index.ts';

export type { BulkItem };

/**
 * The items that put a brief on an order, as a signed quote does (src/modules/quotes/service.ts):
 * an order item names an article, not a brief, so each element goes through the article linked to
 * it (the company's article of that element, or a new one with the element's latest unit price);
 * a brief of several elements becomes a kit: a parent item (quantity 1, total 0) and one child per
 * element with the element's quantity.
 */
export async function briefItems(briefId: string, companyId: string): Promise<BulkItem[]> {
  const brief = await briefApi.get(briefId);
  const elements = brief.briefElements ?? [];
  const kit = elements.length > 1;
  const items: BulkItem[] = kit ? [{ ref: brief.id, quantity: 1, totalPrice: 0, unit: 'kit' }] : [];
  for (const element of elements) {
    const articleId = await articleOf(brief, element, companyId);
    items.push({
      ...(kit ? { parentRef: brief.id } : {}),
      articleId,
      quantity: element.quantity || element.briefElementPrice?.quantity || 1,
      unit: 'pieces',
      position: element.position,
    });
  }
  return items;
}

type Brief = { code: string; name: string };
type Element = { id: string; position: number; briefElementPrice?: { unitPrice: number } | null };

async function articleOf(brief: Brief, element: Element, companyId: string): Promise<string> {
  const found = await articleApi.list({ briefElementId: element.id, companyId, limit: 1, page: 1 });
  if (found.data[0]) return found.data[0].id;
  const body: ArticleCreate = {
    name: elementsName(brief, element),
    code: `${brief.code}-${element.position + 1}`,
    companyId,
    briefElementId: element.id,
    price: element.briefElementPrice?.unitPrice ?? null,
  };
  try {
    return (await articleApi.create(body)).id;
  } catch (error) {
    // The code is taken by another article: keep the brief's code recognisable, make it unique.
    if (!(error instanceof ApiError && error.problem.status === 409)) throw error;
    const code = `${body.code}-${Date.now().toString(36)}`;
    return (await articleApi.create({ ...body, code })).id;
  }
}

const elementsName = (brief: Brief, element: Element) => `${brief.name} · ${element.position + 1}`;
