/**
 * The die-line files of a brief element (brief, or one of its versions): the element's die-line
 * as priced, drawn by the pure writers (drawing.ts, pdf.ts, dxf.ts, cf2.ts), named so a person can
 * file them, with a strong ETag over the bytes. The files hold no cost: anyone who may read the
 * brief (its company's contacts included) may download them.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { type Actor, assertCompanyVisible } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { findArticleRow } from '../articles/repository.ts';
import { type DieLineSource, dieLineSourceOf, predictionNotAvailable } from '../briefs/prediction-views.ts';
import type { BriefService } from '../briefs/service.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import { cf2File, dieLineCf2 } from './cf2.ts';
import { drawingOf } from './drawing.ts';
import { fileStem, mm } from './file-names.ts';
import { cf2Call, impositionDrawing } from './imposition.ts';
import { DIELINE_FORMATS, type DieLineFormat } from './negotiation.ts';
import { dieLineTemplatePdf, type TemplatePage } from './pdf.ts';
import {
  findBriefOf,
  findElementOf,
  findQuoteItem,
  predictionById,
  predictionOfOwner,
} from './repository.ts';

/** The DXF writer (@tarikjabiri/dxf) is loaded on the first DXF asked for (issue 31). */
const dxfWriter = () => import('./dxf.ts');

export interface DieLineFile {
  filename: string;
  mediaType: string;
  content: Buffer;
  etag: string;
}

type Source = DieLineSource;

const GRAIN: Record<string, string> = {
  BLANK_WIDTH: 'along the blank width (horizontal)',
  BLANK_HEIGHT: 'along the blank height (vertical)',
  ANY: 'either direction',
};

const notPriced = (what: string) =>
  new AppError('prediction_not_available', `${what} has not been priced: there is no die-line to draw yet`);

