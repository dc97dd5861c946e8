/** How die-line files are named (pure: the quote PDF lists the names the routes answer). */

export const mm = (value: number) => String(Math.round(value * 10) / 10);

/** `B-000123-v2-1-RTE-100x50x150`: brief code, version, element number, product, inside size. */
export function fileStem(source: {
  brief: { code: string };
  version: number;
  position: number;
  input: { lengthDimension: number; widthDimension: number; heightDimension: number };
  computed: { productCode: string };
}) {
  const { input } = source;
  const size = [input.lengthDimension, input.widthDimension, input.heightDimension]
    .filter((v, i) => i < 2 || v > 0)
    .map(mm)
    .join('x');
  const raw = `${source.brief.code}-v${source.version}-${source.position + 1}-${source.computed.productCode}-${size}`;
  return raw.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** The three files of an element's die-line, by the stem. */
export const templateFileNames = (stem: string) => ['pdf', 'dxf', 'cf2'].map((ext) => `${stem}.${ext}`);
