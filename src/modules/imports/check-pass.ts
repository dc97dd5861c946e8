import type { ChunkedFileStore } from '../files/chunks.ts';
import { csvRecords, type Header, isBlank, isCsvError, readHeader } from './csv.ts';
import { type Run, type RunFence, yieldToEventLoop } from './run.ts';

/** How often a worker checking a large file shows it is alive. */
const HEARTBEAT_MS = 5000;

/**
 * The check pass of an import: the whole file is read once before anything is written: a bad
 * header, a file that is not CSV, or a malformed record refuse it (FAILED) without partial
 * writes. Returns the row count.
 */
export async function checkFile(
  run: Run,
  deps: { store: ChunkedFileStore; fence: Pick<RunFence, 'heartbeat'> },
): Promise<{ rowsTotal: number } | { reason: string }> {
  const { store, fence } = deps;
  let header: Header | undefined;
  let count = 0;
  let beat = Date.now();
  try {
    for await (const record of csvRecords(store.read(run.row.fileId!), run.row.delimiter)) {
      if (!header) {
        if (isBlank(record)) continue;
        const read = readHeader(record, run.type, run.definitions, run.row.delimiter);
        if ('reason' in read) return read;
        header = read.header;
        continue;
      }
      count++;
      if ((count & 0x3ff) === 0) {
        run.heap.check();
        await yieldToEventLoop();
        if (Date.now() - beat > HEARTBEAT_MS) {
          beat = Date.now();
          await fence.heartbeat(run.row);
        }
      }
    }
  } catch (error) {
    if (isCsvError(error)) return { reason: `The file is not valid CSV: ${error.message}` };
    throw error;
  }
  if (!header) return { reason: 'The file has no header row' };
  return { rowsTotal: count };
}
