import { Module } from '@nestjs/common';
import { UserMemberships } from '../users/user-memberships';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

@Module({
  controllers: [TeamsController],
  providers: [UserMemberships, TeamsService],
  exports: [TeamsService],
})
export class TeamsModule {}
