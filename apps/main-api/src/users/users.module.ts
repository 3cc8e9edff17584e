import { Module } from '@nestjs/common';
import { LabelReferences } from '../labels/label-references.repository';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  controllers: [UsersController],
  providers: [LabelReferences, UsersRepository, UsersService],
  exports: [UsersService],
})
export class UsersModule {}
