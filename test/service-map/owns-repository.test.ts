import { describe, expect, it } from 'vitest';
import { ownsRepository } from '#lib/service-map/service.ts';

const checkout = { name: 'checkout', repository: null };
const payments = { name: 'payments-api', repository: 'acme/payments' };

describe('which service a deploy or run belongs to', () => {
  it('gives a repository named like a service to that service, without case', () => {
    expect(ownsRepository(checkout, 'Acme/Checkout')).toBe(true);
    expect(ownsRepository(checkout, 'acme/checkout-api')).toBe(false);
  });

  it('gives a service the repository its field names, and no other of its name', () => {
    expect(ownsRepository(payments, 'ACME/payments')).toBe(true);
    expect(ownsRepository(payments, 'other/payments-api')).toBe(false);
  });

  it("matches an AWS deploy's application, which has no owner, against the service's name", () => {
    expect(ownsRepository(payments, 'payments-api')).toBe(true);
    expect(ownsRepository(checkout, 'checkout')).toBe(true);
    expect(ownsRepository(checkout, 'payments-api')).toBe(false);
  });
});
