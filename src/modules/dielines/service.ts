/**
 * The die-line files of a brief element (brief, or one of its versions): the element's die-line
 * as priced, drawn by the pure writers (drawing.ts, pdf.ts, dxf.ts, cf2.ts), named so a person can
 * file them, with a strong ETag over the bytes. The files hold no cost: anyone who may read the
 * brief (its company's contacts included) may download them.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import type { BriefService } from '../briefs/service.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import { dieLineCf2 } from './cf2.ts';
import { drawingOf } from './drawing.ts';
import { dieLineDxf } from './dxf.ts';
import { DIELINE_FORMATS, type DieLineFormat } from './negotiation.ts';
import { dieLineTemplatePdf } from './pdf.ts';

export interface DieLineFile {
  filename: string;
  mediaType: string;
  content: Buffer;
  etag: string;
}

type Source = Awaited<ReturnType<BriefService['dieLineSource']>>;

const mm = (value: number) => String(Math.round(value * 10) / 10);

/** `B-000123-v2-1-RTE-100x50x150`: brief code, version, element number, product, inside size. */
export function fileStem(source: Pick<Source, 'brief' | 'version' | 'position' | 'input' | 'computed'>) {
  const { input } = source;
  const size = [input.lengthDimension, input.widthDimension, input.heightDimension]
    .filter((v, i) => i < 2 || v > 0)
    .map(mm)
    .join('x');
  const raw = `${source.brief.code}-v${source.version}-${source.position + 1}-${source.computed.productCode}-${size}`;
  return raw.replace(/[^A-Za-z0-9._-]+/g, '_');
}

const GRAIN: Record<string, string> = {
  BLANK_WIDTH: 'along the blank width (horizontal)',
  BLANK_HEIGHT: 'along the blank height (vertical)',
  ANY: 'either direction',
};

export function createDieLineService({
  db,
  briefs,
}: {
  db: Db;
  briefs: Pick<BriefService, 'dieLineSource'>;
}) {
  /** Names of the product and board as the catalogue has them now (codes if they are gone). */
  async function names(source: Source) {
    try {
      const catalogue = await loadCatalogue(db, source.organisationId);
      const product = catalogue.products.find((p) => p.id === source.input.productId);
      const board = catalogue.materialReferences.find(
        (m) => m.id === source.computed.material.materialReferenceId,
      );
      return { product: product?.name ?? source.computed.productCode, board: board?.name ?? null };
    } catch {
      return { product: source.computed.productCode, board: null };
    }
  }

  async function render(source: Source, format: DieLineFormat): Promise<Buffer> {
    const drawing = drawingOf(source.computed.dieLine);
    const { input, computed } = source;
    const dieLine = computed.dieLine;
    const named = await names(source);
    const inside = [input.lengthDimension, input.widthDimension, input.heightDimension]
      .filter((v, i) => i < 2 || v > 0)
      .map(mm)
      .join(' x ');
    const board = `${named.board ? `${named.board}, ` : ''}${computed.material.grammage} g/m², caliper ${mm(dieLine.caliperMm)} mm`;
    const blank = `${mm(dieLine.width)} x ${mm(dieLine.height)} mm`;
    const date = source.pricedAt.toISOString().slice(0, 10);
    const title = `${source.brief.code} v${source.version} #${source.position + 1}`;
    switch (format) {
      case 'pdf':
        return dieLineTemplatePdf(
          [
            {
              drawing,
              titleBlock: [
                ['Brief', `${title} ${source.brief.name ?? ''}`.trim()],
                ['Style', `${named.product} (${dieLine.style})`],
                ['Inside', `${inside} mm`],
                ['Board', board],
                ['Grain', GRAIN[source.imposition?.grain.required ?? 'ANY'] ?? 'either direction'],
                ['Blank', blank],
                ['Date', date],
              ],
            },
          ],
          { title: `Die-line ${title}`, date: source.pricedAt },
        );
      case 'dxf':
        return Buffer.from(dieLineDxf(drawing), 'utf8');
      case 'cf2':
        return Buffer.from(
          dieLineCf2(drawing, fileStem(source), [
            `Brief ${title}`,
            `Style ${named.product} (${dieLine.style})`,
            `Inside ${inside} mm`,
            `Board ${board}`,
            `Blank ${blank}`,
            `Date ${date}`,
          ]),
          'utf8',
        );
    }
  }

  return {
    /** An element's die-line file in `format`. */
    async briefElementFile(
      actor: Actor,
      briefId: string,
      position: number,
      format: DieLineFormat,
      version?: number,
    ): Promise<DieLineFile> {
      const source = await briefs.dieLineSource(actor, briefId, position, version);
      const content = await render(source, format);
      const spec = DIELINE_FORMATS[format];
      return {
        filename: `${fileStem(source)}.${spec.extension}`,
        mediaType: spec.mediaType,
        content,
        etag: `"${createHash('sha256').update(content).digest('base64url')}"`,
      };
    },
  };
}

export type DieLineService = ReturnType<typeof createDieLineService>;
