/** Relative luminance (WCAG) of a #rrggbb colour. */
function luminance(hex: string): number {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return 1;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(m[1]!.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/**
 * Text colour for a status background: the status's own `fgColor` when it is readable on it
 * (contrast >= 4.5), else black or white, whichever contrasts more (organisations pick colours
 * freely; the badge must stay legible, and axe checks it).
 */
export function statusColours(status: {
  color?: string | null;
  bgColor?: string | null;
  fgColor?: string | null;
}) {
  const background = status.bgColor ?? status.color ?? '#495057';
  const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const bg = luminance(background);
  if (status.fgColor && contrast(bg, luminance(status.fgColor)) >= 4.5)
    return { background, color: status.fgColor };
  return { background, color: contrast(bg, 0) >= contrast(bg, 1) ? '#000000' : '#ffffff' };
}
