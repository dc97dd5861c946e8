/** What a quote becoming an order reads of the buyer's answer to it (conversion.ts). */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { quoteAcceptances } from '../../db/schema/acceptances.ts';

/** The `option` of the quote's acceptance (its evidence), or undefined when it was not accepted. */
export async function acceptedOptionOf(tx: Executor, quoteId: string): Promise<unknown> {
  const [evidence] = await tx
    .select({ option: quoteAcceptances.option })
    .from(quoteAcceptances)
    .where(and(eq(quoteAcceptances.quoteId, quoteId), eq(quoteAcceptances.decision, 'accepted')));
  return evidence?.option;
}

/** The PO number the buyer gave when answering the quote, if any. */
export async function acceptancePoNumberOf(
  tx: Executor,
  quoteId: string,
): Promise<string | null | undefined> {
  const [acceptance] = await tx
    .select({ poNumber: quoteAcceptances.poNumber })
    .from(quoteAcceptances)
    .where(eq(quoteAcceptances.quoteId, quoteId))
    .limit(1);
  return acceptance?.poNumber;
}
