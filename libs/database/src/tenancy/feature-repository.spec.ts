import {
  Column,
  DataSource,
  DeleteDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { openSampleSchema, type SampleSchema } from '../testing/sample-schema';
import { FeatureRepository } from './feature-repository';
import { TenantScope } from './tenant-scope';

/** What every sample row has: an id, a company, and (all but parts) a name and a soft delete. */
abstract class CompanyRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;
}

abstract class NamedRow extends CompanyRow {
  @Column({ type: 'varchar' })
  name!: string;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}

@Entity({ name: 'kinds' })
class Kind extends NamedRow {}

@Entity({ name: 'tools' })
class Tool extends NamedRow {
  @Column({ name: 'kind_id', type: 'integer' })
  kindId!: number;

  @ManyToOne(() => Kind)
  @JoinColumn({ name: 'kind_id' })
  kind?: Kind;

  @OneToMany(() => Part, (part) => part.tool)
  parts?: Part[];
}

@Entity({ name: 'parts' })
class Part extends CompanyRow {
  @Column({ name: 'tool_id', type: 'integer', nullable: true })
  toolId!: number | null;

  @ManyToOne(() => Tool, (tool) => tool.parts)
  @JoinColumn({ name: 'tool_id' })
  tool?: Tool;
}

class NotFound extends Error {}

class ToolsRepository extends FeatureRepository<Tool> {
  constructor(scope: TenantScope) {
    super(scope, {
      entity: Tool,
      alias: 'tool',
      filters: { name: { kind: 'text', column: 'name' } },
      notFound: (id) => new NotFound(`Tool ${id}`),
      relations: { kind: 'kind', parts: 'part' },
    });
  }
}

class KindsRepository extends FeatureRepository<Kind> {
  constructor(scope: TenantScope) {
    super(scope, { entity: Kind, alias: 'kind', filters: {}, notFound: (id) => new NotFound(`Kind ${id}`) });
  }
}

describe('FeatureRepository', () => {
  let sample: SampleSchema;
  let dataSource: DataSource;
  let tools: ToolsRepository;
  let kinds: KindsRepository;
  let ids: { hammer: number; saw: number; otherCompanysTool: number; hand: number; power: number };

  beforeAll(async () => {
    sample = await openSampleSchema('feature_repository', [Kind, Tool, Part]);
    dataSource = sample.dataSource;
    const [hand, power, foreign] = await dataSource.getRepository(Kind).save([
      { companyId: 1, name: 'hand' },
      { companyId: 1, name: 'power' },
      { companyId: 2, name: 'hand' },
    ]);
    const [hammer, saw, otherCompanysTool] = await dataSource.getRepository(Tool).save([
      { companyId: 1, name: 'Hammer', kindId: hand.id },
      { companyId: 1, name: 'Saw', kindId: hand.id },
      { companyId: 2, name: 'Hammer', kindId: foreign.id },
    ]);
    await dataSource.getRepository(Part).save([
      { companyId: 1, toolId: hammer.id },
      { companyId: 1, toolId: hammer.id },
    ]);
    ids = {
      hammer: hammer.id,
      saw: saw.id,
      otherCompanysTool: otherCompanysTool.id,
      hand: hand.id,
      power: power.id,
    };
    const scope = new TenantScope(dataSource, () => ({ companyId: 1 }));
    tools = new ToolsRepository(scope);
    kinds = new KindsRepository(scope);
  });

  afterAll(() => sample?.close());

  it('gets a row of the company with its relations, and refuses a missing or foreign id alike', async () => {
    const hammer = await tools.get(ids.hammer);

    expect(hammer.name).toBe('Hammer');
    expect(hammer.kind?.name).toBe('hand');
    expect(hammer.parts).toHaveLength(2);
    await expect(tools.get(ids.otherCompanysTool)).rejects.toThrow(
      new NotFound(`Tool ${ids.otherCompanysTool}`),
    );
    await expect(tools.get(999_999)).rejects.toThrow(NotFound);
    await expect(kinds.get(ids.hand)).resolves.toMatchObject({ name: 'hand', companyId: 1 });
  });

  it("lists the company's rows, filtered, with their relations", async () => {
    const all = await tools.list(
      { page: false },
      (tool) => `${tool.name}/${tool.kind?.name}/${tool.parts?.length}`,
    );
    const filtered = await tools.list({ filters: '{"name":"sa"}' }, (tool) => tool.name);

    expect(all).toEqual(['Hammer/hand/2', 'Saw/hand/0']);
    expect(filtered).toEqual({ total: '1', perPage: 20, page: 1, lastPage: 1, data: ['Saw'] });
  });

  it('creates a row in the scope company, whatever the data says', async () => {
    const created = await kinds.create({ companyId: 2, name: 'garden' });

    expect(created.companyId).toBe(1);
    await expect(kinds.get(created.id)).resolves.toMatchObject({ name: 'garden' });
  });

  it('saves a changed foreign key over the relation read with the row, leaving to-many relations be', async () => {
    const hammer = await tools.get(ids.hammer);
    hammer.kindId = ids.power;
    hammer.name = 'Power hammer';

    await tools.save(hammer);

    const saved = await tools.get(ids.hammer);
    expect(saved).toMatchObject({ name: 'Power hammer', kindId: ids.power, kind: { name: 'power' } });
    expect(saved.parts).toHaveLength(2);
  });

  it('soft-removes a row, answering it with its relations and deletion time, the row read left as it was', async () => {
    const saw = await tools.get(ids.saw);

    const removed = await tools.softRemove(saw);

    expect(removed).toMatchObject({ id: ids.saw, name: 'Saw', kind: { name: 'hand' }, parts: [] });
    expect(removed.deletedAt).toBeInstanceOf(Date);
    expect(saw.deletedAt).toBeNull();
    await expect(tools.get(ids.saw)).rejects.toThrow(NotFound);
    const [row] = await dataSource.query<{ deleted_at: Date | null }[]>(
      'SELECT deleted_at FROM sample.tools WHERE id = $1',
      [ids.saw],
    );
    expect(row.deleted_at).toBeInstanceOf(Date);
  });

  it('soft-removes a row without relations the same way', async () => {
    const kind = await kinds.create({ name: 'obsolete' });

    const removed = await kinds.softRemove(kind);

    expect(removed).toMatchObject({ id: kind.id, name: 'obsolete', deletedAt: expect.any(Date) });
    await expect(kinds.get(kind.id)).rejects.toThrow(NotFound);
  });
});
