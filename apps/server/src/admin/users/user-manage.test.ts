import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'
import {
  createSignedInUser,
  readUser,
  signInAsRoot,
  snapshotTable,
  type TestUser,
} from './user-test-fixtures.ts'

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
    expect((await manage(admin.client, 'managedel', 'enable')).status).toBe(404)
  })

  it('lets only root promote and demote, one step at a time', async () => {
    const user = await createSignedInUser(server, 'climber')
    const byAdmin = await manage(admin.client, 'climber', 'promote')
    expect(byAdmin.status).toBe(403)
    expect(byAdmin.body.message).toMatch(/Only the super administrator/)
    const promoted = await manage(root, 'climber', 'promote')
    expect(promoted.body.data).toEqual({ status: 1, role: 10 })
    expect((await user.client.get('/api/user/')).status).toBe(200)
    const again = await manage(root, 'climber', 'promote')
    expect(again.status).toBe(400)
    expect(again.body.message).toMatch(/already an administrator/)
    expect((await manage(admin.client, 'climber', 'demote')).status).toBe(403)
    const demoted = await manage(root, 'climber', 'demote')
    expect(demoted.body.data).toEqual({ status: 1, role: 1 })
    expect((await user.client.get('/api/user/')).status).toBe(403)
    const twice = await manage(root, 'climber', 'demote')
    expect(twice.status).toBe(400)
    expect(twice.body.message).toMatch(/already a normal user/)
  })

  it('never disables, deletes or demotes root, even when root asks', async () => {
    for (const action of ['disable', 'delete', 'demote']) {
      const response = await manage(root, 'root', action)
      expect(response.status, action).toBe(403)
      expect(response.body.success).toBe(false)
      expect((await manage(admin.client, 'root', action)).status, action).toBe(403)
    }
    expect((await manage(root, 'root', 'promote')).status).toBe(400)
    expect(await readUser(server, 1)).toMatchObject({ username: 'root', role: 100, status: 1 })
  })

  it('keeps an administrator away from their peers and themselves', async () => {
    const peer = await createSignedInUser(server, 'mgrpeer', Role.Admin)
    for (const action of ['disable', 'delete', 'enable', 'demote']) {
      const response = await manage(admin.client, 'mgrpeer', action)
      expect(response.status, action).toBe(403)
      expect(response.body.message, action).toMatch(/lower than yours/)
      expect((await manage(admin.client, 'mgradmin', action)).status, action).toBe(403)
    }
    expect(await readUser(server, peer.id)).toMatchObject({ role: 10, status: 1 })
    expect((await manage(root, 'mgrpeer', 'disable')).body.data).toEqual({ status: 2, role: 10 })
  })

  it('refuses bad manage requests without changing anything', async () => {
    const member = await createSignedInUser(server, 'mgrmember')
    const before = await snapshotTable(server, 'users')
    const cases: Array<[unknown, number, RegExp]> = [
      [{ username: 'mgrmember', action: 'explode' }, 400, /action must be one of/],
      [{ username: 'mgrmember' }, 400, /action/],
      [{ action: 'disable' }, 400, /username is required/],
      [{ username: 42, action: 'disable' }, 400, /username/],
      [{ username: 'nobody', action: 'disable' }, 404, /User not found/],
    ]
    for (const [body, status, message] of cases) {
      const response = await admin.client.post('/api/user/manage', body)
      expect(response.status, JSON.stringify(body)).toBe(status)
      expect(response.body).toMatchObject({ success: false, message: expect.stringMatching(message) })
    }
    expect((await admin.client.request('POST', '/api/user/manage', { raw: 'disable' })).status).toBe(400)
    expect(
      (
        await new ApiClient(server.baseUrl).post('/api/user/manage', {
          username: 'mgrmember',
          action: 'disable',
        })
      ).status,
    ).toBe(401)
    const byMember = await manage(member.client, 'mgrmember', 'disable')
    expect(byMember.status).toBe(403)
    expect(await snapshotTable(server, 'users')).toEqual(before)
  })
})
