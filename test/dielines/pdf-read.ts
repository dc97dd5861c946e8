/**
 * A designer's PDF viewer, simulated: the template read by pdf.js (layers, page size, text) and
 * its objects by pdf-lib (spot colour names, overprint, ISO 19593-1 metadata on the layers).
 */
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, type PDFObject, PDFString } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface ReadTemplate {
  pages: { widthMm: number; heightMm: number; text: string[]; trimMm: number[] }[];
  layers: { name: string; visible: boolean }[];
  /** Per OCG name: its GTS_ProcStepsGroup / GTS_ProcStepsType, and whether it prints. */
  metadata: Record<string, { group?: string; type?: string; prints: boolean }>;
  spotColours: string[];
  overprint: boolean;
}

const PT = 25.4 / 72;

const nameOf = (value: PDFObject | undefined) => (value instanceof PDFName ? value.decodeText() : undefined);
const textOf = (value: PDFObject | undefined) =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;

export async function readTemplate(bytes: Buffer): Promise<ReadTemplate> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const config = await pdf.getOptionalContentConfig();
  const layers: ReadTemplate['layers'] = [];
  for (const [, group] of config as unknown as Iterable<[string, { name: string; visible: boolean }]>)
    layers.push({ name: group.name, visible: group.visible });
  const pages: ReadTemplate['pages'] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const page = await pdf.getPage(i);
    const [x0, y0, x1, y1] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).filter(Boolean);
    pages.push({ widthMm: (x1 - x0) * PT, heightMm: (y1 - y0) * PT, text, trimMm: [] });
  }
  await pdf.destroy();

  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const metadata: ReadTemplate['metadata'] = {};
  const ocProperties = doc.catalog.lookup(PDFName.of('OCProperties'), PDFDict);
  const ocgs = ocProperties.lookup(PDFName.of('OCGs'), PDFArray);
  for (let i = 0; i < ocgs.size(); i++) {
    const ocg = ocgs.lookup(i, PDFDict);
    const gts = ocg.lookupMaybe(PDFName.of('GTS_Metadata'), PDFDict);
    const usage = ocg.lookupMaybe(PDFName.of('Usage'), PDFDict);
    const print = usage?.lookupMaybe(PDFName.of('Print'), PDFDict);
    metadata[textOf(ocg.get(PDFName.of('Name'))) ?? '?'] = {
      group: nameOf(gts?.get(PDFName.of('GTS_ProcStepsGroup'))),
      type: nameOf(gts?.get(PDFName.of('GTS_ProcStepsType'))),
      prints: nameOf(print?.get(PDFName.of('PrintState'))) !== 'OFF',
    };
  }
  const spotColours = new Set<string>();
  let overprint = false;
  doc.getPages().forEach((page, i) => {
    const trim = page.getTrimBox();
    pages[i]!.trimMm = [trim.x, trim.y, trim.width, trim.height].map((v) => v * PT);
    const resources = page.node.Resources();
    const spaces = resources?.lookupMaybe(PDFName.of('ColorSpace'), PDFDict);
    for (const key of spaces?.keys() ?? []) {
      const space = spaces!.lookup(key);
      if (space instanceof PDFArray && nameOf(space.get(0)) === 'Separation') {
        const name = nameOf(space.get(1));
        if (name) spotColours.add(name);
      }
    }
    const states = resources?.lookupMaybe(PDFName.of('ExtGState'), PDFDict);
    for (const key of states?.keys() ?? []) {
      const state = states!.lookup(key, PDFDict);
      if (String(state.get(PDFName.of('OP'))) === 'true' && String(state.get(PDFName.of('op'))) === 'true')
        overprint = true;
    }
  });
  return { pages, layers, metadata, spotColours: [...spotColours].sort(), overprint };
}
