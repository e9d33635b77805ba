import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '../common/errors/error-codes';
import { Access } from './access.decorator';
import { AuthenticationService } from './authentication.service';
import { BasicAuthGuard } from './basic-auth.guard';
import { Principal } from './principal';
import { Role } from './user.entity';

const principal = (role: Role): Principal => ({ userId: 'u-1', username: 'alice', role, merchantId: role === Role.Admin ? null : 'm-1' });
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe(BasicAuthGuard.name, () => {
  let authenticate: jest.Mock<Promise<Principal | null>, [string, string]>;
  let access: Access | undefined;
  let sut: BasicAuthGuard;

  beforeEach(() => {
    authenticate = jest.fn().mockResolvedValue(principal(Role.Merchant));
    access = undefined;
    const reflector = { getAllAndOverride: () => access } as unknown as Reflector;
    sut = new BasicAuthGuard(reflector, { authenticate } as unknown as AuthenticationService);
  });

  const run = (authorization?: string) => {
    const request: { headers: Record<string, string>; user?: Principal } = { headers: authorization === undefined ? {} : { authorization } };
    const context = {
      switchToHttp: () => ({ getRequest: () => request }),
      getHandler: () => undefined,
      getClass: () => undefined,
    } as unknown as ExecutionContext;
    return { request, result: sut.canActivate(context) };
  };
  const rejectsWith = (promise: Promise<boolean>, code: ErrorCode) => expect(promise).rejects.toMatchObject({ code });

  it('checks the decoded pair and puts the principal on the request', async () => {
    const { request, result } = run(basic('alice:pa:ss word'));
    await expect(result).resolves.toBe(true);
    expect(authenticate).toHaveBeenCalledWith('alice', 'pa:ss word');
    expect(request.user).toEqual(principal(Role.Merchant));
  });

  it('is AuthenticationRequired without a header', async () => {
    await rejectsWith(run().result, ErrorCode.AuthenticationRequired);
    expect(authenticate).not.toHaveBeenCalled();
  });

  it.each([['another scheme', 'Bearer abc'], ['bad base64', 'Basic !!!'], ['no colon', basic('alice')], ['an empty password', basic('alice:')]])(
    'is InvalidCredentials for %s, without looking up anyone',
    async (_, header) => {
      await rejectsWith(run(header).result, ErrorCode.InvalidCredentials);
      expect(authenticate).not.toHaveBeenCalled();
    },
  );

  it('is InvalidCredentials when the credentials do not match', async () => {
    authenticate.mockResolvedValue(null);
    const { request, result } = run(basic('alice:wrong'));
    await rejectsWith(result, ErrorCode.InvalidCredentials);
    expect(request.user).toBeUndefined();
  });

  it.each([
    [Role.Merchant, 'write', true],
    [Role.Readonly, 'write', false],
    [Role.Admin, 'write', false],
    [Role.Readonly, 'read', true],
    [Role.Admin, undefined, true],
  ] as const)('a %s user, access %s: allowed %s', async (role, required, allowed) => {
    authenticate.mockResolvedValue(principal(role));
    access = required;
    const { result } = run(basic('alice:pw'));
    if (allowed) await expect(result).resolves.toBe(true);
    else await rejectsWith(result, ErrorCode.NotAuthorized);
  });
});
