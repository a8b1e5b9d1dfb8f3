import { describe, expect, test } from 'vitest';
import { omitBlocks } from '../../../sandbox/server/blocks.ts';
import { canonicalJson } from '../../../sandbox/server/idempotency.ts';

describe('omitBlocks', () => {
  const reply = {
    data: [
      { type: 'gift_card', customer: { uuid: 'c1', contact: { email: 'a@b.c' } } },
      { type: 'credit_note', customer: { uuid: 'c2', contact: { email: 'd@e.f' } } },
    ],
    contact: { email: 'x' },
  };

  test('paths: member, nested member, every element, elements matching', () => {
    expect(omitBlocks(reply, ['contact'])).not.toHaveProperty('contact');
    expect(
      omitBlocks(reply, ['data[].customer.contact']).data.map((entry) => entry.customer),
    ).toEqual([{ uuid: 'c1' }, { uuid: 'c2' }]);
    expect(omitBlocks(reply, ['data[type=gift_card]']).data.map((entry) => entry.type)).toEqual([
      'credit_note',
    ]);
    expect(omitBlocks({ customer: null }, ['customer.contact'])).toEqual({ customer: null });
  });

  test('never touches the records the reply was built from', () => {
    const copy = structuredClone(reply);
    omitBlocks(reply, ['contact', 'data[].customer.contact', 'data[type=gift_card]']);
    expect(reply).toEqual(copy);
  });
});

describe('canonicalJson', () => {
  test('key order and number spelling do not matter; values do', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"a":{"d":[1,2],"c":10.0}}'))).toBe(
      canonicalJson({ a: { c: 10, d: [1, 2] }, b: 1 }),
    );
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: null })).not.toBe(canonicalJson({}));
  });
});
