import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../platform/errors.ts';

/** A file read from a multipart request into memory. */
export type UploadedFile = { filename: string; mimeType: string; content: Buffer };

export type MultipartForm = {
  file: UploadedFile;
  /** The text fields that were sent, among the accepted ones. */
  fields: Record<string, string>;
};

export type ReadMultipartOptions = {
  /** Name of the file field, e.g. `file` or `csv`. */
  fileField: string;
  /** Names of the accepted text fields; any other field is refused (400). */
  fields?: readonly string[];
  /** Largest accepted file, in bytes (413 beyond). */
  limitBytes: number;
  /** Largest accepted text field value, in characters (default 1,000). */
  maxFieldLength?: number;
};

export const fileTooLarge = (limitBytes: number) =>
  new AppError('file_too_large', `The file is larger than the limit of ${limitBytes} bytes`);

const notMultipart = () => new AppError('unsupported_media_type', 'Send the file as multipart/form-data');

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The essence of a client-given media type, or application/octet-stream when it is not one. */
export function normaliseMimeType(value: string | undefined): string {
  const essence = (value ?? '').split(';')[0]!.trim().toLowerCase();
  return MIME_TYPE.test(essence) ? essence : 'application/octet-stream';
}

/**
 * A file name safe to store and send back: the last path segment (browsers may send
 * `C:\fakepath\x.pdf`), without control characters, at most 255 characters, never empty.
 * Browsers (the WHATWG form encoding) send `"` as `%22` in multipart file names: it is restored.
 */
export function sanitiseFilename(value: string | undefined): string {
  const base = (value ?? '').replace(/%22/g, '"').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const name = cleaned === '.' || cleaned === '..' ? '' : cleaned;
  return name.slice(0, 255) || 'file';
}

/** Multipart parsing errors of @fastify/multipart and busboy, as problems for the client. */
function asProblem(error: unknown, limitBytes: number): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(limitBytes);
  if (code === 'FST_FILES_LIMIT') return new AppError('too_many_files', 'Send exactly one file');
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError('too_many_fields', 'The form has too many fields');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return notMultipart();
  // Malformed bodies (no boundary, truncated parts, prototype keys...): the client's fault.
  const message = error instanceof Error ? error.message : 'malformed';
  return new AppError('invalid_multipart', `The multipart body could not be read: ${message}`);
}

/**
 * Reads a multipart/form-data request holding one file (and optional text fields), streaming
 * the file into a Buffer while enforcing `limitBytes`. Answers 415 when the request is not
 * multipart, 413 when the file is too large, 400 when the file is missing or empty, when another
 * file or an unknown field is sent, or when the body is malformed. Reusable by any module
 * (attachments, CSV imports).
 */
export async function readMultipartForm(
  request: FastifyRequest,
  options: ReadMultipartOptions,
): Promise<MultipartForm> {
  if (!request.isMultipart()) throw notMultipart();
  const accepted = new Set(options.fields ?? []);
  const maxFieldLength = options.maxFieldLength ?? 1000;
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: options.limitBytes, files: 1, fields: Math.max(accepted.size, 1) + 5 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== options.fileField || file) {
          part.file.resume();
          throw badRequest(`Send the file in the field "${options.fileField}"`, [
            { pointer: `/${part.fieldname}`, message: 'is not an accepted file field', in: 'body' },
          ]);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > options.limitBytes) throw fileTooLarge(options.limitBytes);
          chunks.push(chunk);
        }
        if (part.file.truncated) throw fileTooLarge(options.limitBytes);
        file = {
          filename: sanitiseFilename(part.filename),
          mimeType: normaliseMimeType(part.mimetype),
          content: Buffer.concat(chunks, size),
        };
      } else {
        if (!accepted.has(part.fieldname)) {
          throw badRequest(`Unknown form field "${part.fieldname}"`, [
            { pointer: `/${part.fieldname}`, message: 'is not an accepted property', in: 'body' },
          ]);
        }
        const value = String(part.value ?? '');
        if (part.valueTruncated || value.length > maxFieldLength) {
          throw badRequest(`The field "${part.fieldname}" is too long`, [
            {
              pointer: `/${part.fieldname}`,
              message: `must have at most ${maxFieldLength} characters`,
              in: 'body',
            },
          ]);
        }
        if (value.includes('\u0000')) {
          throw badRequest(`The field "${part.fieldname}" contains a NUL character`, [
            {
              pointer: `/${part.fieldname}`,
              message: 'must not contain the NUL character (U+0000)',
              in: 'body',
            },
          ]);
        }
        fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    throw asProblem(error, options.limitBytes);
  }
  if (!file) {
    throw badRequest(`No file was sent in the field "${options.fileField}"`, [
      { pointer: `/${options.fileField}`, message: 'is required', in: 'body' },
    ]);
  }
  if (file.content.length === 0) {
    throw badRequest('The file is empty', [
      { pointer: `/${options.fileField}`, message: 'must not be empty', in: 'body' },
    ]);
  }
  return { file, fields };
}
