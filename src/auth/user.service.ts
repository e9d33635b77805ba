import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { invalidRequest } from '../common/errors/domain-error';
import { FieldError, FieldErrorCode } from '../common/errors/field-error';
import { TransactionRunner } from '../common/database/transaction-runner';
import { violatedUniqueIndex } from '../common/database/db-errors';
import { Merchant } from './merchant.entity';
import { hashPassword } from './password-hasher';
import { Role, User } from './user.entity';

export interface CreateUserInput {
  username: string;
  password: string;
  merchantId?: string;
  role?: string;
}

const ROLES = Object.values(Role) as string[];

@Injectable()
export class UserService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  async create(input: CreateUserInput): Promise<User> {
    const role = (input.role ?? Role.Merchant) as Role;
    const errors = validateUserInput(input, role);
    if (errors.length) throw invalidRequest(errors);
    if (input.merchantId && !(await this.dataSource.getRepository(Merchant).existsBy({ id: input.merchantId }))) {
      throw invalidRequest([{ Field: 'merchant', Code: FieldErrorCode.Invalid, Message: 'No merchant has this id' }]);
    }
    const user = Object.assign(new User(), {
      id: randomUUID(),
      username: input.username,
      passwordHash: await hashPassword(input.password),
      merchantId: role === Role.Admin ? null : input.merchantId,
      role,
    });
    try {
      return await this.transactions.run((manager) => manager.save(user));
    } catch (error) {
      if (violatedUniqueIndex(error, { UQ_app_user_username: 'app_user.username' })) {
        throw invalidRequest([{ Field: 'username', Code: FieldErrorCode.Conflict, Message: 'This username is taken' }]);
      }
      throw error;
    }
  }

  findByUsername(username: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ username });
  }
}

function validateUserInput(input: CreateUserInput, role: Role): FieldError[] {
  const errors: FieldError[] = [];
  const invalid = (Field: string, Message: string) => errors.push({ Field, Code: FieldErrorCode.Invalid, Message });
  if (!/^[A-Za-z0-9._@-]{1,100}$/.test(input.username ?? '')) {
    invalid('username', 'must be 1 to 100 letters, digits or . _ @ -');
  }
  if ((input.password ?? '').length < 8 || input.password.length > 200) invalid('password', 'must be 8 to 200 characters');
  if (!ROLES.includes(role)) invalid('role', `must be one of ${ROLES.join(', ')}`);
  if (role === Role.Admin && input.merchantId) invalid('role', 'an admin belongs to no merchant; drop --merchant');
  if (role !== Role.Admin && !input.merchantId) invalid('merchant', `a ${role} user needs --merchant`);
  return errors;
}
