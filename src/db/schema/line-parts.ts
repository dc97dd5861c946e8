/**
 * The parts of a quote or order line kept beside its money (docs/quotes.md, "Variants and
 * tooling"): the decoration variants it is made of and the tools its tooling amount pays for.
 */

/**
 * A decoration variant (artwork) of a brief element as the brief gave it. Stored with the
 * brief's quantities; a read scales them to the line's quantity and splits the line's amount
 * between them (src/platform/line-parts.ts), so they always add up to the line.
 */
export type LineVariant = {
  decorationIndex: number;
  name: string | null;
  artworkReference: string | null;
  quantity: number;
};

/** One tool of a line's tooling (a cutting die, flexo plates...), its amount in the line's currency. */
export type LineTooling = { code: string; name: string; amount: number };

/** What an element line is made of: catalogue record ids, colours, finishes as operation codes. */
export type LineSpecification = {
  productId: string | null;
  materialReferenceId: string | null;
  /** "4/0": recto/verso colours; null when not printed. */
  colours: string | null;
  /** Operation codes of the finishes (VARNISH, LAMINATION, HOT_FOIL_STAMPING, EMBOSSING, WINDOW_PATCHING). */
  finishes: string[];
};
