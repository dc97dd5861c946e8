/**
 * Reading artwork files (docs/proofs.md): what they are (by content), their print size, the
 * effective resolution of their raster images at that size, their colour spaces and output
 * intent, and a PNG rendering of the first page. Rasters are read by sharp (libvips); PDFs by
 * pdf.js (page size, images and the transformation they are painted with, rendering through
 * @napi-rs/canvas) and pdf-lib (colour spaces and the catalogue's OutputIntents). No I/O besides
 * the bytes given; no clock.
 */
import { createCanvas } from '@napi-rs/canvas';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from 'pdf-lib';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import type { ArtworkInfo } from '../../db/schema/proofs.ts';
import type { ArtworkKind } from './artwork-kind.ts';

export { ARTWORK_MEDIA_TYPES, type ArtworkKind, sniffArtwork } from './artwork-kind.ts';

const MM_PER_INCH = 25.4;
const PT_PER_MM = 72 / MM_PER_INCH;

/** What preflight reads of the first page, before it is compared with the die-line. */
export type ArtworkReading = Omit<ArtworkInfo, 'blank'>;

/** A raster's print size is its pixels at its own resolution (72 ppi when it states none). */
async function readRaster(content: Buffer, kind: ArtworkKind): Promise<ArtworkReading> {
  const meta = await sharp(content, { pages: 1 }).metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (!width || !height) throw new Error('the image has no size');
  const ppi = meta.density && meta.density > 1 ? meta.density : 72;
  const space = meta.space ?? 'unknown';
  return {
    kind,
    widthMm: round((width / ppi) * MM_PER_INCH),
    heightMm: round((height / ppi) * MM_PER_INCH),
    minPpi: Math.round(ppi),
    colourSpaces: [space === 'srgb' || space === 'rgb' || space === 'rgb16' ? 'RGB' : spaceName(space)],
    outputIntent: null,
  };
}

const spaceName = (space: string) => {
  if (space === 'cmyk') return 'CMYK';
  if (space === 'b-w' || space === 'grey16') return 'Gray';
  return space.toUpperCase();
};

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

/**
 * The lowest effective resolution of the page's raster images: each image's pixels over the
 * size (inches) the current transformation paints its unit square at.
 */
async function minImagePpi(
  content: Buffer,
): Promise<{ widthPt: number; heightPt: number; ppi: number | null }> {
  const pdf = await getDocument({ data: new Uint8Array(content), isEvalSupported: false, verbosity: 0 })
    .promise;
  try {
    const page = await pdf.getPage(1);
    const [x0, y0, x1, y1] = page.view as [number, number, number, number];
    const list = await page.getOperatorList();
    let ctm: Matrix = [1, 0, 0, 1, 0, 0];
    const stack: Matrix[] = [];
    let min: number | null = null;
    const paint = (pixelsWide: number, pixelsHigh: number) => {
      const wide = Math.hypot(ctm[0], ctm[1]) / 72;
      const high = Math.hypot(ctm[2], ctm[3]) / 72;
      // Hairline images (rules, 1-pixel masks) say nothing of the artwork's resolution.
      if (wide < 0.05 || high < 0.05 || pixelsWide < 2 || pixelsHigh < 2) return;
      const ppi = Math.min(pixelsWide / wide, pixelsHigh / high);
      min = min === null ? ppi : Math.min(min, ppi);
    };
    for (let i = 0; i < list.fnArray.length; i++) {
      const fn = list.fnArray[i];
      const args = list.argsArray[i] as unknown[];
      switch (fn) {
        case OPS.save:
          stack.push(ctm);
          break;
        case OPS.restore:
          ctm = stack.pop() ?? ctm;
          break;
        case OPS.transform:
          ctm = multiply(args as Matrix, ctm);
          break;
        case OPS.paintFormXObjectBegin:
          stack.push(ctm);
          if (Array.isArray(args[0]) && args[0].length === 6) ctm = multiply(args[0] as Matrix, ctm);
          break;
        case OPS.paintFormXObjectEnd:
          ctm = stack.pop() ?? ctm;
          break;
        case OPS.paintImageXObject:
          paint(Number(args[1]), Number(args[2]));
          break;
        case OPS.paintInlineImageXObject: {
          const image = args[0] as { width?: number; height?: number } | undefined;
          if (image?.width && image.height) paint(image.width, image.height);
          break;
        }
      }
    }
    return { widthPt: x1 - x0, heightPt: y1 - y0, ppi: min === null ? null : Math.round(min) };
  } finally {
    await pdf.destroy();
  }
}

