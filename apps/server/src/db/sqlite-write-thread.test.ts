import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SqliteWriteError, SqliteWriteThread } from './sqlite-write-thread.ts'

const STATEMENTS = ['insert into notes (body) values (?)', 'insert into notes (id, body) values (?, ?)']

describe('SqliteWriteThread', () => {
  let directory: string
  let path: string
  let database: SqliteDatabase.Database
  const threads: SqliteWriteThread[] = []

  function thread(busyTimeoutMs = 1000) {
    const created = new SqliteWriteThread(path, STATEMENTS, busyTimeoutMs)
    threads.push(created)
    return created
  }
  const bodies = () =>
    (database.prepare('select body from notes order by id').all() as { body: string }[]).map(
      (row) => row.body,
    )

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'one-api-write-thread-'))
    path = join(directory, 'notes.db')
    database = new SqliteDatabase(path)
    database.pragma('journal_mode = WAL')
    database.exec('create table notes (id integer primary key, body text not null)')
  })
  afterEach(async () => {
    for (const each of threads.splice(0)) await each.close()
    database.close()
    rmSync(directory, { recursive: true, force: true })
  })

  it('commits batches in the order they were sent, each whole', async () => {
    const writer = thread()
    const sent = Array.from({ length: 20 }, (_, index) =>
      writer.run([
        [0, [`batch ${index} first`]],
        [0, [`batch ${index} «second» ☃`]],
      ]),
    )
    expect(writer.busy).toBe(true)
    await Promise.all(sent)
    expect(writer.busy).toBe(false)
    expect(bodies()).toEqual(
      Array.from({ length: 20 }, (_, index) => [`batch ${index} first`, `batch ${index} «second» ☃`]).flat(),
    )
  })

  it('applies nothing of a failing batch and reports the SQLite error code', async () => {
    const writer = thread()
    await writer.run([[1, [7, 'kept']]])
    const failed = writer.run([
      [0, ['rolled back with its batch']],
      [1, [7, 'duplicate id']],
    ])
    await expect(failed).rejects.toBeInstanceOf(SqliteWriteError)
    await expect(failed).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })
    await writer.run([[0, ['after the failure']]])
    expect(bodies()).toEqual(['kept', 'after the failure'])
  })

  it('waits for the write lock another connection holds, off the event loop', async () => {
    const writer = thread()
    database.exec('begin immediate')
    const done = writer.run([[0, ['waited']]])
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(writer.busy).toBe(true)
    database.exec('commit')
    await done
    await writer.idle()
    expect(bodies()).toEqual(['waited'])
  })

  it('leaves checkpoints to the checkpointer: its commits never run one at the default 1000 pages', async () => {
    const writer = thread()
    // 1,500 commits of a page-sized row each: well past SQLite's default auto-checkpoint of 1000
    // WAL pages, which would otherwise be run (with its fsyncs) inside one of these commits.
    const page = 'x'.repeat(4000)
    for (let index = 0; index < 1500; index++) await writer.run([[0, [page]]])
    const [result] = database.pragma('wal_checkpoint(PASSIVE)') as {
      log: number
      checkpointed: number
    }[]
    // Every frame written is still in the WAL and only this checkpoint copied them back: no commit
    // of the thread had checkpointed (and restarted the WAL) on its own.
    expect(result.log).toBeGreaterThan(1500)
    expect(result.checkpointed).toBe(result.log)
    expect(bodies()).toHaveLength(1500)
  })

  it('finishes what was sent before it closes, then refuses more', async () => {
    const writer = thread()
    const sent = [writer.run([[0, ['one']]]), writer.run([[0, ['two']]])]
    await writer.close()
    await Promise.all(sent)
    expect(bodies()).toEqual(['one', 'two'])
    await expect(writer.run([[0, ['three']]])).rejects.toThrow('closed')
  })
})
