import { ActionIcon, TextInput } from '@mantine/core'
import { IconSearch, IconX } from '@tabler/icons-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

interface SearchBoxProps {
  value: string
  onSearch: (keyword: string) => void
  placeholder: string
  label: string
}

/** Searches on Enter (terms are trimmed); the cross clears the search. */
export function SearchBox({ value, onSearch, placeholder, label }: SearchBoxProps) {
  const { t } = useTranslation()
  const [text, setText] = useState(value)
  useEffect(() => setText(value), [value])
  return (
    <search style={{ flex: 1, minWidth: 200 }}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          onSearch(text.trim())
        }}
      >
        <TextInput
          aria-label={label}
          placeholder={placeholder}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={
            text ? (
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('table.clearSearch')}
                onClick={() => {
                  setText('')
                  onSearch('')
                }}
              >
                <IconX size={14} />
              </ActionIcon>
            ) : null
          }
        />
      </form>
    </search>
  )
}
