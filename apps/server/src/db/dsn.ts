/**
 * Reads one-api's database settings. `SQL_DSN` unset means SQLite at `SQLITE_PATH`;
 * `postgres://` / `postgresql://` means PostgreSQL; `mysql://` or Go's
 * `user:pass@tcp(host:port)/db?params` means MySQL, as one-api accepts.
 */
export type DatabaseTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string }
  | {
      dialect: 'mysql'
      host: string
      port: number
      user: string
      password: string
      database: string
      socketPath?: string
    }

export class DsnError extends Error {}

export function parseDatabaseTarget(dsn: string | undefined, sqlitePath: string): DatabaseTarget {
  if (!dsn) return { dialect: 'sqlite', path: sqlitePath }
  if (/^postgres(ql)?:\/\//i.test(dsn)) return { dialect: 'postgres', url: dsn }
  if (/^mysql:\/\//i.test(dsn)) {
    const url = new URL(dsn)
    return {
      dialect: 'mysql',
      host: url.hostname || '127.0.0.1',
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    }
  }
  if (/^sqlite:/i.test(dsn)) return { dialect: 'sqlite', path: dsn.replace(/^sqlite:(\/\/)?/i, '') }
  return parseGoMysqlDsn(dsn)
}

// Go's go-sql-driver format: [user[:password]@][net[(addr)]]/dbname[?params]
function parseGoMysqlDsn(dsn: string): DatabaseTarget {
  const match = /^(?:([^:@]*)(?::(.*))?@)?(?:(tcp|unix)?\(([^)]*)\))?\/([^?]*)(?:\?.*)?$/.exec(dsn)
  if (!match) {
    throw new DsnError(
      'SQL_DSN: not understood; use postgres://user:pass@host:5432/db, mysql://user:pass@host:3306/db or user:pass@tcp(host:3306)/db',
    )
  }
  const [, user = '', password = '', network = 'tcp', address = '127.0.0.1:3306', database] = match
  if (!database) throw new DsnError('SQL_DSN: the database name is missing (…/dbname)')
  if (network === 'unix')
    return { dialect: 'mysql', host: '', port: 0, user, password, database, socketPath: address }
  const [host, port] = address.split(':')
  return { dialect: 'mysql', host: host || '127.0.0.1', port: Number(port || 3306), user, password, database }
}

/** For log lines: the target without its password. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return `SQLite at ${target.path}`
  if (target.dialect === 'postgres') {
    const url = new URL(target.url)
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`
  }
  return `MySQL at ${target.socketPath ?? `${target.host}:${target.port}`}/${target.database}`
}