/** The colour spaces a PDF paints with (images, named spaces, operators) and its output intent. */
async function pdfColours(content: Buffer): Promise<{ spaces: string[]; outputIntent: string | null }> {
  const doc = await PDFDocument.load(content, { ignoreEncryption: true, updateMetadata: false });
  const spaces = new Set<string>();
  // pdf-lib's classes have private constructors: matched through their prototype.
  const lookup = <T>(value: unknown, type: { prototype: T }): T | undefined => {
    const resolved = value instanceof PDFRef ? doc.context.lookup(value) : value;
    return resolved instanceof (type as unknown as new () => T) ? (resolved as T) : undefined;
  };
  const describe = (value: unknown): string | undefined => {
    const resolved = value instanceof PDFRef ? doc.context.lookup(value) : value;
    if (resolved instanceof PDFName) {
      const name = resolved.decodeText();
      if (name === 'DeviceRGB' || name === 'CalRGB') return 'RGB';
      if (name === 'DeviceCMYK') return 'CMYK';
      if (name === 'DeviceGray' || name === 'CalGray') return 'Gray';
      return undefined;
    }
    if (resolved instanceof PDFArray && resolved.size() > 0) {
      const family = lookup(resolved.get(0), PDFName)?.decodeText();
      if (family === 'ICCBased') {
        const stream = lookup(resolved.get(1), PDFStream);
        const n = stream?.dict.get(PDFName.of('N'));
        const components = n instanceof PDFNumber ? n.asNumber() : 0;
        return components === 3 ? 'RGB' : components === 4 ? 'CMYK' : components === 1 ? 'Gray' : undefined;
      }
      if (family === 'CalRGB') return 'RGB';
      if (family === 'Separation' || family === 'DeviceN') return 'Spot';
      if (family === 'Indexed') return describe(resolved.get(1));
      if (family === 'Lab') return 'Lab';
    }
    return undefined;
  };
  const note = (value: string | undefined) => {
    if (value) spaces.add(value);
  };
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFStream) {
      const dict = object.dict;
      const subtype = dict.get(PDFName.of('Subtype'));
      if (subtype instanceof PDFName && subtype.decodeText() === 'Image') {
        note(describe(dict.get(PDFName.of('ColorSpace'))));
        continue;
      }
    }
    if (object instanceof PDFDict) {
      // Named colour spaces of resource dictionaries (`/ColorSpace << /CS0 [...] >>`).
      const named = lookup(object.get(PDFName.of('ColorSpace')), PDFDict);
      if (named) for (const [, value] of named.entries()) note(describe(value));
    }
  }
  // Content streams: the device colour operators (rg/RG, k/K, g/G).
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const streams: unknown[] = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    for (const ref of streams) {
      const stream = lookup(ref, PDFRawStream);
      if (!stream) continue;
      let text: string;
      try {
        text = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      } catch {
        continue;
      }
      if (/(^|[\s\]])(rg|RG)(?=\s|$)/m.test(text) || /\/DeviceRGB\s+(cs|CS)\b/.test(text)) spaces.add('RGB');
      if (/(^|[\s\]])(k|K)(?=\s|$)/m.test(text) || /\/DeviceCMYK\s+(cs|CS)\b/.test(text)) spaces.add('CMYK');
      if (/(^|[\s\]])(g|G)(?=\s|$)/m.test(text)) spaces.add('Gray');
    }
  }
  const intents = lookup(doc.catalog.get(PDFName.of('OutputIntents')), PDFArray);
  let outputIntent: string | null = null;
  if (intents && intents.size() > 0) {
    const first = lookup(intents.get(0), PDFDict);
    const id = first?.get(PDFName.of('OutputConditionIdentifier'));
    const s = first?.get(PDFName.of('S'));
    outputIntent =
      (id && 'decodeText' in id ? (id as unknown as { decodeText(): string }).decodeText() : null) ??
      (s instanceof PDFName ? s.decodeText() : 'present');
  }
  return { spaces: [...spaces].sort(), outputIntent };
}

