import '@mantine/charts/styles.css'
import { Stack } from '@mantine/core'
import { isAdmin, useStoredUser } from '@/lib/user-store.ts'
import { AdminUsageSection } from './admin-usage-section.tsx'
import { UserUsageSection } from './user-usage-section.tsx'

/**
 * The home page's dashboard for a signed-in user, and everyone's usage for an administrator. Its
 * own chunk (with the charts library), loaded only once someone is signed in.
 */
export function UsageDashboard() {
  const user = useStoredUser()
  return (
    <Stack gap="xl">
      <UserUsageSection />
      {isAdmin(user) && <AdminUsageSection />}
    </Stack>
  )
}
