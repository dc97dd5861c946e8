/**
 * Crafted artwork for the proof tests: PDFs written by pdfkit (CMYK or RGB fills, an embedded
 * image at a chosen resolution) with or without an output intent (added by pdf-lib), and rasters
 * written by sharp at a chosen size, resolution and colour space.
 */
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import PDFKit from 'pdfkit';
import sharp from 'sharp';

const MM = 72 / 25.4;

export type PdfArtworkOptions = {
  widthMm: number;
  heightMm: number;
  colour?: 'cmyk' | 'rgb';
  outputIntent?: boolean;
  /** An image over the whole page with this effective resolution. */
  imagePpi?: number;
};

export async function pdfArtwork(options: PdfArtworkOptions): Promise<Buffer> {
  const w = options.widthMm * MM;
  const h = options.heightMm * MM;
  const doc = new PDFKit({ size: [w, h], margin: 0, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const fill = options.colour === 'rgb' ? '#2a9d8f' : ([70, 0, 40, 10] as unknown as string);
  doc.rect(0, 0, w, h).fill(fill);
  doc
    .rect(w * 0.2, h * 0.2, w * 0.6, h * 0.6)
    .fill(options.colour === 'rgb' ? '#e76f51' : ([0, 60, 80, 0] as unknown as string));
  if (options.imagePpi) {
    const px = (mm: number) => Math.max(2, Math.round((mm / 25.4) * options.imagePpi!));
    const image = await sharp({
      create: {
        width: px(options.widthMm),
        height: px(options.heightMm),
        channels: 3,
        background: '#f4a261',
      },
    })
      .toColourspace(options.colour === 'rgb' ? 'srgb' : 'cmyk')
      .jpeg()
      .toBuffer();
    doc.image(image, 0, 0, { width: w, height: h });
  }
  doc.end();
  await done;
  const bytes = Buffer.concat(chunks);
  if (!options.outputIntent) return bytes;
  const pdf = await PDFDocument.load(bytes);
  const intent = pdf.context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFX',
    OutputConditionIdentifier: PDFString.of('FOGRA39'),
    Info: PDFString.of('Coated FOGRA39'),
  });
  pdf.catalog.set(PDFName.of('OutputIntents'), pdf.context.obj([pdf.context.register(intent)]));
  return Buffer.from(await pdf.save());
}

export async function rasterArtwork(options: {
  widthMm: number;
  heightMm: number;
  ppi: number;
  format: 'png' | 'jpeg' | 'tiff';
  cmyk?: boolean;
}): Promise<Buffer> {
  const px = (mm: number) => Math.max(2, Math.round((mm / 25.4) * options.ppi));
  let image = sharp({
    create: {
      width: px(options.widthMm),
      height: px(options.heightMm),
      channels: 3,
      background: '#457b9d',
    },
  }).withMetadata({ density: options.ppi });
  // withMetadata would convert to sRGB after toColourspace: the CMYK profile goes after it.
  if (options.cmyk) image = image.withIccProfile('cmyk').toColourspace('cmyk');
  if (options.format === 'png') return image.png().toBuffer();
  if (options.format === 'jpeg') return image.jpeg({ quality: 80 }).toBuffer();
  return image.tiff({ compression: 'lzw' }).toBuffer();
}

/** A multipart body with one file in the field `file`. */
export async function multipartFile(content: Buffer, filename: string, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type }), filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}