async function readPdf(content: Buffer): Promise<ArtworkReading> {
  const { widthPt, heightPt, ppi } = await minImagePpi(content);
  const colours = await pdfColours(content);
  return {
    kind: 'pdf',
    widthMm: round(widthPt / PT_PER_MM),
    heightMm: round(heightPt / PT_PER_MM),
    minPpi: ppi,
    colourSpaces: colours.spaces,
    outputIntent: colours.outputIntent,
  };
}

/** What the first page of the artwork is (throws on a file its reader cannot open). */
export function readArtwork(content: Buffer, kind: ArtworkKind): Promise<ArtworkReading> {
  return kind === 'pdf' ? readPdf(content) : readRaster(content, kind);
}

/** The first page as PNG at `pxPerMm` (white under transparent parts), and its size in pixels. */
export async function renderArtwork(
  content: Buffer,
  kind: ArtworkKind,
  reading: Pick<ArtworkReading, 'widthMm' | 'heightMm'>,
  pxPerMm: number,
): Promise<{ png: Buffer; width: number; height: number }> {
  const width = Math.max(1, Math.round(reading.widthMm * pxPerMm));
  const height = Math.max(1, Math.round(reading.heightMm * pxPerMm));
  if (kind !== 'pdf') {
    const png = await sharp(content, { pages: 1 })
      .autoOrient()
      .resize(width, height, { fit: 'fill' })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .png()
      .toBuffer();
    return { png, width, height };
  }
  const pdf = await getDocument({ data: new Uint8Array(content), isEvalSupported: false, verbosity: 0 })
    .promise;
  try {
    const page = await pdf.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: width / base.width });
    const canvas = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      canvasContext: context as unknown as CanvasRenderingContext2D,
      viewport,
    }).promise;
    return { png: await canvas.encode('png'), width: canvas.width, height: canvas.height };
  } finally {
    await pdf.destroy();
  }
}

/**
 * The artwork over the blank (the die-line's bounding box) as PNG, `pxPerMm` pixels a millimetre:
 * the artwork centred on the blank at its print size, as the proof places it; white where it does
 * not reach. What a flat or folded preview lays over the die-line, corner to corner.
 */
export async function renderOverBlank(
  content: Buffer,
  kind: ArtworkKind,
  reading: Pick<ArtworkReading, 'widthMm' | 'heightMm'>,
  blank: { widthMm: number; heightMm: number },
  pxPerMm: number,
): Promise<Buffer> {
  const full = await renderArtwork(content, kind, reading, pxPerMm);
  const outW = Math.max(1, Math.round(blank.widthMm * pxPerMm));
  const outH = Math.max(1, Math.round(blank.heightMm * pxPerMm));
  // Where the blank's top-left corner falls in the artwork, pixels (both centred).
  const left = Math.round(((reading.widthMm - blank.widthMm) / 2) * pxPerMm);
  const top = Math.round(((reading.heightMm - blank.heightMm) / 2) * pxPerMm);
  const cropLeft = Math.max(0, left);
  const cropTop = Math.max(0, top);
  const cropW = Math.min(full.width, left + outW) - cropLeft;
  const cropH = Math.min(full.height, top + outH) - cropTop;
  const canvas = sharp({
    create: { width: outW, height: outH, channels: 3, background: '#ffffff' },
  });
  if (cropW <= 0 || cropH <= 0) return canvas.png().toBuffer();
  const piece = await sharp(full.png)
    .extract({ left: cropLeft, top: cropTop, width: cropW, height: cropH })
    .png()
    .toBuffer();
  return canvas
    .composite([{ input: piece, left: cropLeft - left, top: cropTop - top }])
    .png()
    .toBuffer();
}

const round = (value: number) => Math.round(value * 10) / 10;
