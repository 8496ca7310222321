import { useNotifications } from '@mantine/notifications'
import { lazy, Suspense, useState } from 'react'

// The toasts' container (and its transitions) is fetched when the first toast is shown: most
// first visits show none, so it stays out of the first load.
const ResponsiveNotifications = lazy(() =>
  import('./responsive-notifications.tsx').then((module) => ({ default: module.ResponsiveNotifications })),
)

/** Renders the toasts' container from the first toast on (toasts shown before it loads wait in the store). */
export function ToastHost() {
  const { notifications, queue } = useNotifications()
  const [needed, setNeeded] = useState(false)
  if (!needed && notifications.length + queue.length > 0) setNeeded(true)
  if (!needed) return null
  return (
    <Suspense fallback={null}>
      <ResponsiveNotifications />
    </Suspense>
  )
}
