import { Module } from '@nestjs/common';
import { UserMemberships } from '../users/user-memberships';
import { ContractsController } from './contracts.controller';
import { ContractsService } from './contracts.service';

@Module({
  controllers: [ContractsController],
  providers: [UserMemberships, ContractsService],
  exports: [ContractsService],
})
export class ContractsModule {}
