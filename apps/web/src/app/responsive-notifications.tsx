import { useMediaQuery } from '@mantine/hooks'
import { Notifications } from '@mantine/notifications'
import { TOAST_DURATION } from '@/lib/notify.ts'

/** Toasts sit top-right, or top-centre on screens 600px wide or less. */
export function ResponsiveNotifications() {
  const narrow = useMediaQuery('(max-width: 600px)')
  return <Notifications position={narrow ? 'top-center' : 'top-right'} autoClose={TOAST_DURATION.error} />
}
