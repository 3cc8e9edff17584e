import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ProjectResponseDto } from './dto/project.response.dto';
import { WorkingTimeEntryResponseDto } from './dto/working-time.response.dto';
import { ENTITY_OPERATIONS } from './entity-operations';
import { shapeAs } from './response-shape';

class TagDto {
  @ApiProperty({ type: 'integer' })
  id!: number;
}

class ThingDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  due!: string | null;

  @ApiProperty({ type: TagDto, nullable: true })
  tag!: TagDto | null;

  @ApiProperty({ type: TagDto, isArray: true })
  tags!: TagDto[];

  @ApiProperty({ type: 'object', additionalProperties: true })
  extra!: Record<string, unknown>;
}

describe('shapeAs', () => {
  it('keeps only the documented fields, at every level', () => {
    const shaped = shapeAs(ThingDto, {
      id: 1,
      secret: 'x',
      due: null,
      tag: { id: 2, internal: true },
      tags: [{ id: 3, internal: true }],
      extra: { anything: 'goes' },
    });

    expect(shaped).toEqual({
      id: 1,
      due: null,
      tag: { id: 2 },
      tags: [{ id: 3 }],
      extra: { anything: 'goes' },
    });
  });

  it("turns main-api's timestamps into ISO 8601 UTC where the DTO documents a date-time", () => {
    expect(shapeAs(ThingDto, { id: 1, due: '2026-03-01 09:30:00' })).toEqual({
      id: 1,
      due: '2026-03-01T09:30:00.000Z',
    });
    expect(shapeAs(ThingDto, { id: 1, due: '2026-03-01T09:30:00.000Z' })).toEqual({
      id: 1,
      due: '2026-03-01T09:30:00.000Z',
    });
  });

  it("answers a project's start and end in ISO 8601 UTC, and leaves times of day alone", () => {
    const project = shapeAs(ProjectResponseDto, {
      id: 88,
      start: '2026-03-01 00:00:00',
      end: '2026-06-30 00:00:00',
      created_at: '2026-11-22 10:15:00',
    });
    const week = shapeAs(WorkingTimeEntryResponseDto, [{ start_at: '09:00:00', end_at: '17:00:00' }]);

    expect(project).toEqual({
      id: 88,
      start: '2026-03-01T00:00:00.000Z',
      end: '2026-06-30T00:00:00.000Z',
      created_at: '2026-11-22T10:15:00.000Z',
    });
    expect(week).toEqual([{ start_at: '09:00:00', end_at: '17:00:00' }]);
  });

  it('shapes a lazily typed field as its DTO, and refuses a field typed by a class it cannot shape', () => {
    class LazyDto {
      @ApiProperty({ type: () => TagDto })
      tag!: TagDto;
    }
    class Undocumented {
      id!: number;
    }
    class UnshapeableDto {
      @ApiProperty({ type: Undocumented })
      inner!: Undocumented;
    }

    expect(shapeAs(LazyDto, { tag: { id: 1, internal: true } })).toEqual({ tag: { id: 1 } });
    expect(() => shapeAs(UnshapeableDto, { inner: { id: 1 } })).toThrow('UnshapeableDto.inner');
  });
});

describe('the response DTO of every entity', () => {
  it.each(Object.entries(ENTITY_OPERATIONS))('%s: can shape an answer', (_entity, operations) => {
    const response = operations.response as Type | [Type];

    expect(() => shapeAs(Array.isArray(response) ? response[0] : response, {})).not.toThrow();
  });
});
