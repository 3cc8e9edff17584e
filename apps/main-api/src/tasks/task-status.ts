/** Task states exactly as docs/spec/interfaces.md names them. */
export enum TaskStatus {
  New = 'nueva',
  InProgress = 'en_proceso',
  Stalled = 'estancada',
  Done = 'finalizada',
}
