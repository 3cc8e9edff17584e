import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import {
  TenantRepositoryFactory,
  type FilterDefinitions,
  type TenantRead,
  type TenantRepository,
} from '@platform/database';
import { LabelDto, type CreateLabelDto, type UpdateLabelDto } from './dto/label.dto';
import { Label, LABEL_MODELS, type LabelModel } from './label.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const LABEL_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  model: { kind: 'enum', column: 'model', values: LABEL_MODELS },
};

@Injectable()
export class LabelsService {
  private readonly labels: TenantRepository<Label>;
  // The planner's look-up reads the user labels on every report, built once (CompiledRead).
  private readonly labelsOfModel: TenantRead<Label, { model: LabelModel }>;

  constructor(repositories: TenantRepositoryFactory) {
    this.labels = repositories.for(Label);
    this.labelsOfModel = this.labels.compile('label', ['model'], (query) =>
      query.andWhere('label.model = :model').orderBy('label.id', 'ASC'),
    );
  }

  create(body: CreateLabelDto): Promise<Label> {
    return this.labels.create({
      name: body.name,
      color: (body.color ?? '#9e9e9e').toLowerCase(),
      model: body.model,
    });
  }

  list(query: ListQueryDto): Promise<Paginated<LabelDto> | LabelDto[]> {
    return this.labels.paginate(this.labels.queryBuilder('label'), 'label', query, LABEL_FILTERS, (label) =>
      LabelDto.from(label),
    );
  }

  /** `GET /categories/labels-model?model=project`: every label of that model. */
  async ofModel(model: LabelModel): Promise<LabelDto[]> {
    const labels = await this.labelsOfModel.many({ model });
    return labels.map((label) => LabelDto.from(label));
  }

  async get(id: number): Promise<Label> {
    const label = await this.labels.findById(id);
    if (!label) {
      throw new ResourceNotFoundError(`Label ${id}`);
    }
    return label;
  }

  async update(id: number, body: UpdateLabelDto): Promise<Label> {
    const label = await this.get(id);
    Object.assign(label, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.color !== undefined && { color: body.color.toLowerCase() }),
      ...(body.model !== undefined && { model: body.model }),
    });
    return this.labels.save(label);
  }

  async remove(id: number): Promise<Label> {
    return this.labels.softRemove(await this.get(id));
  }
}
