import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { INestApplication } from '@nestjs/common';
import { Field, GraphQLModule, GraphQLSchemaHost, ObjectType, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Test } from '@nestjs/testing';
import { execute, GraphQLObjectType, GraphQLSchema, parse, printSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { withoutPlainFieldResolvers } from './plain-field-resolvers';

@ObjectType()
class Item {
  @Field() plain: string;
  @Field({ nullable: true }) missing?: string;
  @Field() computed: string;
  @Field({ name: 'renamed' }) internalName: string;
  @Field({ nullable: true, defaultValue: 'fallback' }) withDefault?: string;
  @Field() resolved: string;
}

class ItemRow implements Omit<Item, 'computed' | 'resolved'> {
  plain = 'p';
  internalName = 'r';
  get computed() {
    return `getter of ${this.plain}`;
  }
}

@Resolver(() => Item)
class ItemResolver {
  @Query(() => [Item])
  items(): ItemRow[] {
    return [new ItemRow()];
  }

  @ResolveField(() => String)
  resolved(@Parent() item: ItemRow): string {
    return `resolver of ${item.plain}`;
  }
}

const QUERY = parse('{ items { plain missing computed renamed withDefault resolved } }');
const EXPECTED = {
  data: { items: [{ plain: 'p', missing: null, computed: 'getter of p', renamed: 'r', withDefault: 'fallback', resolved: 'resolver of p' }] },
};

/** Nest's own schema of the classes above, through GraphQLModule as the application builds it. */
async function nestSchema(transform: boolean): Promise<{ app: INestApplication; schema: GraphQLSchema }> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GraphQLModule.forRoot<ApolloDriverConfig>({
        driver: ApolloDriver,
        autoSchemaFile: true,
        ...(transform ? { transformSchema: withoutPlainFieldResolvers } : {}),
      }),
    ],
    providers: [ItemResolver],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return { app, schema: app.get(GraphQLSchemaHost).schema };
}

describe('withoutPlainFieldResolvers', () => {
  let apps: INestApplication[];
  let transformed: GraphQLSchema;
  let original: GraphQLSchema;

  beforeAll(async () => {
    const withTransform = await nestSchema(true);
    const without = await nestSchema(false);
    apps = [withTransform.app, without.app];
    transformed = withTransform.schema;
    original = without.schema;
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  const itemFields = (schema: GraphQLSchema) => (schema.getType('Item') as GraphQLObjectType).getFields();

  it("removes only Nest's plain property resolvers", () => {
    const resolvers = Object.fromEntries(Object.entries(itemFields(transformed)).map(([name, field]) => [name, field.resolve?.name ?? null]));
    expect(resolvers).toEqual({
      plain: null,
      missing: null,
      computed: null,
      // Reads `internalName`, and substitutes the default: Nest's resolver is still needed.
      renamed: 'rootFieldResolver',
      withDefault: 'rootFieldResolver',
      resolved: expect.any(String),
    });
    expect(itemFields(transformed).resolved.resolve?.name).not.toBe('rootFieldResolver');
    expect(transformed.getQueryType()!.getFields().items.resolve).toBeDefined();
    // Without the transform every field has Nest's resolver: the test above is not vacuous.
    expect(itemFields(original).plain.resolve?.name).toBe('rootFieldResolver');
  });

  it('answers as before, with graphql-js and with graphql-jit (getter, undefined → null, name, default)', async () => {
    expect(await execute({ schema: original, document: QUERY })).toEqual(EXPECTED);
    expect(await execute({ schema: transformed, document: QUERY })).toEqual(EXPECTED);
    for (const schema of [original, transformed]) {
      const compiled = compileQuery(schema, QUERY);
      if (!isCompiledQuery(compiled)) throw new Error('graphql-jit did not compile the query');
      expect(await compiled.query(undefined, {}, {})).toEqual(EXPECTED);
    }
  });

  it('leaves the printed schema unchanged', () => {
    expect(printSchema(transformed)).toBe(printSchema(original));
  });
});
