import type { Tx } from '../../db/client.ts';
import type { ImportError } from '../../db/schema/imports.ts';
import type { CustomFieldEntity } from '../../db/schema/organisation-data.ts';
import type { Change, EntityDescriptor } from '../../platform/events.ts';
import type { CustomFieldDefinition } from '../custom-fields/validate.ts';
import type { RowReader } from './values.ts';

/** A data row of the file: its line, and its cells by column (only columns of the header). */
export type InputRow = {
  /** Line in the file where the record ends (the header is line 1). */
  row: number;
  values: Record<string, string>;
  /** Custom field cells by field key (`cf.<key>` columns). */
  customFields: Record<string, string>;
};

/** What a batch sees: its transaction, the import, and the file's header. */
export type BatchContext = {
  tx: Tx;
  organisationId: string;
  /** The import's creator: the author of every change. */
  actorId: string | null;
  importId: string;
  dryRun: boolean;
  /** Columns of the header (canonical names), without the custom field columns. */
  columns: ReadonlySet<string>;
  /** Custom field definitions of the type's entity, by key. */
  definitions: ReadonlyMap<string, CustomFieldDefinition>;
  /** Per-import cache (e.g. order statuses by label), kept across batches. */
  cache: Map<string, unknown>;
};

export type BatchOutcome = {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: ImportError[];
  /** One event per record created or updated. */
  changes: Change[];
  /** Match keys met in the batch (rows that failed included), for allowDelete. */
  keys: string[];
  /** Records created by the batch, by key: in a dry run, what later rows may refer to. */
  createdKeys: Array<{ key: string; id: string }>;
};

export const emptyOutcome = (): BatchOutcome => ({
  created: 0,
  updated: 0,
  unchanged: 0,
  failed: 0,
  errors: [],
  changes: [],
  keys: [],
  createdKeys: [],
});

export type ColumnDoc = { name: string; description: string };

/** One kind of import: its columns, how rows match records, and how a batch is written. */
export type ImportType = {
  /** The API code, e.g. "16". */
  code: string;
  /** Short name, also accepted in place of the code, e.g. "companies". */
  name: string;
  description: string;
  entity: EntityDescriptor;
  customFieldEntity: CustomFieldEntity;
  /** Known columns (canonical names; headers match them case-insensitively). */
  columns: ColumnDoc[];
  /** Columns the header must have. */
  required: string[];
  /** Another rule of the header (e.g. one of two columns); returns what is wrong. */
  checkHeader?: (columns: ReadonlySet<string>) => string | undefined;
  /**
   * The match keys of a row, as stored in import_keys (used to keep a batch free of two rows for
   * the same record, and for allowDelete). Empty when the row has no usable key.
   */
  keysOf(row: InputRow): string[];
  /** Validates and writes (creates, updates) the rows of a batch in `c.tx`. */
  applyBatch(c: BatchContext, rows: InputRow[]): Promise<BatchOutcome>;
  /**
   * Archives up to `limit` live records of the type whose keys are not among the import's keys
   * (import_keys), returning their DELETE events; [] when none is left.
   */
  archiveAbsent(c: BatchContext, limit: number): Promise<Change[]>;
  /** How many records archiveAbsent would archive (dry runs). */
  countAbsent(c: BatchContext): Promise<number>;
};

/** Counts a failed row and keeps its errors. */
export function fail(out: BatchOutcome, reader: RowReader) {
  out.failed++;
  if (reader.errors.length === 0) reader.error(null, 'could not be imported');
  out.errors.push(...reader.errors);
}
