import { Divider, Group } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { loadCatalogues } from '@/i18n/i18n.ts'
import { notifySuccess } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'
import { storeUser } from '@/lib/user-store.ts'
import { signInWithWeChat } from '../api/oauth.ts'
import { forgetCachedQueries } from '../api/sign-in.ts'
import { enabledProviders, RedirectButton, WeChatButton } from './provider-buttons.tsx'

// The dialog (and Mantine's Modal) loads when first opened, with the texts of the account pages it
// uses: the sign-in page's first load stays small.
const WeChatCodeModal = lazy(async () => {
  const [module] = await Promise.all([import('./wechat-code-modal.tsx'), loadCatalogues(['auth'])])
  return { default: module.WeChatCodeModal }
})

/** GitHub, Lark, WeChat and OIDC sign-in, each shown when the administrator enabled it. */
export function OtherSignInMethods() {
  const { t } = useTranslation()
  const status = useStatus()
  const navigate = useNavigate()
  const [wechatOpened, wechat] = useDisclosure(false)
  const enabled = enabledProviders(status)
  if (!enabled.github && !enabled.lark && !enabled.oidc && !enabled.wechat) return null
  const signInWithCode = async (code: string) => {
    const user = await signInWithWeChat(code)
    await forgetCachedQueries()
    storeUser(user)
    notifySuccess(t('auth.signedIn'))
    wechat.close()
    navigate('/')
  }
  return (
    <>
      <Divider label={t('auth.otherMethods')} labelPosition="center" />
      <Group justify="center" gap="md">
        {enabled.github && (
          <RedirectButton provider="github" status={status} label={t('auth.signInWithGitHub')} />
        )}
        {enabled.lark && <RedirectButton provider="lark" status={status} label={t('auth.signInWithLark')} />}
        {enabled.wechat && <WeChatButton onClick={wechat.open} />}
        {enabled.oidc && <RedirectButton provider="oidc" status={status} label={t('auth.signInWithOidc')} />}
      </Group>
      {wechatOpened && (
        <Suspense>
          <WeChatCodeModal
            opened
            title={t('auth.signInWithWeChat')}
            submitLabel={t('auth.signIn')}
            onClose={wechat.close}
            onSubmit={signInWithCode}
          />
        </Suspense>
      )}
    </>
  )
}
