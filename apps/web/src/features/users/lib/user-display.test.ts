import { Role, roleName } from '@one-api/contracts/roles'
import { describe, expect, it } from 'vitest'
import { groupColor, groupsOf, permissionsOver, roleColor, truncateUsername } from './user-display.ts'

describe('user display', () => {
  it('cuts usernames after 15 characters and keeps shorter ones whole', () => {
    expect(truncateUsername('exactly15chars_')).toBe('exactly15chars_')
    expect(truncateUsername('a-much-longer-username')).toBe('a-much-longer-u…')
  })

  it('reads groups from a comma list, empty meaning default, with the special colours', () => {
    expect(groupsOf('')).toEqual(['default'])
    expect(groupsOf('vip, svip')).toEqual(['vip', 'svip'])
    expect(['vip', 'pro', 'svip', 'premium', 'default'].map(groupColor)).toEqual([
      'yellow',
      'yellow',
      'red',
      'red',
      'gray',
    ])
  })

  it('names the roles 1, 10 and 100, anything else unknown', () => {
    expect([1, 10, 100, 5].map(roleName)).toEqual(['user', 'admin', 'root', 'unknown'])
    expect(roleColor(7)).toBe('red')
  })

  it('lets an administrator act only on lower roles and never disable or delete root', () => {
    expect(permissionsOver(Role.Admin, Role.Root)).toEqual({
      manage: false,
      remove: false,
      promote: false,
      demote: false,
    })
    expect(permissionsOver(Role.Admin, Role.Admin).manage).toBe(false)
    expect(permissionsOver(Role.Admin, Role.Common)).toEqual({
      manage: true,
      remove: true,
      promote: false,
      demote: false,
    })
  })

  it('lets root change roles, but not disable, delete or demote root', () => {
    expect(permissionsOver(Role.Root, Role.Root)).toEqual({
      manage: true,
      remove: false,
      promote: false,
      demote: false,
    })
    expect(permissionsOver(Role.Root, Role.Common).promote).toBe(true)
    expect(permissionsOver(Role.Root, Role.Admin)).toEqual({
      manage: true,
      remove: true,
      promote: false,
      demote: true,
    })
  })
})
