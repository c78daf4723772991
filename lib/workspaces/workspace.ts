import type { Role } from '#lib/identity/caller.ts';

/** A tenant: a business and everything it owns. */
export interface Workspace {
  id: string;
  businessName: string;
  industry?: string;
  size?: string;
  timezone?: string;
  createdAt: string;
  updatedAt: string;
}

export interface Member {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  level?: string;
  accessPermissions: string[];
  status: 'ACTIVE';
  joinedAt: string;
}
