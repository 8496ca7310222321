import { notifications } from '@mantine/notifications'
import type { ReactNode } from 'react'
import { i18n } from '@/i18n/i18n.ts'

const closeButtonProps = () => ({ 'aria-label': i18n.t('common.close') })

/** Toast durations: errors stay 5 s, warnings 10 s, successes 1.5 s, information 3 s. */
export const TOAST_DURATION = { error: 5000, warning: 10000, success: 1500, info: 3000 } as const

export function notifyError(message: ReactNode): void {
  notifications.show({
    color: 'red',
    message,
    closeButtonProps: closeButtonProps(),
    autoClose: TOAST_DURATION.error,
  })
}

export function notifyWarning(message: ReactNode): void {
  notifications.show({
    color: 'yellow',
    message,
    closeButtonProps: closeButtonProps(),
    autoClose: TOAST_DURATION.warning,
  })
}

export function notifySuccess(message: ReactNode): void {
  notifications.show({
    color: 'green',
    message,
    closeButtonProps: closeButtonProps(),
    autoClose: TOAST_DURATION.success,
  })
}

export function notifyInfo(message: ReactNode): void {
  notifications.show({
    color: 'blue',
    message,
    closeButtonProps: closeButtonProps(),
    autoClose: TOAST_DURATION.info,
  })
}
