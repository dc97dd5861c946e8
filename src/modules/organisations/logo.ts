/**
 * The logo check: what the seller uploads is printed by pdfkit on every quote PDF, so only what
 * pdfkit embeds is accepted, PNG or JPEG, recognised by its bytes (the client's media type must
 * agree), at most LOGO_MAX_PIXELS per side, and proven by embedding it in a throwaway document
 * (a truncated or crafted file fails there, at upload, rather than later in a buyer's PDF).
 */
import { AppError } from '../../platform/errors.ts';

/** The largest logo accepted, in bytes. */
export const LOGO_LIMIT_BYTES = 1024 * 1024;
/** The largest width or height of a logo, in pixels (a small PNG can inflate to a huge bitmap). */
export const LOGO_MAX_PIXELS = 4096;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type ImageKind = { mimeType: 'image/png' | 'image/jpeg'; extension: string };

function kindOf(content: Buffer): ImageKind | undefined {
  if (content.length > 24 && content.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return { mimeType: 'image/png', extension: 'png' };
  }
  if (content.length > 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) {
    return { mimeType: 'image/jpeg', extension: 'jpg' };
  }
  return undefined;
}

const notAnImage = (detail: string) =>
  new AppError('unsupported_image', detail, {
    issues: [{ pointer: '/file', message: 'must be a PNG or JPEG image', in: 'body' }],
  });

/** Answers the logo's real media type, or throws 415 `unsupported_image`. */
export async function checkLogo(content: Buffer, declaredType: string): Promise<ImageKind> {
  const kind = kindOf(content);
  if (!kind) throw notAnImage('The logo must be a PNG or JPEG image');
  const declared =
    declaredType === 'image/jpg' || declaredType === 'image/pjpeg' ? 'image/jpeg' : declaredType;
  if (declared !== kind.mimeType && declared !== 'application/octet-stream') {
    throw notAnImage(`The file is sent as ${declaredType} but its content is ${kind.mimeType}`);
  }
  if (kind.mimeType === 'image/png') {
    // IHDR is the first chunk: width and height, big-endian, at bytes 16 and 20.
    const width = content.readUInt32BE(16);
    const height = content.readUInt32BE(20);
    if (!width || !height || width > LOGO_MAX_PIXELS || height > LOGO_MAX_PIXELS) {
      throw notAnImage(`The logo must be at most ${LOGO_MAX_PIXELS} × ${LOGO_MAX_PIXELS} pixels`);
    }
  }
  const { default: PDFDocument } = await import('pdfkit');
  try {
    const doc = new PDFDocument({ size: 'A6', font: null as unknown as string, compress: false });
    doc.on('data', () => {});
    const done = new Promise<void>((resolve, reject) => {
      doc.on('end', resolve);
      doc.on('error', reject);
    });
    doc.image(content, 0, 0, { fit: [100, 100] });
    doc.end();
    await done;
  } catch {
    throw notAnImage('The image cannot be read (damaged or an unsupported PNG/JPEG variant)');
  }
  return kind;
}
