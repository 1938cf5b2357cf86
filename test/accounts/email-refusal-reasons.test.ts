import { describe, expect, it } from 'vitest';
import { validateEmail } from '../../src/accounts/service.js';

// `a@b.c`, `Ana <ana@example.com>`, `mailto:ana@example.com` were refused only as "not an email
// address"; the refusal now says what to change, in the API, the CLI and wherever the address is read.
describe('an email address refused', () => {
  const refusal = (email: string) => {
    try {
      validateEmail(email);
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };
  it.each([
    ['a@b.c', "Invalid 'email': 'a@b.c' is not an email address: its domain must end in a name of two letters or more, such as .com."],
    ['ops@example.x', "Invalid 'email': 'ops@example.x' is not an email address: its domain must end in a name of two letters or more, such as .com."],
    ['Ana <Ana@Example.com>', "Invalid 'email': 'ana <ana@example.com>' is not an email address: give the address alone, 'ana@example.com'."],
    ['mailto:ana@example.com', "Invalid 'email': 'mailto:ana@example.com' is not an email address: give the address without 'mailto:', 'ana@example.com'."],
    ['not-an-email', "Invalid 'email': 'not-an-email' is not an email address."],
  ])('%j says why', (email, message) => {
    expect(refusal(email)).toBe(message);
  });
  it('good addresses are still taken', () => {
    expect(validateEmail('ana@example.com')).toBe('ana@example.com');
    expect(validateEmail('ana@b.co')).toBe('ana@b.co');
  });
});
