import { describe, expect, it } from 'vitest';
import { errorsCsv, templateCsv, toCsv } from './csv.ts';

describe('CSV files of the imports screen', () => {
  it('quotes cells with a delimiter, a quote or a line break, and defuses formulas', () => {
    expect(toCsv([['a', 'b, c', 'say "hi"', 'two\nlines', '=SUM(A1)', 3, null]])).toBe(
      'a,"b, c","say ""hi""","two\nlines",\'=SUM(A1),3,\r\n',
    );
    expect(toCsv([['a;b', 'c']], ';')).toBe('"a;b";c\r\n');
  });
  it('defuses a text cell starting with a tab or a carriage return too, but not a number', () => {
    expect(toCsv([['\tx', '\r=y', '-1', -12.5]])).toBe("'\tx,\"'\r=y\",'-1,-12.5\r\n");
  });
  it('writes a template header with the required columns first', () => {
    expect(
      templateCsv({
        code: '18',
        name: 'articles',
        requiredColumns: ['code'],
        columns: [{ name: 'name' }, { name: 'code' }, { name: 'price' }],
      }),
    ).toBe('code,name,price\r\n');
  });
  it('writes the row errors with their line, column and message', () => {
    expect(errorsCsv([{ row: 3, column: 'email', message: 'not an e-mail, sorry' }])).toBe(
      'line,column,message\r\n3,email,"not an e-mail, sorry"\r\n',
    );
  });
});
