import { Alert, Stack, Title } from '@mantine/core'
import type { TokenView } from '@one-api/contracts/token'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { notifySuccess } from '@/lib/notify.ts'
import { availableModelsQuery, tokenQuery, useSaveToken } from '../api/tokens.ts'
import { NEW_TOKEN_VALUES, TokenForm, type TokenFormValues } from '../components/token-form.tsx'
import { toInputValue } from '../lib/expiry.ts'

/** The address shown in the IP restriction's example. */
const EXAMPLE_IP = '192.168.1.0'

function formValuesOf(token: TokenView): TokenFormValues {
  return {
    name: token.name,
    models: token.models ? token.models.split(',') : [],
    subnet: token.subnet,
    expiry: toInputValue(token.expired_time),
    remain_quota: token.remain_quota,
    unlimited_quota: token.unlimited_quota,
  }
}

/** /token/add and /token/edit/:id. */
export function TokenFormPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const id = useParams().id
  const tokenId = id === undefined ? undefined : Number(id)
  const token = useQuery({ ...tokenQuery(tokenId ?? 0), enabled: tokenId !== undefined })
  const models = useQuery(availableModelsQuery())
  const save = useSaveToken()
  const title = tokenId === undefined ? t('tokens.addTitle') : t('tokens.editTitle', { id: tokenId })
  let body = null
  if (tokenId !== undefined && token.isError) body = <Alert color="red">{token.error.message}</Alert>
  else if (tokenId !== undefined && !token.data) body = <Loading />
  else
    body = (
      <TokenForm
        initialValues={token.data ? formValuesOf(token.data) : NEW_TOKEN_VALUES}
        models={models.data ?? []}
        exampleIp={EXAMPLE_IP}
        submitting={save.isPending}
        onCancel={() => void navigate('/token')}
        onSubmit={(payload) =>
          save.mutate(
            { id: tokenId, payload },
            {
              onSuccess: () => {
                notifySuccess(tokenId === undefined ? t('tokens.created') : t('tokens.updated'))
                void navigate('/token')
              },
            },
          )
        }
      />
    )
  return (
    <Stack gap="md">
      <Title order={2}>{title}</Title>
      {body}
    </Stack>
  )
}
