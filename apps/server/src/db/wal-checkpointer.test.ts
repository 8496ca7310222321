import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from './database.ts'

describe('SQLite WAL checkpoints', () => {
  const directories: string[] = []
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
  })

  it('are run by the background thread: committed pages reach the database file without a close', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'one-api-wal-'))
    directories.push(directory)
    const file = join(directory, 'one-api.db')
    const handle = openDatabase(
      { dialect: 'sqlite', path: file },
      { poolSize: 1, busyTimeoutMs: 5000, maxLifetimeSeconds: 0 },
    )
    try {
      const sqlite = handle.sqlite!
      sqlite.exec('create table filler (id integer primary key, text text)')
      const insert = sqlite.prepare('insert into filler (text) values (?)')
      const sizeBefore = statSync(file).size
      sqlite.transaction(() => {
        for (let index = 0; index < 2000; index++) insert.run('x'.repeat(500))
      })()
      // About 1 MB committed to the WAL; far below the auto-checkpoint, so only the worker copies it.
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(1_000_000)
      const deadline = Date.now() + 5000
      while (statSync(file).size < sizeBefore + 1_000_000 && Date.now() < deadline) await sleep(50)
      expect(statSync(file).size).toBeGreaterThan(sizeBefore + 1_000_000)
      expect(sqlite.prepare('select count(*) from filler').pluck().get()).toBe(2000)
    } finally {
      await handle.close()
    }
  })
})
