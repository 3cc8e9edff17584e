/** Canonical project states; `in_process` is accepted on input as an alias of `active` (docs/spec/decisions.md §5). */
export enum ProjectStatus {
  Active = 'active',
  Finished = 'finished',
  Suspended = 'suspended',
}

export const PROJECT_STATUS_ALIASES: Readonly<Record<string, ProjectStatus>> = {
  in_process: ProjectStatus.Active,
};
