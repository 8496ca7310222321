import { ActionIcon, Menu } from '@mantine/core'
import { IconLanguage } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { changeLanguage, LANGUAGES } from '@/i18n/i18n.ts'

/** The language menu, opened at once: it is loaded when the header's language button is first used. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation()
  return (
    <Menu position="bottom-end" withinPortal defaultOpened>
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" aria-label={t('header.language')} title={t('header.language')}>
          <IconLanguage size={20} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language.code}
            onClick={() => changeLanguage(language.code)}
            fw={i18n.language === language.code ? 700 : undefined}
          >
            {language.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  )
}
