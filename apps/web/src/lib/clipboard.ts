import { i18n } from '@/i18n/i18n.ts'
import { notifySuccess, notifyWarning } from './notify.ts'

/** Copies text and says so; when the browser refuses, asks the user to copy by hand. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    notifySuccess(i18n.t('clipboard.copied'))
    return true
  } catch {
    notifyWarning(i18n.t('clipboard.failed'))
    return false
  }
}
