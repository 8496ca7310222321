import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely'

/** better-sqlite3 cannot bind booleans; SQLite stores them as 0/1 anyway, as gorm did. */
class BooleanToInteger extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const transformed = super.transformValue(node)
    return typeof transformed.value === 'boolean'
      ? { ...transformed, value: transformed.value ? 1 : 0 }
      : transformed
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return {
      ...node,
      values: node.values.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)),
    }
  }
}

export class SqliteBooleanPlugin implements KyselyPlugin {
  private readonly transformer = new BooleanToInteger()

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node)
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}
