import { randomUUID } from 'node:crypto'
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import type { NewLog } from '../../db/schema.ts'
import type { Settlement } from './sqlite-ledger-statements.ts'

/**
 * Charges the database would not take after their retries, kept on disk until it does: a served
 * request is never free because its charge could not be stored, and a charge is neither dropped
 * nor retried forever with the client waiting. The failure this covers is the database refusing or
 * not answering writes (down, failing over, out of space, a table it no longer lets us change); the
 * spool lives in its own directory (BILLING_SPOOL_DIR), so it does not share the database's fate.
 *
 * One append-only file of JSON lines per node and origin: `<owner>.<origin>.jsonl`, where origin is
 * the node that kept the charges and owner the node replaying them. A node replays its own files,
 * and adopts (by an atomic rename) the files of a node that counts as dead. Each line is written and
 * fsynced before the charge counts as kept.
 */

export interface KeptCharge {
  id: string
  /** The node whose reservation this charge replaces: its hold is released only by that node. */
  origin: string
  settlement: Settlement
  log?: NewLog
}

export class ChargeSpool {
  /** Charges kept and not yet applied, of this node's files, by file. */
  private readonly files = new Map<string, KeptCharge[]>()
  /** Tokens with a charge kept and not applied: refused new requests meanwhile. */
  private readonly blocked = new Map<number, number>()

  constructor(
    private readonly directory: string,
    private readonly nodeId: string,
  ) {}

  /** True while a charge of this token waits in the spool. */
  blocks(tokenId: number): boolean {
    return (this.blocked.get(tokenId) ?? 0) > 0
  }

  get pendingCount(): number {
    let count = 0
    for (const charges of this.files.values()) count += charges.length
    return count
  }

  /** Keeps the charge durably (throws if the disk refuses it too). */
  keep(settlement: Settlement, log: NewLog | undefined): KeptCharge {
    const charge: KeptCharge = { id: randomUUID(), origin: this.nodeId, settlement, log }
    const file = this.fileName(this.nodeId)
    mkdirSync(this.directory, { recursive: true })
    const descriptor = openSync(join(this.directory, file), 'a')
    try {
      writeSync(descriptor, `${JSON.stringify(charge)}\n`)
      fsyncSync(descriptor)
    } finally {
      closeSync(descriptor)
    }
    this.remember(file, charge)
    return charge
  }

  /**
   * Adopts the files of nodes `isDead` says are dead (renamed to this node's name), then returns
   * every charge this node must apply.
   */
  adoptAndList(isDead: (nodeId: string) => boolean): KeptCharge[] {
    for (const file of this.spoolFiles()) {
      const match = /^([^.]+)\.([^.]+)\.jsonl$/.exec(file)
      if (!match || match[1] === this.nodeId || !isDead(match[1]!)) continue
      const adopted = this.fileName(match[2]!)
      try {
        renameSync(join(this.directory, file), join(this.directory, adopted))
      } catch {
        continue // another node adopted it first
      }
      for (const charge of readCharges(join(this.directory, adopted))) this.remember(adopted, charge)
    }
    return [...this.files.values()].flat()
  }

  /** The owners of the files in the spool other than this node. */
  otherOwners(): string[] {
    const owners = new Set<string>()
    for (const file of this.spoolFiles()) {
      const owner = /^([^.]+)\.[^.]+\.jsonl$/.exec(file)?.[1]
      if (owner && owner !== this.nodeId) owners.add(owner)
    }
    return [...owners]
  }

  /** The charge is in the database now: it leaves the spool (its file is rewritten whole). */
  applied(charge: KeptCharge): void {
    const file = this.fileName(charge.origin)
    const left = (this.files.get(file) ?? []).filter((kept) => kept.id !== charge.id)
    const path = join(this.directory, file)
    if (left.length === 0) {
      rmSync(path, { force: true })
      this.files.delete(file)
    } else {
      const temporary = `${path}.${randomUUID()}.tmp`
      const descriptor = openSync(temporary, 'w')
      try {
        writeSync(descriptor, left.map((kept) => `${JSON.stringify(kept)}\n`).join(''))
        fsyncSync(descriptor)
      } finally {
        closeSync(descriptor)
      }
      renameSync(temporary, path)
      this.files.set(file, left)
    }
    if (charge.settlement[5] === 1) {
      const tokenId = charge.settlement[0]
      const count = (this.blocked.get(tokenId) ?? 1) - 1
      if (count > 0) this.blocked.set(tokenId, count)
      else this.blocked.delete(tokenId)
    }
  }

  private remember(file: string, charge: KeptCharge): void {
    const charges = this.files.get(file) ?? []
    charges.push(charge)
    this.files.set(file, charges)
    // A served request's charge (not a refund) blocks its token.
    if (charge.settlement[5] === 1) {
      const tokenId = charge.settlement[0]
      this.blocked.set(tokenId, (this.blocked.get(tokenId) ?? 0) + 1)
    }
  }

  /** The directory's files; none while it does not exist (nothing was ever kept). */
  private spoolFiles(): string[] {
    try {
      return readdirSync(this.directory)
    } catch {
      return []
    }
  }

  private fileName(origin: string): string {
    return `${this.nodeId}.${origin}.jsonl`
  }
}

/** The charges of a spool file; a line cut short by a crash while it was written is skipped. */
function readCharges(path: string): KeptCharge[] {
  const charges: KeptCharge[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue
    try {
      charges.push(JSON.parse(line) as KeptCharge)
    } catch {
      // Not fsynced, so never counted as kept: its request's client got no answer.
    }
  }
  return charges
}
