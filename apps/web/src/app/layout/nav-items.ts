import type { SessionUser } from '@one-api/contracts'
import {
  type Icon,
  IconCoin,
  IconHome,
  IconKey,
  IconListDetails,
  IconMessageCircle,
  IconServer,
  IconSettings,
  IconTicket,
  IconUsers,
} from '@tabler/icons-react'
import type { TranslationKey } from '@/i18n/i18n.ts'
import { isAdmin } from '@/lib/user-store.ts'

export interface NavItem {
  /** i18n key of the label. */
  label: TranslationKey
  to: string
  icon: Icon
}

const ALL_ITEMS: (NavItem & { adminOnly?: boolean; needsChatLink?: boolean })[] = [
  { label: 'nav.home', to: '/', icon: IconHome },
  { label: 'nav.channel', to: '/channel', icon: IconServer, adminOnly: true },
  { label: 'nav.token', to: '/token', icon: IconKey },
  { label: 'nav.redemption', to: '/redemption', icon: IconTicket, adminOnly: true },
  { label: 'nav.user', to: '/user', icon: IconUsers, adminOnly: true },
  { label: 'nav.log', to: '/log', icon: IconListDetails },
  { label: 'nav.models', to: '/models', icon: IconCoin },
  { label: 'nav.setting', to: '/setting', icon: IconSettings },
  { label: 'nav.chat', to: '/chat', icon: IconMessageCircle, needsChatLink: true },
]

/** The menu: admin items only for administrators, Chat only when a chat link is configured. */
export function navItemsFor(user: SessionUser | undefined, chatLink: string): NavItem[] {
  const admin = isAdmin(user)
  return ALL_ITEMS.filter((item) => (!item.adminOnly || admin) && (!item.needsChatLink || chatLink !== ''))
}

export function isActive(item: NavItem, pathname: string): boolean {
  return item.to === '/' ? pathname === '/' : pathname === item.to || pathname.startsWith(`${item.to}/`)
}
