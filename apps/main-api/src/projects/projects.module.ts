import { Module } from '@nestjs/common';
import { LabelReferences } from '../labels/label-references.repository';
import { ProjectReads } from './project-reads';
import { ProjectReadsRepository } from './project-reads.repository';
import { ProjectReferences } from './project-references';
import { ProjectReferencesRepository } from './project-references.repository';
import { ProjectWrites } from './project-writes';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({
  controllers: [ProjectsController],
  providers: [
    LabelReferences,
    ProjectsRepository,
    ProjectReadsRepository,
    ProjectReferencesRepository,
    ProjectReads,
    ProjectReferences,
    ProjectWrites,
    ProjectsService,
  ],
  exports: [ProjectsService],
})
export class ProjectsModule {}
