import { Role } from './user.entity';

/** Who is calling: the authenticated user and the merchant it acts for (null for admins). */
export interface Principal {
  userId: string;
  username: string;
  role: Role;
  merchantId: string | null;
}
