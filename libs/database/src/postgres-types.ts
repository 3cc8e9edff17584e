import { types } from 'pg';

const DATE_OID = 1082;

/**
 * node-postgres turns `date` columns into JS Dates at local midnight, which shifts calendar days on
 * any server outside UTC. Dates in this platform are calendar days, so keep them as 'YYYY-MM-DD'.
 */
export function useCalendarDateStrings(): void {
  types.setTypeParser(DATE_OID, (value: string) => value);
}
