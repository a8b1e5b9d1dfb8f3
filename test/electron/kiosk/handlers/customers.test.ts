import { afterAll, beforeAll, expect, it } from 'vitest';
import { ambiguousEmail } from '../../../../sandbox/data/demo.ts';
import { type KioskFixture, replyTo, send, startKioskFixture } from '../support.ts';

/**
 * Customer search by every criterion the service takes (the default profile names them all, as
 * the sandbox takes them), against the sandbox over HTTP.
 */

let fixture: KioskFixture;
beforeAll(async () => {
  fixture = await startKioskFixture();
}, 60_000);
afterAll(() => fixture?.close());

it('says which criteria besides the e-mail address the service takes', async () => {
  expect(await replyTo(fixture, 'customerSearchCriteria', {})).toEqual({
    criteria: ['lastName', 'firstName', 'phone', 'postalCode'],
  });
});

it('searches by name without an e-mail address, every criterion given combined', async () => {
  const moreaus = await replyTo(fixture, 'searchCustomers', { lastName: 'Moreau', limit: 20 });
  expect(moreaus.data.length).toBeGreaterThan(1);
  for (const match of moreaus.data) expect(match.lastName?.toLowerCase()).toBe('moreau');

  const julien = await replyTo(fixture, 'searchCustomers', {
    lastName: 'Moreau',
    firstName: 'Julien',
    email: ambiguousEmail.email,
  });
  expect(julien.data.map((match) => `${match.firstName} ${match.lastName}`)).toEqual([
    'Julien Moreau',
  ]);
});

it('refuses a search with no criterion, and an e-mail field that is not an address', async () => {
  for (const request of [{}, { email: 'moreau' }, { lastName: '  ' }]) {
    const result = await send(fixture, 'searchCustomers', request);
    expect(result.ok ? null : result.error.code).toBe('IPC_INVALID_REQUEST');
  }
});
