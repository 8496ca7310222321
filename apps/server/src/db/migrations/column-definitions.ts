/**
 * The vocabulary of the declarative table lists: column, index and table shapes, and the column
 * constructors every list uses (NOT NULL with a default, as one-api's GORM models declare them).
 */
export type ColumnType =
  | 'id'
  | 'integer'
  | 'bigint'
  | 'double'
  | 'boolean'
  | 'text'
  | `varchar(${number})`
  | `char(${number})`

export interface ColumnDefinition {
  name: string
  type: ColumnType
  notNull?: boolean
  default?: string | number | boolean
  unique?: boolean
}

export interface IndexDefinition {
  name: string
  columns: string[]
  unique?: boolean
}

export interface TableDefinition {
  name: string
  columns: ColumnDefinition[]
  primaryKey?: string[]
  indexes: IndexDefinition[]
  /**
   * SQLite: store the rows in primary-key order (WITHOUT ROWID), as InnoDB always does, so a range
   * of the key is read from adjacent pages instead of one table lookup per index entry.
   */
  clustered?: boolean
}

export const id: ColumnDefinition = { name: 'id', type: 'id' }
export const bigint = (name: string, value = 0): ColumnDefinition => ({
  name,
  type: 'bigint',
  notNull: true,
  default: value,
})
export const integer = (name: string, value = 0): ColumnDefinition => ({
  name,
  type: 'integer',
  notNull: true,
  default: value,
})
export const varchar = (name: string, length: number, value = ''): ColumnDefinition => ({
  name,
  type: `varchar(${length})`,
  notNull: true,
  default: value,
})
export const text = (name: string): ColumnDefinition => ({ name, type: 'text' })
export const boolean = (name: string, value = false): ColumnDefinition => ({
  name,
  type: 'boolean',
  notNull: true,
  default: value,
})
