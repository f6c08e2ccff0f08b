// scrypt password hashes: self-describing, salted, verified timing-safely; wrong or malformed inputs fail closed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../../../src/auth/passwords.ts';

describe('password hashing', () => {
  it('stores scrypt parameters, a salt and a hash, never the password', async () => {
    const stored = await hashPassword('correct horse battery');
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    assert.equal(scheme, 'scrypt');
    assert.ok(Number(n) >= 2 ** 15, 'memory-hard: N ≥ 2^15 (32 MiB with r=8)');
    assert.equal(r, '8');
    assert.equal(p, '1');
    assert.equal(Buffer.from(salt ?? '', 'base64url').length, 16);
    assert.equal(Buffer.from(hash ?? '', 'base64url').length, 32);
    assert.ok(!stored.includes('horse'));
  });

  it('salts each hash: the same password hashes differently and both verify', async () => {
    const [a, b] = await Promise.all([hashPassword('same password!'), hashPassword('same password!')]);
    assert.notEqual(a, b);
    assert.equal(await verifyPassword('same password!', a), true);
    assert.equal(await verifyPassword('same password!', b), true);
  });

  const cases: Array<[string, string]> = [
    ['wrong password', 'a different password'],
    ['case differs', 'Correct Horse Battery'],
    ['empty', ''],
    ['prefix only', 'correct horse'],
  ];
  for (const [label, attempt] of cases) {
    it(`rejects: ${label}`, async () => {
      const stored = await hashPassword('correct horse battery');
      assert.equal(await verifyPassword(attempt, stored), false);
    });
  }

  it('treats Unicode-equivalent spellings alike (NFKC) and malformed stored values as a mismatch', async () => {
    const stored = await hashPassword('caf\u00e9 au lait 1');
    assert.equal(await verifyPassword('cafe\u0301 au lait 1', stored), true);
    for (const bad of ['', 'plain', 'bcrypt$x$y', 'scrypt$16384$8$1$$']) assert.equal(await verifyPassword('x', bad), false, bad);
  });
});
