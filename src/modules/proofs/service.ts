/**
 * Artwork and proofs of quote lines (docs/proofs.md): upload (a new proof version of the line),
 * preflight and the proof PDF (a durable job), the buyer's decision with its evidence, and the
 * count of lines waiting for an approved proof that the quote lifecycle's convert guard reads.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { ArtworkInfo, PreflightFinding } from '../../db/schema/proofs.ts';
import { type Actor, systemActor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { EventRecorder } from '../../platform/events.ts';
import { BLEED_MM, type Drawing, drawingOf } from '../dielines/drawing.ts';
import { readMultipartForm } from '../files/multipart.ts';
import { readFileContent } from '../files/repository.ts';
import type { FilesService } from '../files/service.ts';
import { hashGuestToken } from '../quotes/pdf-service.ts';
import { findGuestLinkByHash, QUOTE_ENTITY } from '../quotes/repository.ts';
import type { QuoteService } from '../quotes/service.ts';
import { ARTWORK_MEDIA_TYPES, type ArtworkKind, sniffArtwork } from './artwork-kind.ts';
import { preflight, unreadable } from './preflight.ts';
import {
  dieLineOfLine,
  findProof,
  findProofById,
  insertProof,
  type LineRow,
  linesOfQuote,
  lockQuote,
  nextVersion,
  PROOF_ENTITY,
  type ProofRow,
  pendingPreflights,
  proofsOfQuote,
  refreshProofsPending,
  updateProof,
} from './repository.ts';
import type { DecisionInput, GuestDecisionInput } from './schemas.ts';

/** Who decides through a guest link made for proofs: the link, and the e-mail the guest typed. */
type GuestDecider = { guestLinkId: string; email: string };

/**
 * The artwork readers and the proof PDF load sharp, pdf.js, @napi-rs/canvas and pdf-lib (about 80 MB
 * of resident memory): imported on first use, not at start-up (issue 31).
 */
const artworkReaders = () => import('./artwork.ts');

export const PREFLIGHT_JOB = 'proofs.preflight';
export type PreflightJobData = { organisationId: string; proofId: string };

export type RequestMeta = { ip: string | null; userAgent: string | null };

/** Longest side of the PNG preview, pixels; and the most pixels a millimetre. */
const PREVIEW_MAX_PX = 2048;
const PREVIEW_MAX_PX_PER_MM = 8;

