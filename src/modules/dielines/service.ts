/**
 * The die-line files of a brief element (brief, or one of its versions): the element's die-line
 * as priced, drawn by the pure writers (drawing.ts, pdf.ts, dxf.ts, cf2.ts), named so a person can
 * file them, with a strong ETag over the bytes. The files hold no cost: anyone who may read the
 * brief (its company's contacts included) may download them.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { notFound } from '../../platform/errors.ts';
import type { BriefService } from '../briefs/service.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import { cf2File, dieLineCf2 } from './cf2.ts';
import { drawingOf } from './drawing.ts';
import { dieLineDxf } from './dxf.ts';
import { cf2Call, impositionDrawing } from './imposition.ts';
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

  /** The selected variant's sheet, every up's die-line at its place. */
  async function renderSheet(source: Source, format: DieLineFormat): Promise<Buffer> {
    const imposition = source.imposition;
    if (!imposition) throw notFound('Imposition');
    const dieLine = source.computed.dieLine;
    const drawing = impositionDrawing(imposition, dieLine);
    const title = `${source.brief.code} v${source.version} #${source.position + 1}`;
    const named = await names(source);
    const grain = imposition.grain.sheetGrain
      ? `${imposition.grain.sheetGrain === 'LONG' ? 'long' : 'short'} grain (arrow)`
      : 'unknown';
    const rows: [string, string][] = [
      ['Brief', title],
      ['Style', `${named.product} (${dieLine.style})`],
      ['Sheet', `${mm(imposition.sheet.width)} x ${mm(imposition.sheet.height)} mm, ${grain}`],
      ['Ups', `${imposition.ups} (${imposition.layout === 'NESTED' ? 'nested' : 'grid'})`],
      ['Gripper', `${mm(imposition.margins.gripperMm)} mm (top edge)`],
      ['Blank', `${mm(dieLine.width)} x ${mm(dieLine.height)} mm`],
      ['Date', source.pricedAt.toISOString().slice(0, 10)],
    ];
    switch (format) {
      case 'pdf':
        return dieLineTemplatePdf([{ drawing, titleBlock: rows }], {
          title: `Sheet ${title}`,
          date: source.pricedAt,
          bleedMm: 0,
        });
      case 'dxf':
        return Buffer.from(dieLineDxf(drawing), 'utf8');
      case 'cf2':
        return Buffer.from(
          cf2File({
            name: `${fileStem(source)}-sheet`,
            comments: rows.map(([label, value]) => `${label} ${value}`),
            width: imposition.sheet.width,
            height: imposition.sheet.height,
            sub: { name: fileStem(source), drawing: drawingOf(dieLine) },
            calls: imposition.placements.map((p) => cf2Call(p, dieLine, imposition.sheet.height)),
          }),
          'utf8',
        );
    }
  }

  const fileOf = (stem: string, format: DieLineFormat, content: Buffer): DieLineFile => {
    const spec = DIELINE_FORMATS[format];
    return {
      filename: `${stem}.${spec.extension}`,
      mediaType: spec.mediaType,
      content,
      etag: `"${createHash('sha256').update(content).digest('base64url')}"`,
    };
  };

  return {
    /** The imposition sheet of an element's selected process variant in `format`. */
    async briefElementSheet(
      actor: Actor,
      briefId: string,
      position: number,
      format: DieLineFormat,
      version?: number,
    ): Promise<DieLineFile> {
      const source = await briefs.dieLineSource(actor, briefId, position, version);
      return fileOf(`${fileStem(source)}-sheet`, format, await renderSheet(source, format));
    },

    /** An element's die-line file in `format`. */
    async briefElementFile(
      actor: Actor,
      briefId: string,
      position: number,
      format: DieLineFormat,
      version?: number,
    ): Promise<DieLineFile> {
      const source = await briefs.dieLineSource(actor, briefId, position, version);
      return fileOf(fileStem(source), format, await render(source, format));
    },
  };
}

export type DieLineService = ReturnType<typeof createDieLineService>;
