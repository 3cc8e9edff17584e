/** The parts of main-api's answers the planner reads (docs/spec/decisions.md §8). */

export interface MainApiUser {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  user_position_id: number | null;
  position_name: string | null;
  category_id: number | null;
  category_name: string | null;
  picture: string;
  hidden: boolean;
  is_deleted: boolean;
  labels: number[];
  /** `YYYY-MM-DD HH:mm:ss`, UTC. */
  created_at: string;
}

export interface MainApiProject {
  id: number;
  name: string;
  client: { id: number; name: string } | null;
}

export interface MainApiWorkingTimeEntry {
  day_of_week: number;
  daily_hours: number;
  start_at: string;
  end_at: string;
}

export interface MainApiLeave {
  user_id: number;
  /** ISO 8601 with `Z`. */
  start: string;
  end: string;
  all_day: boolean;
}

export interface MainApiLabel {
  id: number;
  name: string;
  color: string;
}
