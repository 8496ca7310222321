import type { ReactNode } from 'react'
import type { SelfUser } from '../api/get-self.ts'

/**
 * Places in the personal tab that other features fill. Each receives the signed-in user's record
 * and renders nothing until its feature is built:
 * - AccountBindingActions: the email (code, 30 s resend), WeChat (code valid three minutes) and
 *   GitHub binding buttons of the sign-in feature (features/auth), shown in the bindings card.
 * - RedeemCodeSlot: the "redeem a code" card of features/redemptions, shown under the profile.
 */
export interface PersonalSlots {
  accountBindingActions?: (user: SelfUser) => ReactNode
  redeemCode?: (user: SelfUser) => ReactNode
}
