import { readFile } from 'node:fs/promises'
import type { APIRequestContext, Page } from '@playwright/test'
import { captureScreen, dismissNotices, expect, heading, ROOT_SESSION, signIn, test } from '../support.ts'

// Names unique to this spec: every spec shares one gateway and one database.
const BATCH = 'e2e-promo'
const RENAMED = 'e2e-renamed'
const search = async (page: Page, keyword: string) => {
  const box = page.getByRole('textbox', { name: 'Search redemption codes' })
  await box.fill(keyword)
  await box.press('Enter')
  await expect(page).toHaveURL(new RegExp(`keyword=${encodeURIComponent(keyword)}`))
}
const rows = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

async function rootApi(playwright: {
  request: { newContext: (options: object) => Promise<APIRequestContext> }
}) {
  return playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: ROOT_SESSION })
}

test.describe('root and redemption codes', () => {
  test.use({ storageState: ROOT_SESSION })
  test.describe.configure({ mode: 'serial' })

  test('root creates three codes and the downloaded file holds them, one per line', async ({ page }) => {
    // Two screens photographed four times each, with their accessibility checks, on a shared machine.
    test.setTimeout(300_000)
    await page.goto('/redemption')
    await expect(heading(page, 'Redemption codes')).toBeVisible()
    await page.getByRole('link', { name: 'Add redemption codes' }).click()
    await expect(heading(page, 'Add redemption codes')).toBeVisible()
    await expect(page.getByLabel('Quota per code')).toHaveValue('100,000')
    await expect(page.getByLabel(/^Number of codes/)).toHaveValue('1')
    await captureScreen(page, 'redemption-form-add')

    await page.getByLabel(/^Name/).fill(BATCH)
    await page.getByLabel(/^Number of codes/).fill('3')
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Submit' }).click()
    const file = await download
    expect(file.suggestedFilename()).toBe(`${BATCH}.txt`)
    const codes = (await readFile(await file.path(), 'utf8')).split('\n').filter(Boolean)
    expect(codes).toHaveLength(3)
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{32}$/)

    await expect(page).toHaveURL(/\/redemption$/)
    await expect(rows(page, BATCH)).toHaveCount(3)
    await expect(rows(page, BATCH).first()).toContainText('Unused')
    await expect(rows(page, BATCH).first()).toContainText('Not yet')
    await captureScreen(page, 'redemption-list')
  })

  test('root searches, sorts, copies, disables, enables, edits and deletes codes', async ({
    page,
    context,
  }) => {
    test.setTimeout(300_000)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.goto('/redemption')
    await search(page, BATCH)
    await expect(rows(page, BATCH)).toHaveCount(3)
    const idCell = rows(page, BATCH).first().getByRole('cell').first()
    const id = (await idCell.textContent())?.trim() ?? ''

    // Sorting by ID ascending then descending reorders the loaded rows.
    await page.getByRole('button', { name: 'ID' }).click()
    await expect(page.getByRole('columnheader', { name: 'ID' })).toHaveAttribute('aria-sort', 'ascending')
    const ascending = await page.getByRole('row').nth(1).getByRole('cell').first().textContent()
    await page.getByRole('button', { name: 'ID' }).click()
    await expect(page.getByRole('columnheader', { name: 'ID' })).toHaveAttribute('aria-sort', 'descending')
    const descending = await page.getByRole('row').nth(1).getByRole('cell').first().textContent()
    expect(Number(ascending)).toBeLessThan(Number(descending))

    await search(page, id)
    const row = rows(page, BATCH)
    await expect(row).toHaveCount(1)
    const name = `${BATCH} #${id}`
    await row.getByRole('button', { name: `Copy the code of ${name}` }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^[0-9a-f]{32}$/)

    await dismissNotices(page)
    await row.getByRole('button', { name: `Disable ${name}` }).click()
    await expect(row).toContainText('Disabled')
    await dismissNotices(page)
    await row.getByRole('button', { name: `Enable ${name}` }).click()
    await expect(row).toContainText('Unused')

    await row.getByRole('link', { name: `Edit ${name}` }).click()
    await expect(heading(page, `Edit redemption code #${id}`)).toBeVisible()
    await expect(page.getByLabel(/^Name/)).toHaveValue(BATCH)
    await captureScreen(page, 'redemption-form-edit')
    await page.getByLabel(/^Name/).fill(RENAMED)
    await page.getByLabel('Quota per code').fill('250000')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page).toHaveURL(/\/redemption$/)
    await search(page, RENAMED)
    const renamed = rows(page, RENAMED)
    await expect(renamed).toHaveCount(1)

    await renamed.getByRole('button', { name: `Delete ${RENAMED} #${id}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('No redemption code matches this search.')).toBeVisible()
  })
})

test.describe('a new user redeems a code', () => {
  const username = `rd${Date.now() % 100_000_000}`
  const password = 'redeem-Pass1'

  test('a user invited by root registers, redeems a code and sees the balance change at once', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(300_000)
    const root = await rootApi(playwright)
    const aff = (await (await root.get('/api/user/aff')).json()).data as string
    const created = await root.post('/api/redemption/', {
      data: { name: 'e2e-redeem', quota: 1_000_000, count: 1 },
    })
    const [code] = (await created.json()).data as string[]
    // The shop link of the TopUpLink option; cleared again at the end.
    const shop = 'https://shop.example/buy-codes'
    await root.put('/api/option/', { data: { key: 'TopUpLink', value: shop } })

    await page.goto(`/register?aff=${aff}`)
    await expect(heading(page, 'Create an account')).toBeVisible()
    await page.waitForLoadState('networkidle')
    await page.getByLabel(/^Username/).fill(username)
    await page.getByLabel(/^Password/).fill(password)
    await page.getByLabel(/^Confirm password/).fill(password)
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    await expect(page).toHaveURL(/\/login$/)
    await signIn(page, username, password)

    const found = await (await root.get(`/api/user/search?keyword=${username}`)).json()
    const rootUser = await (await root.get('/api/user/self')).json()
    expect(found.data[0].inviter_id, 'the invite code recorded root as the inviter').toBe(rootUser.data.id)

    // Personal settings hold the redeem card; the balance there changes as soon as the code is credited.
    await page.goto('/setting')
    const card = page.getByRole('region', { name: 'Redeem a code' })
    const balance = card.getByTestId('balance')
    await expect(balance).toHaveText(/^(\$0\.00|0)$/)
    await card.getByLabel('Redemption code').fill(code ?? '')
    await card.getByRole('button', { name: 'Redeem' }).click()
    await expect(balance).toHaveText(/^(\$2\.00|1M)$/)
    await expect(page.getByText(/^Redeemed: /)).toBeVisible()

    // The same code a second time: the server's message, and the balance stays.
    await card.getByLabel('Redemption code').fill(code ?? '')
    await card.getByRole('button', { name: 'Redeem' }).click()
    await expect(page.getByText('This redemption code has already been used')).toBeVisible()
    await expect(balance).toHaveText(/^(\$2\.00|1M)$/)

    // /topup, one-api's top-up page: the same card, with the shop link of TopUpLink.
    await page.goto('/topup')
    await expect(heading(page, 'Top up')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Buy a code' })).toHaveAttribute('href', shop)
    await expect(page.getByTestId('balance')).toHaveText(/^(\$2\.00|1M)$/)
    await captureScreen(page, 'topup')

    const used = await (await root.get('/api/redemption/search?keyword=e2e-redeem')).json()
    expect(used.data[0].status, 'the code is marked used').toBe(3)
    await root.put('/api/option/', { data: { key: 'TopUpLink', value: '' } })
    await root.dispose()
  })
})

test.describe('root and the redeemed code', () => {
  test.use({ storageState: ROOT_SESSION })

  test('a used code shows as used and cannot be enabled or disabled', async ({ page }) => {
    await page.goto('/redemption?keyword=e2e-redeem')
    const row = rows(page, 'e2e-redeem')
    await expect(row).toContainText('Used')
    await expect(row.getByRole('button', { name: /^(Enable|Disable) e2e-redeem/ })).toBeDisabled()
  })
})
