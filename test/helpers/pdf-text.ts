/**
 * Text of a PDF written by pdfkit, without any PDF library: objects are read, Flate streams
 * inflated, each font's ToUnicode CMap parsed, and the strings of the text operators (Tj, TJ)
 * decoded through them. One line per text object (BT ... ET). It understands what pdfkit writes,
 * not every PDF; the tests and the benchmark use it to check what a quote PDF says.
 */
import { inflateSync } from 'node:zlib';

type PdfObject = { dict: string; stream?: Buffer };

function readObjects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const pattern = /(\d+) 0 obj\b/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endobj', start);
    if (end < 0) break;
    const body = text.slice(start, end);
    const streamAt = body.search(/stream\r?\n/);
    if (streamAt < 0) {
      objects.set(Number(match[1]), { dict: body });
      pattern.lastIndex = end;
      continue;
    }
    const dict = body.slice(0, streamAt);
    const dataStart = start + streamAt + body.slice(streamAt).indexOf('\n') + 1;
    const length = /\/Length (\d+)(?! \d+ R)/.exec(dict);
    let dataEnd = length ? dataStart + Number(length[1]) : text.indexOf('endstream', dataStart);
    if (!length && text[dataEnd - 1] === '\n') dataEnd -= text[dataEnd - 2] === '\r' ? 2 : 1;
    let stream = pdf.subarray(dataStart, dataEnd);
    if (/\/Filter\s*\/FlateDecode/.test(dict)) stream = inflateSync(stream);
    objects.set(Number(match[1]), { dict, stream });
    pattern.lastIndex = end;
  }
  return objects;
}

type CMap = Map<number, string>;

const hexToUnicode = (text: string) => {
  const hex = text.replace(/\s/g, '');
  let out = '';
  for (let i = 0; i + 4 <= hex.length; i += 4)
    out += String.fromCharCode(Number.parseInt(hex.slice(i, i + 4), 16));
  return out;
};

function parseCMap(source: string): CMap {
  const map: CMap = new Map();
  for (const block of source.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const entry of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]*)>/g)) {
      map.set(Number.parseInt(entry[1]!, 16), hexToUnicode(entry[2]!));
    }
  }
  for (const block of source.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    const body = block[1]!;
    const entries = /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g;
    for (const entry of body.matchAll(entries)) {
      const low = Number.parseInt(entry[1]!, 16);
      const high = Number.parseInt(entry[2]!, 16);
      const target = entry[3]!;
      if (target.startsWith('[')) {
        const values = [...target.matchAll(/<([0-9a-fA-F\s]*)>/g)].map((m) => hexToUnicode(m[1]!));
        values.forEach((value, i) => {
          if (low + i <= high) map.set(low + i, value);
        });
      } else {
        const first = Number.parseInt(target.slice(1, -1), 16);
        for (let code = low; code <= high; code++) map.set(code, String.fromCharCode(first + code - low));
      }
    }
  }
  return map;
}

/** Font resource names (F1, F2...) to their CMaps; null for a simple font without one. */
function fontMaps(objects: Map<number, PdfObject>): Map<string, CMap | null> {
  const fonts = new Map<string, CMap | null>();
  for (const object of objects.values()) {
    for (const block of object.dict.matchAll(/\/Font\s*<<([^>]*)>>/g)) {
      for (const ref of block[1]!.matchAll(/\/([A-Za-z0-9_.-]+)\s+(\d+) 0 R/g)) {
        const font = objects.get(Number(ref[2]));
        const toUnicode = font ? /\/ToUnicode (\d+) 0 R/.exec(font.dict) : null;
        const cmap = toUnicode ? objects.get(Number(toUnicode[1]))?.stream : undefined;
        fonts.set(ref[1]!, cmap ? parseCMap(cmap.toString('latin1')) : null);
      }
    }
  }
  return fonts;
}

function decodeLiteral(literal: string): string {
  return literal.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, sequence: string) => {
    const simple: Record<string, string> = {
      n: '\n',
      r: '\r',
      t: '\t',
      b: '\b',
      f: '\f',
      '(': '(',
      ')': ')',
      '\\': '\\',
    };
    return simple[sequence] ?? String.fromCharCode(Number.parseInt(sequence, 8));
  });
}

function decodeString(token: string, cmap: CMap | null): string {
  if (token.startsWith('<')) {
    const hex = token.slice(1, -1).replace(/\s/g, '');
    if (!cmap) {
      let out = '';
      for (let i = 0; i + 2 <= hex.length; i += 2)
        out += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
      return out;
    }
    let out = '';
    for (let i = 0; i + 4 <= hex.length; i += 4)
      out += cmap.get(Number.parseInt(hex.slice(i, i + 4), 16)) ?? '';
    return out;
  }
  const raw = decodeLiteral(token.slice(1, -1));
  if (!cmap) return raw;
  let out = '';
  for (let i = 0; i + 1 < raw.length; i += 2)
    out += cmap.get(raw.charCodeAt(i) * 256 + raw.charCodeAt(i + 1)) ?? '';
  return out;
}

const TOKENS =
  /\/([A-Za-z0-9_.-]+)\s+[\d.]+\s+Tf|\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9a-fA-F\s]*>|\((?:[^)\\]|\\.)*\))\s*Tj|\bBT\b|\bET\b/g;

/** The text of every page, one line per text object, in the order it is written. */
export function extractPdfText(pdf: Buffer): string {
  const objects = readObjects(pdf);
  const fonts = fontMaps(objects);
  const lines: string[] = [];
  for (const object of objects.values()) {
    if (!object.stream || /\/(Subtype|Type)\s*\/(Image|XObject|Font|FontFile)/.test(object.dict)) continue;
    const content = object.stream.toString('latin1');
    if (!content.includes('BT')) continue;
    let cmap: CMap | null = null;
    let line = '';
    for (const match of content.matchAll(TOKENS)) {
      if (match[1]) cmap = fonts.get(match[1]) ?? null;
      else if (match[2] !== undefined) {
        for (const part of match[2].matchAll(/<[0-9a-fA-F\s]*>|\((?:[^)\\]|\\.)*\)/g))
          line += decodeString(part[0], cmap);
      } else if (match[3]) line += decodeString(match[3], cmap);
      else if (match[0] === 'ET') {
        lines.push(line);
        line = '';
      }
    }
    if (line) lines.push(line);
  }
  return lines.join('\n');
}

/** The decoded content streams of the pages (drawing operators), for checks of what is drawn. */
export function pdfContentStreams(pdf: Buffer): string[] {
  const streams: string[] = [];
  for (const object of readObjects(pdf).values()) {
    if (
      !object.stream ||
      /\/(Subtype|Type)\s*\/(Image|XObject|Font|FontFile)|\/Length1|CMapName/.test(object.dict)
    )
      continue;
    const content = object.stream.toString('latin1');
    if (/\b(BT|re|l|m)\b/.test(content)) streams.push(content);
  }
  return streams;
}
