import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core'
import { IconLanguage, IconMoon, IconSun } from '@tabler/icons-react'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'

// The header is on the first screen (sign-in), so its menus (and the positioning code they need)
// load when first used, not with the page; a plain `title` stands in for a tooltip.
const loadLanguageMenu = () => import('./language-menu.tsx')
const LanguageMenu = lazy(() => loadLanguageMenu().then((module) => ({ default: module.LanguageMenu })))

export function LanguageSwitch() {
  const { t } = useTranslation()
  const [used, setUsed] = useState(false)
  const button = (
    <ActionIcon
      variant="subtle"
      size="lg"
      aria-label={t('header.language')}
      title={t('header.language')}
      onPointerEnter={() => void loadLanguageMenu()}
      onClick={() => setUsed(true)}
    >
      <IconLanguage size={20} />
    </ActionIcon>
  )
  if (!used) return button
  return (
    <Suspense fallback={button}>
      <LanguageMenu />
    </Suspense>
  )
}

/** Light or dark; Mantine remembers the choice in local storage. */
export function ColorSchemeToggle() {
  const { t } = useTranslation()
  const { setColorScheme } = useMantineColorScheme()
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false })
  const next = scheme === 'dark' ? 'light' : 'dark'
  const label = next === 'dark' ? t('header.darkMode') : t('header.lightMode')
  return (
    <ActionIcon
      variant="subtle"
      size="lg"
      aria-label={label}
      title={label}
      onClick={() => setColorScheme(next)}
    >
      {scheme === 'dark' ? <IconSun size={20} /> : <IconMoon size={20} />}
    </ActionIcon>
  )
}
