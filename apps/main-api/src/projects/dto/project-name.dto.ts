import { ApiProperty } from '@nestjs/swagger';

class ProjectClientNameDto {
  @ApiProperty({ example: 3 })
  id!: number;

  @ApiProperty({ example: 'Acme' })
  name!: string;
}

/** A project as the planner names it in an allocation report: id, name, client. */
export class ProjectNameDto {
  @ApiProperty({ example: 7 })
  id!: number;

  @ApiProperty({ example: 'Spring campaign' })
  name!: string;

  @ApiProperty({
    type: ProjectClientNameDto,
    nullable: true,
    description: 'The client, null when the project has none (or it was deleted)',
  })
  client!: ProjectClientNameDto | null;
}
