/**
 * SVG drawings of a die-line and of an imposition, in millimetres (1 user unit = 1 mm).
 *
 * Die-line: one <path class="cut"> per cut segment (solid) and one <path class="crease"> per
 * crease segment (dashed), the board as a light polygon underneath, and dimension lines.
 * Imposition: the sheet, the gripper margin, the usable area and every blank at its place,
 * turned 90 degrees where the layout rotates it.
 */
import type { DieLine } from './geometry/die-line.ts';
import type { Imposition } from './imposition.ts';

const n = (value: number) => (Math.round(value * 100) / 100).toString();

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const STYLE = [
  '.board{fill:#f4ecdc;stroke:none}',
  '.cut{fill:none;stroke:#000;stroke-width:0.6;stroke-linecap:round}',
  '.crease{fill:none;stroke:#c0392b;stroke-width:0.5;stroke-dasharray:4 2}',
  '.dim{stroke:#2c6fbb;stroke-width:0.3;fill:none}',
  '.dim-text{fill:#2c6fbb;font-family:sans-serif;text-anchor:middle}',
  '.sheet{fill:#fff;stroke:#333;stroke-width:0.8}',
  '.gripper{fill:#f9d9a8;stroke:none}',
  '.usable{fill:none;stroke:#888;stroke-width:0.4;stroke-dasharray:6 3}',
  '.blank{fill:#f4ecdc;stroke:#000;stroke-width:0.5}',
  '.label{fill:#333;font-family:sans-serif;text-anchor:middle}',
].join('');

function outlinePoints(dieLine: DieLine): string {
  return dieLine.outline.map((p) => `${n(p.x)},${n(p.y)}`).join(' ');
}

export function renderDieLineSvg(dieLine: DieLine): string {
  const step = Math.max(8, Math.min(dieLine.width, dieLine.height) * 0.06);
  const font = step * 0.45;
  const xMarks = dieLine.dimensions.filter((d) => d.axis === 'x');
  const yMarks = dieLine.dimensions.filter((d) => d.axis === 'y');
  const padTop = (xMarks.length + 1) * step;
  const padLeft = (yMarks.length + 1) * step;
  const pad = step;
  const width = dieLine.width + padLeft + pad;
  const height = dieLine.height + padTop + pad;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(width)} ${n(height)}" width="${n(width)}mm" height="${n(height)}mm">`,
  );
  out.push(
    `<title>${escapeXml(`${dieLine.style} die-line ${n(dieLine.width)} x ${n(dieLine.height)} mm`)}</title>`,
  );
  out.push(`<style>${STYLE}</style>`);
  out.push(`<g transform="translate(${n(padLeft)},${n(padTop)})">`);
  out.push(`<polygon class="board" points="${outlinePoints(dieLine)}"/>`);
  for (const hole of dieLine.holes) {
    out.push(`<polygon fill="#fff" points="${hole.map((p) => `${n(p.x)},${n(p.y)}`).join(' ')}"/>`);
  }
  for (const s of dieLine.segments) {
    const cls = s.kind === 'CUT' ? 'cut' : 'crease';
    out.push(`<path class="${cls}" d="M${n(s.x1)} ${n(s.y1)}L${n(s.x2)} ${n(s.y2)}"/>`);
  }
  out.push('<g class="dimensions">');
  xMarks.forEach((mark, i) => {
    const y = -(i + 1) * step;
    const mid = (mark.start + mark.end) / 2;
    out.push(
      `<path class="dim" d="M${n(mark.start)} ${n(y)}L${n(mark.end)} ${n(y)}M${n(mark.start)} ${n(y - font / 2)}L${n(mark.start)} ${n(y + font / 2)}M${n(mark.end)} ${n(y - font / 2)}L${n(mark.end)} ${n(y + font / 2)}"/>`,
    );
    out.push(
      `<text class="dim-text" x="${n(mid)}" y="${n(y - font * 0.3)}" font-size="${n(font)}">${escapeXml(`${mark.label} ${n(mark.end - mark.start)}`)}</text>`,
    );
  });
  yMarks.forEach((mark, i) => {
    const x = -(i + 1) * step;
    const mid = (mark.start + mark.end) / 2;
    out.push(
      `<path class="dim" d="M${n(x)} ${n(mark.start)}L${n(x)} ${n(mark.end)}M${n(x - font / 2)} ${n(mark.start)}L${n(x + font / 2)} ${n(mark.start)}M${n(x - font / 2)} ${n(mark.end)}L${n(x + font / 2)} ${n(mark.end)}"/>`,
    );
    out.push(
      `<text class="dim-text" x="${n(x - font * 0.3)}" y="${n(mid)}" font-size="${n(font)}" transform="rotate(-90 ${n(x - font * 0.3)} ${n(mid)})">${escapeXml(`${mark.label} ${n(mark.end - mark.start)}`)}</text>`,
    );
  });
  out.push('</g></g></svg>');
  return out.join('');
}

