import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely'
import type { Dialect } from '../dialect.ts'
import type { ColumnDefinition, TableDefinition } from './column-definitions.ts'

/**
 * Creates missing tables, adds missing columns and creates missing indexes. Works on a fresh
 * database and on one created by one-api (gorm AutoMigrate), whose columns are kept as they are.
 */
export async function ensureTables(
  db: Kysely<unknown>,
  dialect: Dialect,
  tables: TableDefinition[],
): Promise<void> {
  const existing = new Map((await db.introspection.getTables()).map((table) => [table.name, table]))
  for (const table of tables) {
    const found = existing.get(table.name)
    if (!found) {
      await createTable(db, dialect, table)
    } else {
      const present = new Set(found.columns.map((column) => column.name))
      for (const column of table.columns) {
        if (present.has(column.name)) continue
        await db.schema
          .alterTable(table.name)
          .addColumn(column.name, dataType(column, dialect), (builder) =>
            applyColumnOptions(builder, column, dialect, true),
          )
          .execute()
      }
    }
    const indexes = await existingIndexNames(db, dialect, table.name)
    for (const index of table.indexes) {
      if (indexes.has(index.name)) continue
      let builder = db.schema.createIndex(index.name).on(table.name).columns(index.columns)
      if (index.unique) builder = builder.unique()
      await builder.execute()
    }
  }
}

async function createTable(db: Kysely<unknown>, dialect: Dialect, table: TableDefinition): Promise<void> {
  let builder = db.schema.createTable(table.name)
  for (const column of table.columns) {
    builder = builder.addColumn(column.name, dataType(column, dialect), (columnBuilder) =>
      applyColumnOptions(columnBuilder, column, dialect, false),
    )
  }
  if (table.primaryKey)
    builder = builder.addPrimaryKeyConstraint(`pk_${table.name}`, table.primaryKey as never)
  for (const column of table.columns.filter((candidate) => candidate.unique)) {
    builder = builder.addUniqueConstraint(`ux_${table.name}_${column.name}`, [column.name] as never)
  }
  if (table.clustered && dialect === 'sqlite') builder = builder.modifyEnd(sql`without rowid`)
  await builder.execute()
}

function dataType(column: ColumnDefinition, dialect: Dialect) {
  switch (column.type) {
    case 'id':
      return dialect === 'postgres' ? sql`serial` : sql`integer`
    case 'boolean':
      return dialect === 'postgres' ? sql`boolean` : dialect === 'mysql' ? sql`tinyint(1)` : sql`numeric`
    case 'double':
      return dialect === 'postgres' ? sql`double precision` : sql`double`
    case 'text':
      return dialect === 'mysql' ? sql`longtext` : sql`text`
    default:
      return sql.raw(column.type)
  }
}

function applyColumnOptions(
  builder: ColumnDefinitionBuilder,
  column: ColumnDefinition,
  dialect: Dialect,
  addingToExisting: boolean,
): ColumnDefinitionBuilder {
  let result = builder
  if (column.type === 'id') {
    result = result.primaryKey()
    if (dialect !== 'postgres') result = result.autoIncrement()
    return result
  }
  if (column.default !== undefined) {
    const value =
      typeof column.default === 'boolean' && dialect !== 'postgres' ? Number(column.default) : column.default
    result = result.defaultTo(value)
  }
  // A NOT NULL column added to an existing table needs a default, which every such column has.
  if (column.notNull && (!addingToExisting || column.default !== undefined)) result = result.notNull()
  return result
}

async function existingIndexNames(
  db: Kysely<unknown>,
  dialect: Dialect,
  table: string,
): Promise<Set<string>> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`
      : dialect === 'postgres'
        ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table}`
        : sql<{
            name: string
          }>`select distinct index_name as name from information_schema.statistics where table_schema = database() and table_name = ${table}`
  const result = await query.execute(db)
  return new Set(result.rows.map((row) => row.name))
}
