import { ApiProperty } from '@nestjs/swagger';

/** The planner's answer dates (docs/spec/decisions.md §5): a day at midnight, without offset. */
const LOCAL_DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$';

export class AllocationOnAnotherProjectDto {
  @ApiProperty({ example: 9 })
  projectId!: number;

  @ApiProperty({ example: 'Spring launch' })
  projectName!: string;

  @ApiProperty({ example: 'Acme Foods', description: "The project's client; empty when it has none" })
  clientName!: string;

  @ApiProperty({
    example: 12,
    description:
      "The user's hours on that project that fall in this allocation's range: for each of their " +
      'allocations there overlapping the range, hours × (its working days inside the range) ÷ ' +
      '(all its working days), summed per project and rounded to two decimals',
  })
  allocatedHours!: number;
}

export class UserAllocationDto {
  @ApiProperty({ example: '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b', description: 'The allocation id (UUID)' })
  primaryKey!: string;

  @ApiProperty({
    example: '2026-01-05T00:00:00',
    pattern: LOCAL_DATE_TIME,
    description: 'First day, YYYY-MM-DDTHH:mm:ss, no offset',
  })
  from!: string;

  @ApiProperty({
    example: '2026-01-30T00:00:00',
    pattern: LOCAL_DATE_TIME,
    description: 'Last day (included), same format',
  })
  to!: string;

  @ApiProperty({ example: 60 })
  allocatedHours!: number;

  @ApiProperty({
    example: 152,
    description:
      "The user's working hours in the range: for each day, both ends included, daily_hours of its " +
      "day of week in the user's working time, minus leaves (an all-day leave removes the day; a " +
      'partial leave removes its hours inside the working window start_at-end_at, at most the day)',
  })
  capacity!: number;

  @ApiProperty({
    example: 80,
    description:
      'capacity − allocatedHours − Σ allocationUserAnotherProjects.allocatedHours; negative when ' +
      'the user is over-allocated',
  })
  availabilityLeft!: number;

  @ApiProperty({ example: '2026-01-02T09:30:00', description: 'When it was saved (UTC), no offset' })
  createdAt!: string;

  @ApiProperty({ type: [AllocationOnAnotherProjectDto] })
  allocationUserAnotherProjects!: AllocationOnAnotherProjectDto[];
}

export class LabelOfUserDto {
  @ApiProperty({ example: 4 })
  id!: number;

  @ApiProperty({ example: 'Senior' })
  name!: string;

  @ApiProperty({ example: '#ff5722' })
  color!: string;
}

export class LabelsOfCategoryDto {
  @ApiProperty({ example: 'user', description: "The label category (main-api's label model)" })
  category!: string;

  @ApiProperty({ type: [LabelOfUserDto] })
  labels!: LabelOfUserDto[];
}

export class AllocatedUserDto {
  @ApiProperty({ example: 12 })
  userId!: number;

  @ApiProperty({ example: 'Ada' })
  firstName!: string;

  @ApiProperty({ example: 'Lovelace' })
  lastName!: string;

  @ApiProperty({ example: 'Designer', description: 'Empty when the user has no position' })
  positionName!: string;

  @ApiProperty({ example: 'Creative', description: 'Empty when the user has no position' })
  categoryName!: string;

  @ApiProperty({ example: '2', description: 'The position category id as a string; empty when none' })
  categoryId!: string;

  @ApiProperty({ example: '3', description: 'The position id as a string; empty when none' })
  userPositionId!: string;

  @ApiProperty({ example: '', description: 'Picture URL; may be empty' })
  picture!: string;

  @ApiProperty({ example: 1 })
  companyId!: number;

  @ApiProperty({ example: false })
  hidden!: boolean;

  @ApiProperty({ example: false, description: 'True for a user deleted in main-api since being allocated' })
  isDeleted!: boolean;

  @ApiProperty({ type: [LabelsOfCategoryDto] })
  labelsByCategory!: LabelsOfCategoryDto[];

  @ApiProperty({ example: '2026-01-02T09:30:00', description: 'When the user was created (UTC), no offset' })
  createdAt!: string;

  @ApiProperty({ type: [UserAllocationDto], description: 'Ordered by from' })
  allocations!: UserAllocationDto[];

  @ApiProperty({ example: 60, description: "Sum of the user's allocatedHours on this project" })
  totalAllocatedHours!: number;
}

/** docs/spec/interfaces.md "Project allocations response". */
export class ProjectAllocationsDto {
  @ApiProperty({ type: [AllocatedUserDto], description: 'Ordered by first name, last name and id' })
  users!: AllocatedUserDto[];
}