export function renderImpositionSvg(imposition: Imposition, dieLine?: DieLine): string {
  const { sheet, usable, margins } = imposition;
  const font = Math.max(8, sheet.width * 0.015);
  const caption = font * 2.5;
  const width = sheet.width;
  const height = sheet.height + caption;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(width)} ${n(height)}" width="${n(width)}mm" height="${n(height)}mm">`,
  );
  out.push(
    `<title>${escapeXml(`${imposition.ups} ups on a ${sheet.width} x ${sheet.height} mm sheet`)}</title>`,
  );
  out.push(`<style>${STYLE}</style>`);
  out.push(`<rect class="sheet" x="0" y="0" width="${n(sheet.width)}" height="${n(sheet.height)}"/>`);
  out.push(`<rect class="gripper" x="0" y="0" width="${n(sheet.width)}" height="${n(margins.gripperMm)}"/>`);
  out.push(
    `<text class="label" x="${n(sheet.width / 2)}" y="${n(Math.max(margins.gripperMm * 0.8, font * 0.8))}" font-size="${n(Math.min(font, Math.max(margins.gripperMm, 4) * 0.8))}">gripper ${n(margins.gripperMm)} mm</text>`,
  );
  out.push(
    `<rect class="usable" x="${n(usable.x)}" y="${n(usable.y)}" width="${n(usable.width)}" height="${n(usable.height)}"/>`,
  );
  imposition.placements.forEach((p, i) => {
    // Nested layouts turn every other row 180 degrees (head to tail), after any 90-degree turn.
    const transform = p.turned
      ? p.rotated
        ? `translate(${n(p.x)},${n(p.y + p.height)}) rotate(270)`
        : `translate(${n(p.x + p.width)},${n(p.y + p.height)}) rotate(180)`
      : p.rotated
        ? `translate(${n(p.x + p.width)},${n(p.y)}) rotate(90)`
        : `translate(${n(p.x)},${n(p.y)})`;
    const shape = dieLine
      ? `<polygon class="blank" points="${outlinePoints(dieLine)}"/>`
      : `<rect class="blank" x="0" y="0" width="${n(imposition.blank.width)}" height="${n(imposition.blank.height)}"/>`;
    out.push(
      `<g class="placement${p.rotated ? ' rotated' : ''}${p.turned ? ' turned' : ''}" transform="${transform}">${shape}</g>`,
    );
    out.push(
      `<text class="label" x="${n(p.x + p.width / 2)}" y="${n(p.y + p.height / 2)}" font-size="${n(font)}">${i + 1}${p.rotated ? ' R' : ''}${p.turned ? ' T' : ''}</text>`,
    );
  });
  const layout = imposition.layout === 'NESTED' ? ` nested head to tail (grid: ${imposition.gridUps})` : '';
  const summary = `${sheet.width} x ${sheet.height} mm, ${imposition.ups} ups${layout}, utilisation ${n(imposition.utilisation * 100)} %, gutter ${n(margins.gutterMm)} mm`;
  out.push(
    `<text class="label" x="${n(width / 2)}" y="${n(sheet.height + caption * 0.65)}" font-size="${n(font)}">${escapeXml(summary)}</text>`,
  );
  out.push('</svg>');
  return out.join('');
}
