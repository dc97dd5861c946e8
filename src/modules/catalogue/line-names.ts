/**
 * A quote or order line's name and specification in each language of the app and the PDF, from
 * the catalogue's names per language (catalogue_entries.names): an element line is named by its
 * style and described by its board, colours and finishes in the reader's language. A name typed
 * by a user (`customName`) is shown as typed; a line without specification (a brief's group, an
 * article, a service) keeps its own name and description in every language.
 */
import type { LineSpecification } from '../../db/schema/line-parts.ts';
import type { Catalogue } from '../../pricing/index.ts';
import { type CatalogueNames, catalogueNameIn } from './repository.ts';

/** The languages a line is named in (the app's and the PDF's). */
export const LINE_LANGUAGES = ['en', 'fr', 'de'] as const;
export type LineLanguage = (typeof LINE_LANGUAGES)[number];

export type LineText = { name: string; description: string | null };
export type LocalisedLine = Record<LineLanguage, LineText>;

/**
 * The specification line of an element (board · colours · finishes) in a language: catalogue
 * names by id (styles, boards) and operation codes (finishes), in that language when the
 * catalogue has it (catalogueNameIn), else the record's name.
 */
export function specificationText(
  specification: LineSpecification,
  catalogue: Catalogue | undefined,
  nameOf: (record: { id: string; name: string }) => string = (record) => record.name,
): string | null {
  const board = specification.materialReferenceId
    ? catalogue?.materialReferences.find((m) => m.id === specification.materialReferenceId)
    : undefined;
  const parts: string[] = [];
  if (board) parts.push(nameOf(board));
  if (specification.colours) parts.push(specification.colours);
  for (const code of specification.finishes) {
    const operation = catalogue?.operations.find((o) => o.code === code);
    if (operation) parts.push(nameOf(operation));
  }
  return parts.length ? parts.join(' · ') : null;
}

/** A line's name and description in one language (see the file's comment). */
export function lineTextIn(
  line: {
    name: string;
    description: string | null;
    customName: boolean;
    specification: LineSpecification | null;
  },
  catalogue: Catalogue,
  names: CatalogueNames,
  language: string,
): LineText {
  const specification = line.specification;
  if (!specification) return { name: line.name, description: line.description };
  const nameOf = (record: { id: string; name: string }) => catalogueNameIn(names, record, language);
  const product = specification.productId
    ? catalogue.products.find((p) => p.id === specification.productId)
    : undefined;
  return {
    name: line.customName || !product ? line.name : nameOf(product),
    description: specificationText(specification, catalogue, nameOf) ?? line.description,
  };
}

/** A line's name and description in every language of LINE_LANGUAGES. */
export const localisedLine = (
  line: Parameters<typeof lineTextIn>[0],
  catalogue: Catalogue,
  names: CatalogueNames,
): LocalisedLine =>
  Object.fromEntries(
    LINE_LANGUAGES.map((language) => [language, lineTextIn(line, catalogue, names, language)]),
  ) as LocalisedLine;
