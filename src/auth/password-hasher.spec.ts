import { hashPassword, verifyPassword } from './password-hasher';

describe('password hasher', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(hash).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', hash)).resolves.toBe(true);
    await expect(verifyPassword('correct horsf', hash)).resolves.toBe(false);
  });

  it('salts: the same password hashes differently', async () => {
    expect(await hashPassword('pw')).not.toBe(await hashPassword('pw'));
  });
});
