import type { SessionUser } from '@one-api/contracts'
import { Role } from '@one-api/contracts/roles'
import { useSyncExternalStore } from 'react'
import { readItem, removeItem, StorageKey, writeItem } from './local-storage.ts'

/**
 * The signed-in user, as JSON under local storage `user` (one-api's key). Components subscribe so
 * the header and guards change at once on sign-in, sign-out, a 401, or a sign-out in another tab.
 */
const listeners = new Set<() => void>()
let cachedRaw: string | null = null
let cachedUser: SessionUser | undefined

function parseUser(raw: string | null): SessionUser | undefined {
  if (!raw) return undefined
  try {
    const value: unknown = JSON.parse(raw)
    if (typeof value !== 'object' || value === null) return undefined
    const candidate = value as Partial<SessionUser>
    if (typeof candidate.username !== 'string' || typeof candidate.role !== 'number') return undefined
    return candidate as SessionUser
  } catch {
    return undefined
  }
}

export function getStoredUser(): SessionUser | undefined {
  const raw = readItem(StorageKey.user)
  if (raw !== cachedRaw) {
    cachedRaw = raw
    cachedUser = parseUser(raw)
  }
  return cachedUser
}

function emit(): void {
  for (const listener of listeners) listener()
}

export function storeUser(user: SessionUser): void {
  writeItem(StorageKey.user, JSON.stringify(user))
  emit()
}

export function clearStoredUser(): void {
  removeItem(StorageKey.user)
  emit()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  const onStorage = (event: StorageEvent) => {
    if (event.key === StorageKey.user || event.key === null) listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

export function useStoredUser(): SessionUser | undefined {
  return useSyncExternalStore(subscribe, getStoredUser)
}

export function isAdmin(user: SessionUser | undefined): boolean {
  return (user?.role ?? Role.Guest) >= Role.Admin
}

export function isRoot(user: SessionUser | undefined): boolean {
  return (user?.role ?? Role.Guest) >= Role.Root
}
