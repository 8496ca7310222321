import { describe, expect, it } from 'vitest'
import { DsnError, describeTarget, parseDatabaseTarget } from './dsn.ts'

describe('SQL_DSN parsing', () => {
  it('defaults to SQLite at SQLITE_PATH', () => {
    expect(parseDatabaseTarget(undefined, 'data/x.db')).toEqual({ dialect: 'sqlite', path: 'data/x.db' })
  })

  it('reads PostgreSQL URLs', () => {
    expect(parseDatabaseTarget('postgres://u:p@db:5432/oneapi', 'x')).toEqual({
      dialect: 'postgres',
      url: 'postgres://u:p@db:5432/oneapi',
    })
    expect(parseDatabaseTarget('postgresql://u@db/oneapi', 'x').dialect).toBe('postgres')
  })

  it("reads Go's MySQL DSN as one-api accepts it", () => {
    expect(
      parseDatabaseTarget('oneapi:secret@tcp(db.local:3307)/oneapi?charset=utf8mb4&parseTime=True', 'x'),
    ).toEqual({
      dialect: 'mysql',
      host: 'db.local',
      port: 3307,
      user: 'oneapi',
      password: 'secret',
      database: 'oneapi',
    })
    expect(parseDatabaseTarget('root@tcp(localhost)/one', 'x')).toMatchObject({
      host: 'localhost',
      port: 3306,
      user: 'root',
      password: '',
    })
    expect(parseDatabaseTarget('u:p@unix(/run/mysqld/mysqld.sock)/one', 'x')).toMatchObject({
      socketPath: '/run/mysqld/mysqld.sock',
    })
  })

  it('reads mysql:// URLs, decoding the password', () => {
    expect(parseDatabaseTarget('mysql://u:p%40ss@h:3306/db', 'x')).toMatchObject({
      dialect: 'mysql',
      password: 'p@ss',
      database: 'db',
    })
  })

  it('explains a DSN it does not understand, and never prints passwords', () => {
    expect(() => parseDatabaseTarget('nonsense', 'x')).toThrow(DsnError)
    expect(describeTarget(parseDatabaseTarget('mysql://u:hunter2@h:3306/db', 'x'))).not.toContain('hunter2')
    expect(describeTarget(parseDatabaseTarget('postgres://u:hunter2@h/db', 'x'))).not.toContain('hunter2')
  })
})
