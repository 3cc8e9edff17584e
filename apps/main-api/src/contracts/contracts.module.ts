import { Module } from '@nestjs/common';
import { UserMemberships } from '../users/user-memberships.repository';
import { ContractsController } from './contracts.controller';
import { ContractsRepository } from './contracts.repository';
import { ContractsService } from './contracts.service';

@Module({
  controllers: [ContractsController],
  providers: [UserMemberships, ContractsRepository, ContractsService],
  exports: [ContractsService],
})
export class ContractsModule {}
