import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, outcome, REFUSED } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'
import {
  createSignedInUser,
  readUser,
  signInAsRoot,
  snapshotTable,
  type TestUser,
} from '../../testing/user-fixtures.ts'

describe.each(testDialects())('managing users on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let admin: TestUser
  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = await signInAsRoot(server)
    admin = await createSignedInUser(server, 'mgradmin', Role.Admin)
  })
  afterAll(async () => {
    await server?.close()
  })

  const manage = (client: ApiClient, username: string, action: string) =>
    client.post('/api/user/manage', { username, action })

  it('disables and enables a user, who is signed out at once and back in afterwards', async () => {
    const user = await createSignedInUser(server, 'toggled')
    const disabled = await manage(admin.client, 'toggled', 'disable')
    expect(disabled.status).toBe(200)
    expect(disabled.body).toEqual({ success: true, message: '', data: { status: 2, role: 1 } })
    expect((await user.client.get('/api/user/self')).status).toBe(401)
    const enabled = await manage(admin.client, 'toggled', 'enable')
    expect(enabled.body.data).toEqual({ status: 1, role: 1 })
    await user.client.login('toggled', 'password-123')
    expect((await user.client.get('/api/user/self')).status).toBe(200)
  })

  it('deletes a user through the manage call', async () => {
    const user = await createSignedInUser(server, 'managedel')
    const response = await manage(admin.client, 'managedel', 'delete')
    expect(response.body).toEqual({ success: true, message: '', data: { status: 3, role: 1 } })
    expect((await readUser(server, user.id)).status).toBe(3)
    expect(outcome(await manage(admin.client, 'managedel', 'enable'))).toEqual(REFUSED)
  })

  it('lets only root promote and demote, one step at a time', async () => {
    const user = await createSignedInUser(server, 'climber')
    const byAdmin = await manage(admin.client, 'climber', 'promote')
    expect(outcome(byAdmin)).toEqual(REFUSED)
    expect(byAdmin.body.message).toMatch(/Only the super administrator/)
    const promoted = await manage(root, 'climber', 'promote')
    expect(promoted.body.data).toEqual({ status: 1, role: 10 })
    expect((await user.client.get('/api/user/')).status).toBe(200)
    const again = await manage(root, 'climber', 'promote')
    expect(outcome(again)).toEqual(REFUSED)
    expect(again.body.message).toMatch(/already an administrator/)
    expect(outcome(await manage(admin.client, 'climber', 'demote'))).toEqual(REFUSED)
    const demoted = await manage(root, 'climber', 'demote')
    expect(demoted.body.data).toEqual({ status: 1, role: 1 })
    expect(outcome(await user.client.get('/api/user/'))).toEqual(REFUSED)
    const twice = await manage(root, 'climber', 'demote')
    expect(outcome(twice)).toEqual(REFUSED)
    expect(twice.body.message).toMatch(/already a normal user/)
  })

  it('never disables, deletes or demotes root, even when root asks', async () => {
    for (const action of ['disable', 'delete', 'demote']) {
      const response = await manage(root, 'root', action)
      expect(outcome(response), action).toEqual(REFUSED)
      expect(outcome(await manage(admin.client, 'root', action)), action).toEqual(REFUSED)
    }
    expect(outcome(await manage(root, 'root', 'promote'))).toEqual(REFUSED)
    expect(await readUser(server, 1)).toMatchObject({ username: 'root', role: 100, status: 1 })
  })

  it('keeps an administrator away from their peers and themselves', async () => {
    const peer = await createSignedInUser(server, 'mgrpeer', Role.Admin)
    for (const action of ['disable', 'delete', 'enable', 'demote']) {
      const response = await manage(admin.client, 'mgrpeer', action)
      expect(outcome(response), action).toEqual(REFUSED)
      expect(response.body.message, action).toMatch(/lower than yours/)
      expect(outcome(await manage(admin.client, 'mgradmin', action)), action).toEqual(REFUSED)
    }
    expect(await readUser(server, peer.id)).toMatchObject({ role: 10, status: 1 })
    expect((await manage(root, 'mgrpeer', 'disable')).body.data).toEqual({ status: 2, role: 10 })
  })

  it('refuses bad manage requests without changing anything', async () => {
    const member = await createSignedInUser(server, 'mgrmember')
    const before = await snapshotTable(server, 'users')
    const cases: Array<[unknown, RegExp]> = [
      [{ username: 'mgrmember', action: 'explode' }, /action must be one of/],
      [{ username: 'mgrmember' }, /action/],
      [{ action: 'disable' }, /username is required/],
      [{ username: 42, action: 'disable' }, /username/],
      [{ username: 'nobody', action: 'disable' }, /User not found/],
    ]
    for (const [body, message] of cases) {
      const response = await admin.client.post('/api/user/manage', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      expect(response.body).toMatchObject({ success: false, message: expect.stringMatching(message) })
    }
    expect(outcome(await admin.client.request('POST', '/api/user/manage', { raw: 'disable' }))).toEqual(
      REFUSED,
    )
    expect(
      (
        await new ApiClient(server.baseUrl).post('/api/user/manage', {
          username: 'mgrmember',
          action: 'disable',
        })
      ).status,
    ).toBe(401)
    const byMember = await manage(member.client, 'mgrmember', 'disable')
    expect(outcome(byMember)).toEqual(REFUSED)
    expect(await snapshotTable(server, 'users')).toEqual(before)
  })
})
