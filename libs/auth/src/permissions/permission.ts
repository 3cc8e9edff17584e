import { Role } from '@platform/contracts';

/** What a route needs, in the words of the role matrix (docs/spec/decisions.md §2). */
export enum Permission {
  /** Read company data other than projects. */
  ReadCompanyData = 'read:company',
  /** Read projects (role 6 only its own client's: checked by the feature). */
  ReadProjects = 'read:projects',
  /** Clients, brands, products, users, positions, categories, teams, workspaces, contracts, fees, transactions, ratecards, working time. */
  ManageCompanySetup = 'write:setup',
  /** Projects, tasks, costs, estimates, allocations. */
  ManageDelivery = 'write:delivery',
  /** Create leaves (own only for 4-5, anyone's for 1-3: checked by the feature). */
  CreateLeaves = 'write:leaves',
  /** Approve and reject leaves (issue 38). */
  DecideLeaves = 'decide:leaves',
  /** The integrations service. */
  UseIntegrations = 'integrations',
  /** Credentials of the integrations service: webhook secrets and the API client that applies events. */
  ManageIntegrationSecrets = 'integrations:secrets',
}

const EVERYONE = new Set(Object.values(Role).filter((value): value is Role => typeof value === 'number'));

export const PERMISSIONS_BY_ROLE: Readonly<Record<Permission, ReadonlySet<Role>>> = {
  [Permission.ReadCompanyData]: new Set([
    Role.CLevel,
    Role.Director,
    Role.ProjectManager,
    Role.Collaborator,
    Role.Freelancer,
  ]),
  [Permission.ReadProjects]: EVERYONE,
  [Permission.ManageCompanySetup]: new Set([Role.CLevel, Role.Director]),
  [Permission.ManageDelivery]: new Set([Role.CLevel, Role.Director, Role.ProjectManager]),
  [Permission.CreateLeaves]: new Set([
    Role.CLevel,
    Role.Director,
    Role.ProjectManager,
    Role.Collaborator,
    Role.Freelancer,
  ]),
  [Permission.DecideLeaves]: new Set([Role.CLevel, Role.Director, Role.ProjectManager]),
  [Permission.UseIntegrations]: new Set([Role.CLevel, Role.Director]),
  [Permission.ManageIntegrationSecrets]: new Set([Role.CLevel]),
};

export function roleHasPermission(role: Role, permission: Permission): boolean {
  return PERMISSIONS_BY_ROLE[permission].has(role);
}
