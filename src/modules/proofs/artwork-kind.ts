/**
 * What an artwork file is, from its first bytes, and its media type. Apart from artwork.ts so that
 * the service can check an upload without loading the readers (sharp, pdf.js, @napi-rs/canvas and
 * pdf-lib hold about 80 MB of memory once loaded; artwork.ts is imported on first use, issue 31).
 */
import type { ArtworkInfo } from '../../db/schema/proofs.ts';

export type ArtworkKind = ArtworkInfo['kind'];

export const ARTWORK_MEDIA_TYPES: Record<ArtworkKind, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
};

/** The artwork's kind from its first bytes (magic numbers), whatever its name or declared type. */
export function sniffArtwork(content: Buffer): ArtworkKind | null {
  if (content.length < 8) return null;
  // A PDF's header may follow a little junk (up to 1 KiB, as readers tolerate).
  if (content.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  if (content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'jpeg';
  const head = content.subarray(0, 4).toString('latin1');
  if (head === 'II*\0' || head === 'MM\0*') return 'tiff';
  return null;
}
