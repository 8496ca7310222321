import { ActionIcon } from '@mantine/core'
import { IconBrandGithub } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { redirectToGitHub } from '../api/oauth.ts'

export function GitHubSignInButton({ clientId }: { clientId: string }) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const label = t('auth.signInWithGitHub')
  return (
    // A `title`, not a Tooltip: the sign-in page loads no positioning code (first-load budget).
    <ActionIcon
      variant="default"
      size="xl"
      radius="xl"
      aria-label={label}
      title={label}
      loading={busy}
      onClick={() => {
        setBusy(true)
        redirectToGitHub(clientId).catch(() => setBusy(false))
      }}
    >
      <IconBrandGithub />
    </ActionIcon>
  )
}