export function createDieLineService({
  db,
  briefs,
  quotes,
}: {
  db: Db;
  briefs: Pick<BriefService, 'dieLineSource' | 'dieLineSources'>;
  /** 404 unless the quote is live and the actor sees it. */
  quotes: { assertVisible: (actor: Actor, id: string) => Promise<void> };
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

  /** The element's page of the PDF template: its drawing and title block. */
  async function pageOf(source: Source): Promise<TemplatePage> {
    const dieLine = source.computed.dieLine;
    const named = await names(source);
    const t = texts(source, named);
    return {
      drawing: drawingOf(dieLine),
      titleBlock: [
        ['Brief', `${t.title} ${source.brief.name ?? ''}`.trim()],
        ['Style', `${named.product} (${dieLine.style})`],
        ['Inside', `${t.inside} mm`],
        ['Board', t.board],
        ['Grain', GRAIN[source.imposition?.grain.required ?? 'ANY'] ?? 'either direction'],
        ['Blank', t.blank],
        ['Date', t.date],
      ],
    };
  }

  function texts(source: Source, named: { board: string | null }) {
    const { input, computed } = source;
    const dieLine = computed.dieLine;
    return {
      inside: [input.lengthDimension, input.widthDimension, input.heightDimension]
        .filter((v, i) => i < 2 || v > 0)
        .map(mm)
        .join(' x '),
      board: `${named.board ? `${named.board}, ` : ''}${computed.material.grammage} g/m², caliper ${mm(dieLine.caliperMm)} mm`,
      blank: `${mm(dieLine.width)} x ${mm(dieLine.height)} mm`,
      date: source.pricedAt.toISOString().slice(0, 10),
      title: `${source.brief.code} v${source.version} #${source.position + 1}`,
    };
  }

  async function render(source: Source, format: DieLineFormat): Promise<Buffer> {
    const dieLine = source.computed.dieLine;
    const named = await names(source);
    const t = texts(source, named);
    switch (format) {
      case 'pdf':
        return dieLineTemplatePdf([await pageOf(source)], {
          title: `Die-line ${t.title}`,
          date: source.pricedAt,
        });
      case 'dxf':
        return Buffer.from((await dxfWriter()).dieLineDxf(drawingOf(dieLine)), 'utf8');
      case 'cf2':
        return Buffer.from(
          dieLineCf2(drawingOf(dieLine), fileStem(source), [
            `Brief ${t.title}`,
            `Style ${named.product} (${dieLine.style})`,
            `Inside ${t.inside} mm`,
            `Board ${t.board}`,
            `Blank ${t.blank}`,
            `Date ${t.date}`,
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
        return Buffer.from((await dxfWriter()).dieLineDxf(drawing), 'utf8');
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

  /** The die-line source of an element item of a visible quote: the version and position it was quoted at. */
  async function quoteItemSource(actor: Actor, quoteId: string, itemId: string): Promise<Source> {
    await quotes.assertVisible(actor, quoteId);
    const item = await findQuoteItem(db, actor.organisationId, quoteId, itemId);
    if (!item) throw notFound('Quote item');
    if (!item.briefId || !item.briefElementId)
      throw notFound('Die-line of the quote item (not an element line)');
    const brief = await findBriefOf(db, actor.organisationId, item.briefId);
    if (!brief) throw notFound('Brief');
    const row =
      item.briefVersion !== null
        ? await predictionOfOwner(db, { briefId: brief.id }, item.briefVersion)
        : brief.currentPredictionId
          ? await predictionById(db, actor.organisationId, brief.currentPredictionId)
          : undefined;
    if (!row) throw predictionNotAvailable(brief.predictionStatus);
    const position =
      item.elementPosition ?? (await findElementOf(db, actor.organisationId, item.briefElementId))?.position;
    if (position === undefined) throw notFound('Brief element');
    return dieLineSourceOf(row, position, brief);
  }

  /**
   * The die-line source of a visible article: its element's brief (that brief's version, else the
   * current one) or, for a standalone element, the element's own predictions (the article's code).
   */
  async function articleSource(actor: Actor, articleId: string, version?: number): Promise<Source> {
    const article = await findArticleRow(db, actor.organisationId, articleId);
    if (!article) throw notFound('Article');
    assertCompanyVisible(actor, article.companyId, 'Article');
    const element = article.briefElementId
      ? await findElementOf(db, actor.organisationId, article.briefElementId)
      : undefined;
    if (!element || element.deletedAt) throw notFound('Die-line of the article (it has no brief element)');
    if (element.briefId) {
      const brief = await findBriefOf(db, actor.organisationId, element.briefId);
      if (!brief) throw notFound('Brief');
      const row =
        version !== undefined
          ? await predictionOfOwner(db, { briefId: brief.id }, version)
          : brief.currentPredictionId
            ? await predictionById(db, actor.organisationId, brief.currentPredictionId)
            : undefined;
      if (!row) {
        if (version !== undefined) throw notFound('Prediction version');
        throw predictionNotAvailable(brief.predictionStatus);
      }
      return dieLineSourceOf(row, element.position, brief);
    }
    const row = await predictionOfOwner(db, { briefElementId: element.id }, version);
    if (!row) {
      if (version !== undefined) throw notFound('Prediction version');
      throw notPriced('The article’s element');
    }
    const position = row.input.briefElements[0]?.position ?? 0;
    return dieLineSourceOf(row, position, { id: article.id, code: article.code, name: article.name });
  }

  const fileFor = async (source: Source, format: DieLineFormat) =>
    fileOf(fileStem(source), format, await render(source, format));
  const sheetFor = async (source: Source, format: DieLineFormat) =>
    fileOf(`${fileStem(source)}-sheet`, format, await renderSheet(source, format));

  return {
    /** The imposition sheet of an element's selected process variant in `format`. */
    async briefElementSheet(
      actor: Actor,
      briefId: string,
      position: number,
      format: DieLineFormat,
      version?: number,
    ): Promise<DieLineFile> {
      return sheetFor(await briefs.dieLineSource(actor, briefId, position, version), format);
    },

    /** An element's die-line file in `format`. */
    async briefElementFile(
      actor: Actor,
      briefId: string,
      position: number,
      format: DieLineFormat,
      version?: number,
    ): Promise<DieLineFile> {
      return fileFor(await briefs.dieLineSource(actor, briefId, position, version), format);
    },

    /** Every element of a brief version on its own page of one PDF template (layers kept). */
    async briefTemplate(actor: Actor, briefId: string, version?: number): Promise<DieLineFile> {
      const sources = await briefs.dieLineSources(actor, briefId, version);
      if (!sources.length) throw notFound('Brief element');
      const first = sources[0]!;
      const pages = await Promise.all(sources.map(pageOf));
      const content = await dieLineTemplatePdf(pages, {
        title: `Die-lines ${first.brief.code} v${first.version}`,
        date: first.pricedAt,
      });
      const stem = `${first.brief.code}-v${first.version}-die-lines`.replace(/[^A-Za-z0-9._-]+/g, '_');
      return fileOf(stem, 'pdf', content);
    },

    /** The die-line of a quote's element line, as it was quoted (version and position recorded). */
    async quoteItemFile(actor: Actor, quoteId: string, itemId: string, format: DieLineFormat) {
      return fileFor(await quoteItemSource(actor, quoteId, itemId), format);
    },

    async quoteItemSheet(actor: Actor, quoteId: string, itemId: string, format: DieLineFormat) {
      return sheetFor(await quoteItemSource(actor, quoteId, itemId), format);
    },

    /** The die-line of an article's element. */
    async articleFile(actor: Actor, articleId: string, format: DieLineFormat, version?: number) {
      return fileFor(await articleSource(actor, articleId, version), format);
    },

    async articleSheet(actor: Actor, articleId: string, format: DieLineFormat, version?: number) {
      return sheetFor(await articleSource(actor, articleId, version), format);
    },
  };
}

export type DieLineService = ReturnType<typeof createDieLineService>;
