import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { LabelDto, type CreateLabelDto, type UpdateLabelDto } from './dto/label.dto';
import type { Label, LabelModel } from './label.entity';
import { LabelsRepository } from './labels.repository';

@Injectable()
export class LabelsService {
  constructor(private readonly labels: LabelsRepository) {}

  create(body: CreateLabelDto): Promise<Label> {
    return this.labels.create({
      name: body.name,
      color: (body.color ?? '#9e9e9e').toLowerCase(),
      model: body.model,
    });
  }

  list(query: ListQueryDto): Promise<ListAnswer<LabelDto>> {
    return this.labels.list(query, (label) => LabelDto.from(label));
  }

  /** `GET /categories/labels-model?model=project`: every label of that model. */
  async ofModel(model: LabelModel): Promise<LabelDto[]> {
    const labels = await this.labels.ofModel(model);
    return labels.map((label) => LabelDto.from(label));
  }

  get(id: number): Promise<Label> {
    return this.labels.get(id);
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
