import type { Principal } from '@platform/auth';
import { Role } from '@platform/contracts';

/**
 * Who may give which role to whom. Roles are ranked 1 (C-Level) to 6 (Client), a smaller number
 * ranking higher; the route's permission already limits user writes to roles 1-2, so these rules
 * are what stops a Director (user or API client) from reaching C-Level, directly or through a user
 * it creates and then logs in as. Each function answers why the change is refused, or undefined.
 */

/** The caller: its token's role, and its user when the token is a user's (API clients have none). */
export type Grantor = Pick<Principal, 'roleId' | 'userId'>;

/** A stored user about to be changed or deleted. */
export interface GrantTarget {
  id: number;
  roleId: Role;
}

const ROLE_NAMES: Readonly<Record<Role, string>> = {
  [Role.CLevel]: 'C-Level',
  [Role.Director]: 'Director',
  [Role.ProjectManager]: 'Project Manager',
  [Role.Collaborator]: 'Collaborator',
  [Role.Freelancer]: 'Freelancer',
  [Role.Client]: 'Client',
};

export const OWN_ROLE = 'You cannot change your own role';
export const ONLY_C_LEVEL = 'Only a C-Level user can create, change or delete a C-Level user';

const ownRank = (grantor: Grantor) => `${grantor.roleId} ${ROLE_NAMES[grantor.roleId]}`;
const grantsAbove = (grantor: Grantor) =>
  `You can only grant roles at or below your own (${ownRank(grantor)})`;
const rankedAbove = (grantor: Grantor) =>
  `You cannot change or delete a user ranked above your own role (${ownRank(grantor)})`;

export function refusalToCreate(grantor: Grantor, roleId: Role): string | undefined {
  if (roleId === Role.CLevel && grantor.roleId !== Role.CLevel) {
    return ONLY_C_LEVEL;
  }
  return roleId < grantor.roleId ? grantsAbove(grantor) : undefined;
}

/** `roleId` is the role the body asks for, undefined when it does not send one. */
export function refusalToUpdate(
  grantor: Grantor,
  target: GrantTarget,
  roleId: Role | undefined,
): string | undefined {
  const changesRole = roleId !== undefined && roleId !== target.roleId;
  // Even a C-Level: a company must not lose its last C-Level by a slip, and nobody reviews
  // their own promotion.
  if (changesRole && grantor.userId === target.id) {
    return OWN_ROLE;
  }
  if (grantor.roleId !== Role.CLevel && (target.roleId === Role.CLevel || roleId === Role.CLevel)) {
    return ONLY_C_LEVEL;
  }
  if (target.roleId < grantor.roleId) {
    return rankedAbove(grantor);
  }
  return roleId !== undefined && roleId < grantor.roleId ? grantsAbove(grantor) : undefined;
}

export function refusalToDelete(grantor: Grantor, target: GrantTarget): string | undefined {
  if (target.roleId === Role.CLevel && grantor.roleId !== Role.CLevel) {
    return ONLY_C_LEVEL;
  }
  return target.roleId < grantor.roleId ? rankedAbove(grantor) : undefined;
}
