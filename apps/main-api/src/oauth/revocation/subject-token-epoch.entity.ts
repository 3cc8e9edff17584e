import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Per token subject, the epoch its access tokens must carry to count. Written only by database
 * triggers (migration AddTokenRevocation): a role change, a deleted user or a revoked API client
 * moves it on, and every token issued before stops working.
 */
@Entity({ name: 'subject_token_epochs' })
export class SubjectTokenEpoch {
  /** `user:<id>` or `client:<id>`, as in the token's `sub`. */
  @PrimaryColumn({ type: 'varchar', length: 30, primaryKeyConstraintName: 'subject_token_epochs_pkey' })
  subject!: string;

  @Column({ type: 'integer' })
  epoch!: number;
}
