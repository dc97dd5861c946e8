import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../scripts/openapi.ts';

const TYPES_PATH = 'web/src/api/schema.d.ts';

describe('web app API types', () => {
  it(`${TYPES_PATH} is generated from ${OPENAPI_PATH} (run npm run web:api-types)`, async () => {
    const expected = astToString(await openapiTS(new URL(`../../${OPENAPI_PATH}`, import.meta.url)));
    const file = readFileSync(new URL(`../../${TYPES_PATH}`, import.meta.url), 'utf8');
    // The CLI adds a header comment before the generated declarations.
    expect(file.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '')).toBe(expected);
  });
});
