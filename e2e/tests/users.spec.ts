import type { APIRequestContext, Page } from '@playwright/test'
import { captureScreen, dismissNotices, expect, heading, ROOT_SESSION, signIn, test } from '../support.ts'

// Names unique to this spec (usernames hold at most 12 characters): one database serves every spec.
const SUFFIX = String(Date.now() % 1_000_000)
const MEMBER = `um${SUFFIX}`
const ADMIN = `ua${SUFFIX}`
const TARGET = `ut${SUFFIX}`
const PASSWORD = 'users-Pass1'

const row = (page: Page, username: string) => page.getByRole('row').filter({ hasText: username })

async function searchUsers(page: Page, keyword: string) {
  const box = page.getByRole('textbox', { name: 'Search users' })
  await box.fill(keyword)
  await box.press('Enter')
  await expect(page).toHaveURL(new RegExp(`keyword=${keyword}`))
}

async function call(api: APIRequestContext, method: 'get' | 'post', url: string, data?: object) {
  const reply = await (method === 'get' ? api.get(url) : api.post(url, { data }))
  const body = await reply.json()
  expect(body.success, `${method} ${url}: ${body.message}`).toBe(true)
  return body.data
}

test.describe('root manages users', () => {
  test.use({ storageState: ROOT_SESSION })
  test.describe.configure({ mode: 'serial' })

  test('the list has its heading, search by keyword and IP, orders, header sort and the same-IP view', async ({
    page,
    browser,
  }) => {
    // Two screens photographed four times each, with their accessibility checks, on a shared machine.
    test.setTimeout(300_000)
    await page.goto('/user')
    await expect(heading(page, 'Manage users')).toBeVisible()
    await captureScreen(page, 'user-list')

    await page.getByRole('textbox', { name: 'Search by IP' }).fill('127.0.0.1')
    await page.getByRole('textbox', { name: 'Search by IP' }).press('Enter')
    await expect(page).toHaveURL(/ip=127\.0\.0\.1/)
    await expect(row(page, 'root').first()).toContainText('127.0.0.1')
    await page.getByRole('textbox', { name: 'Search by IP' }).clear()
    await page.getByRole('textbox', { name: 'Search by IP' }).press('Enter')

    await page.getByRole('combobox', { name: 'Order' }).click()
    await page.getByRole('option', { name: 'By remaining quota' }).click()
    await expect(page).toHaveURL(/by=quota/)
    // Root holds by far the largest quota.
    await expect(page.getByRole('row').nth(1)).toContainText('root')

    await page.getByRole('button', { name: 'Requests' }).click()
    await expect(page.getByRole('columnheader', { name: 'Requests' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    )
    await page.getByRole('button', { name: 'Requests' }).click()
    await expect(page.getByRole('columnheader', { name: 'Requests' })).toHaveAttribute(
      'aria-sort',
      'descending',
    )

    // A second user signs in from this machine, so root shares its address with someone.
    const neighbour = `un${SUFFIX}`
    await call(page.request, 'post', '/api/user/', { username: neighbour, password: PASSWORD })
    const elsewhere = await browser.newContext()
    const origin = new URL(page.url()).origin
    await call(elsewhere.request, 'post', `${origin}/api/user/login`, {
      username: neighbour,
      password: PASSWORD,
    })
    await elsewhere.close()

    await page.getByText('Same IP', { exact: true }).click()
    await expect(page).toHaveURL(/view=sameip/)
    await expect(page.getByText(/likely duplicate registrations/)).toBeVisible()
    // Every user here signed in from 127.0.0.1 (the neighbour and root at least); the view is paged,
    // so the neighbour itself may sit on a later page when other specs ran first.
    await expect(row(page, '127.0.0.1').first()).toBeVisible()
    await captureScreen(page, 'user-list-same-ip')
  })

  test('root adds a user, promotes and demotes, disables and enables, then deletes it', async ({ page }) => {
    test.setTimeout(300_000)
    await page.goto('/user')
    await page.getByRole('link', { name: 'Add user' }).click()
    await expect(heading(page, 'Create a user')).toBeVisible()
    await expect(page.getByLabel(/^Password/)).toHaveAttribute('placeholder', 'At least 8 characters')
    await captureScreen(page, 'user-form-add')
    await page.getByRole('button', { name: 'Create user' }).click()
    await expect(page.getByText('username is required')).toBeVisible()
    await page.getByLabel(/^Username/).fill(MEMBER)
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Create user' }).click()
    await expect(page).toHaveURL(/\/user$/)

    await searchUsers(page, MEMBER)
    const member = row(page, MEMBER)
    await expect(member).toContainText('User')
    await expect(member).toContainText('default')
    const rowAction = async (name: string) => {
      await dismissNotices(page)
      await member.getByRole('button', { name }).click()
    }
    await rowAction(`Promote ${MEMBER} to administrator`)
    await expect(member).toContainText('Administrator')
    await rowAction(`Demote ${MEMBER} to normal user`)
    await expect(member).not.toContainText('Administrator')
    await rowAction(`Disable ${MEMBER}`)
    await expect(member).toContainText('Banned')
    await rowAction(`Enable ${MEMBER}`)
    await expect(member).toContainText('Activated')
    await rowAction(`Delete ${MEMBER}`)
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('No user matches this search.')).toBeVisible()

    // Root itself: never disabled or deleted.
    await searchUsers(page, 'root')
    await expect(page.getByRole('button', { name: 'Disable root', exact: true })).toBeDisabled()
    await expect(page.getByRole('button', { name: 'Delete root', exact: true })).toBeDisabled()
  })
})

test.describe('an administrator manages users', () => {
  test('an admin edits a user quota and group, and cannot disable or delete root', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(300_000)
    const root = await playwright.request.newContext({
      baseURL: process.env.E2E_BASE_URL,
      storageState: ROOT_SESSION,
    })
    await call(root, 'post', '/api/user/', { username: ADMIN, password: PASSWORD })
    await call(root, 'post', '/api/user/manage', { username: ADMIN, action: 'promote' })
    const target = await call(root, 'post', '/api/user/', { username: TARGET, password: PASSWORD })

    await signIn(page, ADMIN, PASSWORD)
    await page.goto('/user')
    await expect(heading(page, 'Manage users')).toBeVisible()
    // Only root changes roles.
    await expect(page.getByRole('button', { name: /^Promote / })).toHaveCount(0)

    await searchUsers(page, 'root')
    await expect(page.getByRole('button', { name: 'Disable root', exact: true })).toBeDisabled()
    await expect(page.getByRole('button', { name: 'Delete root', exact: true })).toBeDisabled()
    const refused = await page.request.post('/api/user/manage', {
      data: { username: 'root', action: 'disable' },
    })
    expect((await refused.json()).success, 'the server refuses it too').toBe(false)

    await searchUsers(page, TARGET)
    await row(page, TARGET)
      .getByRole('link', { name: `Edit ${TARGET}` })
      .click()
    await expect(heading(page, `Edit user #${target.id}`)).toBeVisible()
    await expect(page.getByLabel(/^Username/)).toHaveValue(TARGET)
    await captureScreen(page, 'user-form-edit')
    await page.getByRole('combobox', { name: 'Group' }).click()
    await page.getByRole('option', { name: 'vip', exact: true }).click()
    await page.getByLabel('Remaining quota').fill('123456')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/user$/)

    await searchUsers(page, TARGET)
    await expect(row(page, TARGET)).toContainText('vip')
    const saved = await call(root, 'get', `/api/user/${target.id}`)
    expect({ group: saved.group, quota: saved.quota }).toEqual({ group: 'vip', quota: 123_456 })
    await root.dispose()
  })
})
