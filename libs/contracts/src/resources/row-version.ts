/** How every resource documents its `version` (conditional requests: README, "Conditional requests"). */
export const API_ROW_VERSION = {
  type: 'integer',
  minimum: 1,
  example: 3,
  description:
    'The row version, bumped by the database on every change; the version in the ETag, checked by If-Match',
} as const;
