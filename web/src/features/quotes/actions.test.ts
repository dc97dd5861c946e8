import { describe, expect, it } from 'vitest';
import { quoteActions } from './actions.ts';

describe('quote screen actions', () => {
  it('offers editing and publishing of a draft to staff only', () => {
    expect(quoteActions('draft', 'sales', false)).toEqual(['edit', 'publish']);
    expect(quoteActions('draft', 'contact', false)).toEqual([]);
    expect(quoteActions('draft', 'guest', false)).toEqual([]);
  });
  it('lets staff and the buyer answer a published quote; guests only read', () => {
    expect(quoteActions('published', 'contact', false)).toEqual(['accept', 'decline']);
    expect(quoteActions('published', 'sales', false)).toEqual([
      'accept',
      'decline',
      'pdf',
      'guestLinks',
      'revise',
    ]);
    expect(quoteActions('published', 'guest', false)).toEqual([]);
  });
  it('offers the conversion of a signed quote once', () => {
    expect(quoteActions('signed', 'admin', false)).toContain('convert');
    expect(quoteActions('signed', 'admin', true)).not.toContain('convert');
    expect(quoteActions('signed', 'contact', false)).toEqual([]);
  });
});
