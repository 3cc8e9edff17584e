import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope, type TenantRead } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Label, LABEL_MODELS, type LabelModel } from './label.entity';

/** Labels of the request's company. */
@Injectable()
export class LabelsRepository extends FeatureRepository<Label> {
  // The planner's look-up reads the user labels on every report, built once (CompiledRead).
  private readonly labelsOfModel: TenantRead<Label, { model: LabelModel }>;

  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Label,
      alias: 'label',
      filters: {
        name: { kind: 'text', column: 'name' },
        model: { kind: 'enum', column: 'model', values: LABEL_MODELS },
      },
      notFound: (id) => new ResourceNotFoundError(`Label ${id}`),
    });
    this.labelsOfModel = this.rows.compile('label', ['model'], (query) =>
      query.andWhere('label.model = :model').orderBy('label.id', 'ASC'),
    );
  }

  /** Every label of one model, by id. */
  ofModel(model: LabelModel): Promise<Label[]> {
    return this.labelsOfModel.many({ model });
  }
}
