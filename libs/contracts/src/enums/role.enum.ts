/** `role_id` values of docs/spec/interfaces.md "Reference values". */
export enum Role {
  CLevel = 1,
  Director = 2,
  ProjectManager = 3,
  Collaborator = 4,
  Freelancer = 5,
  Client = 6,
}

export const ROLE_IDS: readonly Role[] = [
  Role.CLevel,
  Role.Director,
  Role.ProjectManager,
  Role.Collaborator,
  Role.Freelancer,
  Role.Client,
];
