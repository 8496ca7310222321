import { AccountBindingsCard } from '@/features/auth/components/account-bindings-card.tsx'
import { SmtpTestMail } from '@/features/auth/components/smtp-test-mail.tsx'
import { RedeemCodeCard } from '@/features/redemptions/components/redeem-code-card.tsx'
import { SettingsPage } from '@/features/settings/pages/settings-page.tsx'

/**
 * The settings screen as the console shows it: the settings feature's tabs with the cards of the
 * sign-in and redemption features put in. Features do not import each other; the app composes them
 * (its route loads the 'auth' and 'redemptions' translation bundles these cards use).
 */
export function SettingsRoute() {
  return (
    <SettingsPage
      personalCards={
        <>
          <RedeemCodeCard />
          <AccountBindingsCard />
        </>
      }
      smtpActions={<SmtpTestMail />}
    />
  )
}
