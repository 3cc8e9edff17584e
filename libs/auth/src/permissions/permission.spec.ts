import { Role } from '@platform/contracts';
import { Permission, roleHasPermission } from './permission';

// docs/spec/decisions.md §2, row by row.
const MATRIX: [Permission, Role[]][] = [
  [
    Permission.ReadCompanyData,
    [Role.CLevel, Role.Director, Role.ProjectManager, Role.Collaborator, Role.Freelancer],
  ],
  [
    Permission.ReadProjects,
    [Role.CLevel, Role.Director, Role.ProjectManager, Role.Collaborator, Role.Freelancer, Role.Client],
  ],
  [Permission.ManageCompanySetup, [Role.CLevel, Role.Director]],
  [Permission.ManageDelivery, [Role.CLevel, Role.Director, Role.ProjectManager]],
  [
    Permission.CreateLeaves,
    [Role.CLevel, Role.Director, Role.ProjectManager, Role.Collaborator, Role.Freelancer],
  ],
  [Permission.DecideLeaves, [Role.CLevel, Role.Director, Role.ProjectManager]],
  [Permission.UseIntegrations, [Role.CLevel, Role.Director]],
  [Permission.ManageIntegrationSecrets, [Role.CLevel]],
];
const ALL_ROLES = [
  Role.CLevel,
  Role.Director,
  Role.ProjectManager,
  Role.Collaborator,
  Role.Freelancer,
  Role.Client,
];

describe('role matrix', () => {
  it.each(MATRIX)('%s is granted to exactly roles %p', (permission, allowed) => {
    expect(ALL_ROLES.filter((role) => roleHasPermission(role, permission))).toEqual(allowed);
  });
});
