import { SetMetadata } from '@nestjs/common';

/** read: any authenticated user. write: a merchant user (readonly users and admins get 403). */
export type Access = 'read' | 'write';

export const ACCESS_KEY = 'access';
export const RequireAccess = (access: Access) => SetMetadata(ACCESS_KEY, access);
