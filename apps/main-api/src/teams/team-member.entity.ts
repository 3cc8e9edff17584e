import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../users/user.entity';
import { Team } from './team.entity';

/** A user's membership of a team; the key makes adding the same user twice a no-op. */
@Entity({ name: 'team_members' })
@Index('team_members_user_idx', ['userId'])
export class TeamMember {
  @PrimaryColumn({ name: 'team_id', type: 'integer', primaryKeyConstraintName: 'team_members_pkey' })
  teamId!: number;

  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'team_members_pkey' })
  userId!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Team, (team) => team.members, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'team_members_team_id_fkey' })
  team?: Team;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'team_members_user_id_fkey' })
  user?: User;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
