import type { StatusRecord } from '@one-api/contracts'
import { DEFAULT_QUOTA_PER_UNIT } from '@one-api/contracts/quota'
import { useState, useSyncExternalStore } from 'react'
import { i18n } from '@/i18n/i18n.ts'
import { apiGet } from './api-client.ts'
import { readJson, StorageKey, writeItem } from './local-storage.ts'
import { notifyError } from './notify.ts'

export const DEFAULT_SYSTEM_NAME = 'One API'
export const DEFAULT_LOGO = '/logo.png'

/** Keeps the status record and its one-api keys in local storage, for the next start and for pages. */
function rememberStatus(status: StatusRecord): void {
  writeItem(StorageKey.status, JSON.stringify(status))
  writeItem(StorageKey.systemName, status.system_name || DEFAULT_SYSTEM_NAME)
  writeItem(StorageKey.logo, status.logo || DEFAULT_LOGO)
  writeItem(StorageKey.quotaPerUnit, String(status.quota_per_unit || DEFAULT_QUOTA_PER_UNIT))
  writeItem(StorageKey.displayInCurrency, String(status.display_in_currency))
  writeItem(StorageKey.serverAddress, status.server_address ?? '')
  writeItem(StorageKey.chatLink, status.chat_link ?? '')
}

export function readStoredStatus(): Partial<StatusRecord> | undefined {
  const value = readJson(StorageKey.status)
  return typeof value === 'object' && value !== null ? (value as Partial<StatusRecord>) : undefined
}

async function fetchStatus(): Promise<Partial<StatusRecord>> {
  try {
    const status = await apiGet<StatusRecord>('/api/status', { notify: false })
    rememberStatus(status)
    return status
  } catch (error) {
    notifyError(i18n.t('errors.statusUnavailable'))
    throw error
  }
}

export interface ConsoleStatus extends Partial<StatusRecord> {
  systemName: string
  logo: string
  quotaPerUnit: number
  displayInCurrency: boolean
  chatLink: string
  version: string
}

function withDefaults(status: Partial<StatusRecord> | undefined): ConsoleStatus {
  return {
    ...status,
    systemName: status?.system_name || DEFAULT_SYSTEM_NAME,
    logo: status?.logo || DEFAULT_LOGO,
    quotaPerUnit: status?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT,
    displayInCurrency: status?.display_in_currency ?? false,
    chatLink: status?.chat_link ?? '',
    version: status?.version ?? '',
  }
}

/**
 * The status record fetched this start of the console. Kept here rather than in TanStack Query: the
 * layout and the sign-in page read it, and Query stays out of the sign-in page's first load.
 * One request at a time; a failed one is tried again by the next component that asks.
 */
const listeners = new Set<() => void>()
let fetched: Partial<StatusRecord> | undefined
let request: Promise<void> | undefined

function load(): Promise<void> {
  request ??= fetchStatus().then(
    (status) => {
      fetched = status
      for (const listener of listeners) listener()
    },
    () => {
      request = undefined
    },
  )
  return request
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  void load()
  return () => listeners.delete(listener)
}

/** Fetches the record again (after the administrator changed the options it reflects). */
export function refreshStatus(): Promise<void> {
  request = undefined
  return load()
}

/** Drops the fetched record: the next reader fetches it as on a fresh start (component tests). */
export function forgetStatus(): void {
  fetched = undefined
  request = undefined
}

/**
 * The server's status record, fetched once per start of the console. The copy stored by the last
 * start stands in until the fresh one arrives (or when it cannot), so the name and menu do not flicker.
 */
export function useStatus(): ConsoleStatus {
  const [stored] = useState(readStoredStatus)
  const current = useSyncExternalStore(subscribe, () => fetched)
  return withDefaults(current ?? stored)
}