/** The proof version as the API shows it. */
export function presentProof(row: ProofRow) {
  const base = `/api/quotes/${row.quoteId}/proofs/${row.id}`;
  const ready = row.preflightState !== 'pending' && row.proofFileId !== null;
  return {
    id: row.id,
    quoteId: row.quoteId,
    quoteItemId: row.quoteItemId,
    version: row.version,
    artworkFilename: row.artworkFilename,
    artworkSha256: row.artworkSha256,
    preflightState: row.preflightState,
    findings: row.findings,
    artwork: row.artwork ?? null,
    proofSha256: row.proofSha256,
    urls: {
      artwork: `${base}/artwork`,
      proofPdf: ready ? `${base}/pdf` : null,
      preview: row.artwork && row.preflightState === 'done' ? `${base}/preview.png` : null,
    },
    decision: row.decision
      ? {
          decision: row.decision,
          userId: row.decidedById,
          role: row.decidedRole,
          guestLinkId: row.decidedGuestLinkId,
          email: row.decidedEmail,
          typedName: row.typedName,
          comment: row.comment,
          decidedAt: row.decidedAt,
          ip: row.ip,
          userAgent: row.userAgent,
          proofSha256: row.proofSha256,
          hashFromClient: row.hashFromClient,
        }
      : null,
    createdById: row.createdById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const isLeaf = (lines: LineRow[], line: LineRow) => !lines.some((other) => other.parentId === line.id);

/** Artwork is taken for a published or signed quote that is not an order yet. */
function assertOpen(quote: { state: string; orderId: string | null }) {
  if ((quote.state === 'published' || quote.state === 'signed') && !quote.orderId) return;
  throw new AppError(
    'artwork_closed',
    quote.orderId
      ? 'The quote is an order: its artwork is changed with the converter'
      : `The quote is ${quote.state}: artwork is taken for a published or signed quote`,
  );
}

export function createProofService(
  ctx: Pick<AppContext, 'db' | 'change' | 'config' | 'jobs' | 'log'>,
  deps: { quotes: Pick<QuoteService, 'visibleWithRefs'>; files: FilesService },
) {
  const { quotes, files } = deps;

  /**
   * A guest link made for proofs, as the buyer it stands for: 404 unknown token, 410 revoked or
   * expired, 403 `guest_link_not_for_proofs` for a link that shares the quote only. The actor is a
   * contact of the quote's company only (as a guest's acceptance is answered), so every read and
   * decision below goes through the same visibility as a signed-in buyer's, on the link's quote only.
   */
  async function guestOf(token: string) {
    const link = await findGuestLinkByHash(ctx.db, hashGuestToken(token));
    if (!link) throw notFound('Guest link');
    if (link.revokedAt) throw new AppError('guest_link_revoked', 'This link has been revoked');
    if (link.expiresAt.getTime() <= Date.now())
      throw new AppError('guest_link_expired', 'This link has expired');
    if (!link.proofs)
      throw new AppError(
        'guest_link_not_for_proofs',
        'This guest link shares the quote only, not its proofs',
      );
    const quote = await quotes.visibleWithRefs(
      systemActor(link.organisationId, link.createdById ?? ''),
      link.quoteId,
    );
    const actor: Actor = {
      userId: link.createdById ?? '',
      organisationId: link.organisationId,
      role: 'contact',
      companyIds: quote.companyId ? [quote.companyId] : [],
      credential: 'system',
    };
    return { link, actor, quoteId: link.quoteId };
  }

  /** A proof as a guest reads it: its files at the guest link's public addresses. */
  const guestProof = (token: string, proof: ReturnType<typeof presentProof>) => {
    const base = `/api/public/quotes/${token}/proofs/${proof.id}`;
    return {
      ...proof,
      urls: {
        artwork: `${base}/artwork`,
        proofPdf: proof.urls.proofPdf ? `${base}/pdf` : null,
        preview: proof.urls.preview ? `${base}/preview.png` : null,
      },
    };
  };

  async function visibleQuote(actor: Actor, quoteId: string) {
    return quotes.visibleWithRefs(actor, quoteId);
  }

  async function visibleProof(actor: Actor, quoteId: string, proofId: string) {
    await visibleQuote(actor, quoteId);
    const row = await findProof(ctx.db, actor.organisationId, quoteId, proofId);
    if (!row) throw notFound('Proof');
    return row;
  }

  /** The blank (die-line drawing) of a line, or null when it has none (an article, a flat item). */
  async function drawingOfLine(line: LineRow): Promise<Drawing | null> {
    return (await dieLineAndDrawing(line))?.drawing ?? null;
  }

  /** The engine's die-line of a line and its drawing (the proof PDF folds the one, draws the other). */
  async function dieLineAndDrawing(line: LineRow) {
    try {
      const dieLine = await dieLineOfLine(ctx.db, line);
      return dieLine ? { dieLine, drawing: drawingOf(dieLine) } : null;
    } catch (error) {
      ctx.log.warn({ err: error, quoteItemId: line.id }, 'the die-line of a quote line could not be drawn');
      return null;
    }
  }

  async function queuePreflight(row: Pick<ProofRow, 'organisationId' | 'id'>) {
    await ctx.jobs
      .send<PreflightJobData>(
        PREFLIGHT_JOB,
        { organisationId: row.organisationId, proofId: row.id },
        { singletonKey: row.id },
      )
      // The upload has committed: the recovery sweep queues it again (recoverPending).
      .catch((error) => ctx.log.warn({ err: error, proofId: row.id }, 'could not queue a preflight'));
  }

  const recordProof = (
    record: EventRecorder,
    row: ProofRow,
    type: 'CREATE' | 'UPDATE',
    extra: { fieldName?: string; updatedColumns?: string[] } = {},
  ) =>
    record({
      on: PROOF_ENTITY,
      type,
      entityId: row.id,
      snapshot: presentProof(row),
      relation: QUOTE_ENTITY,
      relationId: row.quoteId,
      ...extra,
    });

  /** Preflight and proof PDF of one version (the job's work); idempotent once done. */
  async function runPreflight(data: PreflightJobData) {
    const row = await findProofById(ctx.db, data.organisationId, data.proofId);
    if (row?.preflightState !== 'pending') return;
    const content = await readFileContent(ctx.db, row.artworkFileId);
    const lines = await linesOfQuote(ctx.db, row.quoteId);
    const line = lines.find((l) => l.id === row.quoteItemId);
    const both = line ? await dieLineAndDrawing(line) : null;
    const drawing = both?.drawing ?? null;
    const blank = drawing ? { widthMm: drawing.width, heightMm: drawing.height, bleedMm: BLEED_MM } : null;
    const kind = (content ? sniffArtwork(content) : null) ?? 'pdf';
    let findings: PreflightFinding[];
    let info: ArtworkInfo | null = null;
    let pdf: Buffer | null = null;
    try {
      if (!content) throw new Error('the artwork file has no content');
      const reading = await (await artworkReaders()).readArtwork(content, kind);
      info = { ...reading, blank };
      findings = preflight(reading, blank);
    } catch (error) {
      ctx.log.info({ err: error, proofId: row.id }, 'artwork could not be read');
      findings = [unreadable(kind)];
    }
    if (content) {
      const header = [
        `${line?.reference ? `${line.reference} - ` : ''}${line?.name ?? 'Line'} - proof version ${row.version}`,
        `Artwork: ${row.artworkFilename} (${info ? `${info.widthMm} x ${info.heightMm} mm` : 'unreadable'})${
          blank
            ? ` - blank ${round(blank.widthMm)} x ${round(blank.heightMm)} mm + ${blank.bleedMm} mm bleed`
            : ''
        }`,
        ...(findings.length
          ? findings.map((f) => `${f.severity.toUpperCase()}: ${findingText(f)}`)
          : ['Preflight: no findings']),
      ];
      pdf = await (await import('./proof-pdf.ts')).proofPdf({
        artwork: content,
        kind,
        widthMm: info?.widthMm ?? blank?.widthMm ?? 100,
        heightMm: info?.heightMm ?? blank?.heightMm ?? 100,
        drawing,
        dieLine: both?.dieLine ?? null,
        bleedMm: BLEED_MM,
        header,
        title: `Proof ${line?.name ?? ''} v${row.version}`.trim(),
        date: row.createdAt,
      });
    }
    // The service itself stores the proof PDF (files.createdById stays null).
    const system = { organisationId: row.organisationId, userId: null as unknown as string };
    await ctx.change(system, async (tx, record) => {
      const current = await findProofById(tx, row.organisationId, row.id);
      if (current?.preflightState !== 'pending') return;
      const stored = pdf
        ? await files.storeFile(
            tx,
            system,
            {
              entity: 'quote',
              entityId: row.quoteId,
              filename: `proof-${row.quoteItemId.slice(0, 8)}-v${row.version}.pdf`,
              mimeType: 'application/pdf',
              content: pdf,
              label: 'proof',
            },
            record,
          )
        : null;
      const after = await updateProof(tx, row.id, {
        preflightState: 'done',
        findings,
        artwork: info,
        proofFileId: stored?.id ?? null,
        proofSha256: stored?.sha256 ?? null,
        preflightAt: new Date(),
      });
      await recordProof(record, after, 'UPDATE', {
        fieldName: 'preflightState',
        updatedColumns: [
          'preflightState',
          'findings',
          'artwork',
          'proofFileId',
          'proofSha256',
          'preflightAt',
        ],
      });
    });
  }

  return {
    runPreflight,

    /** Proofs still waiting for their preflight (a process stopped, a queue failure): queued again. */
    async recoverPending() {
      const rows = await pendingPreflights(ctx.db, 1000);
      for (const row of rows) await queuePreflight(row);
      return rows.length;
    },

    /** The quote's leaf lines, each with its proof versions (newest first), and the gate's count. */
    async list(actor: Actor, quoteId: string) {
      const quote = await visibleQuote(actor, quoteId);
      const [lines, proofs] = await Promise.all([
        linesOfQuote(ctx.db, quoteId),
        proofsOfQuote(ctx.db, actor.organisationId, quoteId),
      ]);
      const leaves = lines.filter((line) => isLeaf(lines, line));
      const withTemplate = await Promise.all(
        leaves.map(async (line) => (await drawingOfLine(line)) !== null),
      );
      return {
        quoteId,
        proofsPending: quote.proofsPending,
        uploadOpen: (quote.state === 'published' || quote.state === 'signed') && !quote.orderId,
        lines: leaves.map((line, i) => {
          const versions = proofs.filter((p) => p.quoteItemId === line.id).map(presentProof);
          return {
            quoteItemId: line.id,
            name: line.name,
            reference: line.reference,
            quantity: line.quantity,
            hasTemplate: withTemplate[i]!,
            status: !versions.length
              ? ('none' as const)
              : versions[0]!.decision?.decision === 'approved'
                ? ('approved' as const)
                : versions[0]!.decision?.decision === 'changes_requested'
                  ? ('changes_requested' as const)
                  : ('awaiting_decision' as const),
            versions,
          };
        }),
      };
    },

    async get(actor: Actor, quoteId: string, proofId: string) {
      return presentProof(await visibleProof(actor, quoteId, proofId));
    },

    /**
     * Reads the multipart upload (field `file`, within the file size limit: 413 beyond), checks
     * it is artwork by its content (415), and stores it as the line's next proof version; the
     * preflight job is queued once it is committed.
     */
    async upload(actor: Actor, quoteId: string, itemId: string, request: FastifyRequest) {
      const quote = await visibleQuote(actor, quoteId);
      const lines = await linesOfQuote(ctx.db, quoteId);
      const line = lines.find((l) => l.id === itemId);
      if (!line || !isLeaf(lines, line)) throw notFound('Quote item');
      assertOpen(quote);
      const { file } = await readMultipartForm(request, {
        fileField: 'file',
        fields: [],
        limitBytes: ctx.config.fileSizeLimitBytes,
      });
      const kind = sniffArtwork(file.content);
      if (!kind) {
        throw new AppError(
          'unsupported_artwork',
          'The file is not a PDF, PNG, JPEG or TIFF (recognised by its content)',
          { issues: [{ pointer: '/file', message: 'is not a PDF, PNG, JPEG or TIFF file', in: 'body' }] },
        );
      }
      const row = await ctx.change(actor, async (tx, record) => {
        const locked = await lockQuote(tx, actor.organisationId, quoteId);
        if (!locked) throw notFound('Quote');
        assertOpen(locked);
        const stored = await files.storeFile(
          tx,
          actor,
          {
            entity: 'quote',
            entityId: quoteId,
            filename: file.filename,
            mimeType: ARTWORK_MEDIA_TYPES[kind],
            content: file.content,
            label: 'artwork',
          },
          record,
        );
        const inserted = await insertProof(tx, {
          organisationId: actor.organisationId,
          quoteId,
          quoteItemId: itemId,
          version: await nextVersion(tx, itemId),
          artworkFileId: stored.id,
          artworkFilename: stored.filename,
          artworkSha256: stored.sha256,
          createdById: actor.userId,
        });
        await refreshProofsPending(tx, quoteId);
        await recordProof(record, inserted, 'CREATE');
        return inserted;
      });
      await queuePreflight(row);
      return presentProof(row);
    },

    /**
     * The buyer's decision on the latest version of a line, with its evidence: the user and role,
     * the typed name, the server time, IP, user agent and the SHA-256 of the proof PDF shown.
     */
    async decide(
      actor: Actor,
      quoteId: string,
      proofId: string,
      input: DecisionInput,
      meta: RequestMeta,
      guest?: GuestDecider,
    ) {
      await visibleProof(actor, quoteId, proofId);
      if (input.decision === 'approved' && input.confirm !== true) {
        throw badRequest('Approving a proof needs the explicit confirmation', [
          { pointer: '/confirm', message: 'must be true to approve', in: 'body' },
        ]);
      }
      const comment = input.comment?.trim() || null;
      if (input.decision === 'changes_requested' && !comment) {
        throw badRequest('Say which changes are wanted', [
          { pointer: '/comment', message: 'is required to request changes', in: 'body' },
        ]);
      }
      const typedName = input.typedName.trim();
      if (!typedName) {
        throw badRequest('Type your name to decide', [
          { pointer: '/typedName', message: 'is blank', in: 'body' },
        ]);
      }
      const row = await ctx.change(actor, async (tx, record) => {
        const locked = await lockQuote(tx, actor.organisationId, quoteId);
        if (!locked) throw notFound('Quote');
        const current = await findProof(tx, actor.organisationId, quoteId, proofId);
        if (!current) throw notFound('Proof');
        const latest = await nextVersion(tx, current.quoteItemId);
        if (current.version !== latest - 1 || current.decision) {
          throw new AppError(
            'proof_superseded',
            current.decision
              ? `Version ${current.version} has already been ${current.decision === 'approved' ? 'approved' : 'answered'}`
              : `Version ${current.version} is not the line's latest proof (version ${latest - 1} is)`,
          );
        }
        assertOpen(locked);
        if (current.preflightState === 'pending' || !current.proofFileId || !current.proofSha256) {
          throw new AppError('proof_not_ready', 'The proof is still being made: reload it in a moment');
        }
        if (input.proofSha256 && input.proofSha256.toLowerCase() !== current.proofSha256) {
          throw new AppError(
            'proof_hash_mismatch',
            'The SHA-256 sent is not that of the stored proof PDF: show the current proof and decide again',
          );
        }
        const after = await updateProof(tx, proofId, {
          decision: input.decision,
          decidedById: guest ? null : actor.userId,
          decidedRole: guest ? 'guest' : actor.role,
          decidedGuestLinkId: guest?.guestLinkId ?? null,
          decidedEmail: guest?.email ?? null,
          typedName,
          comment,
          decidedAt: new Date(),
          ip: meta.ip,
          userAgent: meta.userAgent,
          hashFromClient: Boolean(input.proofSha256),
        });
        await refreshProofsPending(tx, quoteId);
        await recordProof(record, after, 'UPDATE', {
          fieldName: 'decision',
          updatedColumns: [
            'decision',
            'decidedById',
            'decidedGuestLinkId',
            'decidedEmail',
            'typedName',
            'comment',
            'decidedAt',
            'ip',
            'userAgent',
          ],
        });
        return after;
      });
      return presentProof(row);
    },

    /** GET /public/quotes/:token/proofs: the proofs of a guest link made for proofs. */
    async guestList(token: string) {
      const { actor, quoteId } = await guestOf(token);
      const found = await this.list(actor, quoteId);
      return {
        ...found,
        lines: found.lines.map((line) => ({
          ...line,
          versions: line.versions.map((v) => guestProof(token, v)),
        })),
      };
    },

    /**
     * A guest's decision through a link made for proofs: as a buyer's, with the link and the
     * e-mail typed as the evidence of who decided (the link names no person).
     */
    async guestDecide(token: string, proofId: string, input: GuestDecisionInput, meta: RequestMeta) {
      const { link, actor, quoteId } = await guestOf(token);
      const { email, ...decision } = input;
      const email_ = email.trim();
      if (!email_)
        throw badRequest('Type your e-mail to decide', [
          { pointer: '/email', message: 'is blank', in: 'body' },
        ]);
      const proof = await this.decide(actor, quoteId, proofId, decision, meta, {
        guestLinkId: link.id,
        email: email_,
      });
      return guestProof(token, proof);
    },

    /** A guest's proof PDF, preview and artwork (a link made for proofs, its quote's proofs only). */
    async guestFile(
      token: string,
      proofId: string,
      what: 'pdf' | 'preview' | 'artwork',
      fit?: 'blank' | 'page',
    ) {
      const { actor, quoteId } = await guestOf(token);
      if (what === 'pdf') return { kind: 'pdf' as const, ...(await this.proofPdf(actor, quoteId, proofId)) };
      if (what === 'preview')
        return { kind: 'preview' as const, ...(await this.preview(actor, quoteId, proofId, fit)) };
      return { kind: 'artwork' as const, ...(await this.artwork(actor, quoteId, proofId)) };
    },

    /** The proof PDF of a version (409 `proof_not_ready` while it is being made). */
    async proofPdf(actor: Actor, quoteId: string, proofId: string) {
      const row = await visibleProof(actor, quoteId, proofId);
      if (!row.proofFileId) throw new AppError('proof_not_ready', 'The proof is still being made');
      const { file, content } = await files.read(actor, row.proofFileId, {
        entity: 'quote',
        entityId: quoteId,
      });
      return { filename: file.filename, sha256: file.sha256, content };
    },

    /** The artwork as uploaded. */
    async artwork(actor: Actor, quoteId: string, proofId: string) {
      const row = await visibleProof(actor, quoteId, proofId);
      const { file, content } = await files.read(actor, row.artworkFileId, {
        entity: 'quote',
        entityId: quoteId,
      });
      return { filename: file.filename, mimeType: file.mimeType, sha256: file.sha256, content };
    },

    /**
     * The artwork's first page as PNG: `blank` (default when the line has a die-line) the part over
     * the blank, corner to corner (what a folded preview lays over the die-line's bounding box);
     * `page` the whole first page. At most 2048 px a side.
     */
    async preview(actor: Actor, quoteId: string, proofId: string, fit: 'blank' | 'page' = 'blank') {
      const row = await visibleProof(actor, quoteId, proofId);
      if (row.preflightState === 'pending')
        throw new AppError('proof_not_ready', 'The proof is still being made');
      const info = row.artwork;
      if (!info) throw notFound('Artwork preview');
      const content = await readFileContent(ctx.db, row.artworkFileId);
      if (!content) throw notFound('Artwork preview');
      const area =
        fit === 'blank' && info.blank ? info.blank : { widthMm: info.widthMm, heightMm: info.heightMm };
      const pxPerMm = Math.min(
        PREVIEW_MAX_PX_PER_MM,
        PREVIEW_MAX_PX / Math.max(area.widthMm, area.heightMm, 1),
      );
      const png = await (await artworkReaders()).renderOverBlank(
        content,
        info.kind as ArtworkKind,
        info,
        area,
        pxPerMm,
      );
      return {
        png,
        etag: `"${createHash('sha256').update(png).digest('base64url')}"`,
        blank: info.blank,
        fit: area === info.blank ? ('blank' as const) : ('page' as const),
      };
    },
  };
}

export type ProofService = ReturnType<typeof createProofService>;

const round = (value: number) => Math.round(value * 10) / 10;

/** A finding in English words, for the proof PDF (the web words it in the user's language). */
export function findingText(f: PreflightFinding): string {
  const p = f.params;
  switch (f.code) {
    case 'low_resolution':
      return `images at ${p.ppi} ppi at print size (${p.requiredPpi} ppi wanted)`;
    case 'rgb_colour_space':
      return 'RGB colours: the job prints in CMYK';
    case 'no_output_intent':
      return 'no output intent (print condition) in the PDF';
    case 'no_bleed':
      return `no bleed: ${p.widthMm} x ${p.heightMm} mm, ${p.requiredWidthMm} x ${p.requiredHeightMm} mm needed (${p.bleedMm} mm bleed)`;
    case 'wrong_size':
      return `wrong size: ${p.widthMm} x ${p.heightMm} mm, the template is ${p.expectedWidthMm} x ${p.expectedHeightMm} mm`;
    case 'no_template':
      return 'the line has no die-line: size and bleed not checked';
    case 'unreadable':
      return 'the file could not be read';
    default:
      return f.code;
  }
}
