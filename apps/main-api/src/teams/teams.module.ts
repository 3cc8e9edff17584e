import { Module } from '@nestjs/common';
import { UserMemberships } from '../users/user-memberships.repository';
import { TeamsController } from './teams.controller';
import { TeamsRepository } from './teams.repository';
import { TeamsService } from './teams.service';

@Module({
  controllers: [TeamsController],
  providers: [UserMemberships, TeamsRepository, TeamsService],
  exports: [TeamsService],
})
export class TeamsModule {}
