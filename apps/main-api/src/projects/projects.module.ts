import { Module } from '@nestjs/common';
import { LabelReferences } from '../labels/label-references.repository';
import { ProjectFiguresRepository } from './project-figures.repository';
import { ProjectReads } from './project-reads';
import { ProjectReadsRepository } from './project-reads.repository';
import { ProjectReferences } from './project-references';
import { ProjectReferencesRepository } from './project-references.repository';
import { ProjectWrites } from './project-writes';
import { ProjectWritesRepository } from './project-writes.repository';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

@Module({
  controllers: [ProjectsController],
  providers: [
    LabelReferences,
    ProjectFiguresRepository,
    ProjectReadsRepository,
    ProjectWritesRepository,
    ProjectReferencesRepository,
    ProjectReads,
    ProjectReferences,
    ProjectWrites,
    ProjectsService,
  ],
  exports: [ProjectsService],
})
export class ProjectsModule {}
