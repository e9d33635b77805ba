import { Logger } from '@nestjs/common';
import { EntityManager, QueryFailedError } from 'typeorm';
import { AppConfig } from '../common/config/app-config';
import { TransactionRunner } from '../common/database/transaction-runner';
import { DEMO, demoAccountMessage, DemoSeeder } from './demo-seeder';
import { Merchant } from './merchant.entity';
import { MerchantService } from './merchant.service';
import { SigningSecretService } from './signing-secret.service';
import { Role, User } from './user.entity';

const API_URL = 'http://localhost:3000/v2.22';
const duplicate = (code: string, message: string) => new QueryFailedError('INSERT …', [], Object.assign(new Error(message), { code }));

describe(demoAccountMessage.name, () => {
  it.each([
    [true, /^Empty sandbox database: created merchant "Demo Shop"/],
    [false, /^Empty sandbox database: another instance starting at the same time created merchant "Demo Shop"/],
  ])('createdHere=%s says who created the account', (createdHere, opening) => {
    expect(demoAccountMessage({ createdHere, signingSecret: 's3cret' }, API_URL)).toMatch(opening);
  });

  it('states the same credentials, merchant and secret either way', () => {
    for (const createdHere of [true, false]) {
      const message = demoAccountMessage({ createdHere, signingSecret: 's3cret' }, API_URL);
      expect(message).toContain(`(MerchantId ${DEMO.merchantId}, SigningSecret s3cret)`);
      expect(message).toContain('user demo / demo-password');
      expect(message).toContain(`curl -u demo:demo-password ${API_URL}/session/<SessionId>`);
    }
  });
});

describe(DemoSeeder.name, () => {
  let merchants: number;
  let commit: (work: (manager: EntityManager) => Promise<unknown>) => Promise<unknown>;
  let stored: string[];
  let inserted: object[];
  let log: jest.SpyInstance;
  let warn: jest.SpyInstance;
  let sut: DemoSeeder;

  beforeEach(() => {
    merchants = 0;
    stored = [];
    inserted = [];
    const manager = { insert: async (_target: unknown, row: object) => void inserted.push(row) } as unknown as EntityManager;
    commit = (work) => work(manager);
    const config = { isSandbox: true, publicUrl: 'http://localhost:3000', currentApiVersion: 'v2.22' } as AppConfig;
    const signingSecrets = {
      issue: async () => 'issued-here',
      usableSecrets: async () => stored,
    } as unknown as SigningSecretService;
    const transactions = { run: (work: (manager: EntityManager) => Promise<unknown>) => commit(work) } as unknown as TransactionRunner;
    sut = new DemoSeeder(config, { count: async () => merchants } as MerchantService, signingSecrets, transactions);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('on an empty database inserts merchant and user in its one transaction and says so', async () => {
    await sut.onApplicationBootstrap();
    expect(inserted).toEqual([
      expect.objectContaining({ id: DEMO.merchantId, name: DEMO.merchantName }),
      expect.objectContaining({ id: DEMO.userId, username: DEMO.username, merchantId: DEMO.merchantId, role: Role.Merchant }),
    ]);
    expect(inserted[0]).toBeInstanceOf(Merchant);
    expect((inserted[1] as User).passwordHash).toMatch(/^scrypt\$/);
    expect(log).toHaveBeenCalledWith(demoAccountMessage({ createdHere: true, signingSecret: 'issued-here' }, API_URL));
  });

  it.each([
    ['MySQL, the merchant id', duplicate('ER_DUP_ENTRY', `Duplicate entry '${DEMO.merchantId}' for key 'PRIMARY'`)],
    ['SQLite, the merchant id', duplicate('SQLITE_CONSTRAINT_PRIMARYKEY', 'UNIQUE constraint failed: merchant.id')],
    ['MySQL, the username', duplicate('ER_DUP_ENTRY', "Duplicate entry 'demo' for key 'UQ_app_user_username'")],
  ])('when another instance committed first (%s), reports the secret that instance stored', async (_case, error) => {
    commit = async () => Promise.reject(error);
    stored = ['stored-by-the-winner'];
    await sut.onApplicationBootstrap();
    expect(log).toHaveBeenCalledWith(demoAccountMessage({ createdHere: false, signingSecret: 'stored-by-the-winner' }, API_URL));
  });

  it('a "demo" user made before the first start, without the demo merchant: warns and goes on', async () => {
    commit = async () => Promise.reject(duplicate('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: app_user.username'));
    await sut.onApplicationBootstrap();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('user named "demo" exists already'));
    expect(log).not.toHaveBeenCalled();
  });

  it('any other failure fails the start', async () => {
    const busy = new QueryFailedError('INSERT …', [], Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    commit = async () => Promise.reject(busy);
    await expect(sut.onApplicationBootstrap()).rejects.toBe(busy);
  });

  it('does nothing on a database that has merchants', async () => {
    merchants = 1;
    await sut.onApplicationBootstrap();
    expect(inserted).toEqual([]);
    expect(log).not.toHaveBeenCalled();
  });
});
