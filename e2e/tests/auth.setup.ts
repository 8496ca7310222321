import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { ROOT_PASSWORD, ROOT_SESSION, signIn, test } from '../support.ts'

test('root signs in once for the admin scenarios', async ({ page }) => {
  await signIn(page, 'root', ROOT_PASSWORD)
  mkdirSync(dirname(ROOT_SESSION), { recursive: true })
  await page.context().storageState({ path: ROOT_SESSION })
})
