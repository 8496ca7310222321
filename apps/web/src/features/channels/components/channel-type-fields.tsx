import { Alert, NumberInput, Switch, Textarea, TextInput } from '@mantine/core'
import type { UseFormReturnType } from '@mantine/form'
import { ChannelType } from '@one-api/contracts/channel-types'
import { useTranslation } from 'react-i18next'
import { type ChannelFormValues, RESPONSES_API_TYPES } from '../lib/channel-form-values.ts'

type Form = UseFormReturnType<ChannelFormValues>

/** The fields and notes only some types have (Azure, custom, Spark, AWS, Vertex AI, ...). */
export function ChannelTypeFields({ form, creating }: { form: Form; creating: boolean }) {
  const type = Number(form.values.type)
  return (
    <>
      <TypeFields form={form} creating={creating} type={type} />
      {RESPONSES_API_TYPES.includes(type) && <ResponsesApiSwitch form={form} />}
    </>
  )
}

/** OpenAI-format types: whether the upstream serves OpenAI's Responses API, so it is passed through. */
function ResponsesApiSwitch({ form }: { form: Form }) {
  const { t } = useTranslation()
  return (
    <Switch
      label={t('channels.form.responsesApi')}
      description={t('channels.form.responsesApiHint')}
      checked={form.values.config.responses_api === 'true'}
      onChange={(event) =>
        form.setFieldValue('config.responses_api', event.currentTarget.checked ? 'true' : '')
      }
    />
  )
}

function TypeFields({ form, creating, type }: { form: Form; creating: boolean; type: number }) {
  const { t } = useTranslation()
  switch (type) {
    case ChannelType.azure:
      return (
        <>
          <TextInput
            label={t('channels.form.azureEndpoint')}
            placeholder={t('channels.form.azureEndpointPlaceholder')}
            {...form.getInputProps('base_url')}
          />
          <TextInput
            label={t('channels.form.azureVersion')}
            placeholder={t('channels.form.azureVersionPlaceholder')}
            {...form.getInputProps('other')}
          />
        </>
      )
    case ChannelType.custom:
      return (
        <TextInput
          required
          label={t('channels.form.baseUrlCustom')}
          placeholder={t('channels.form.baseUrlCustomPlaceholder')}
          {...form.getInputProps('base_url')}
        />
      )
    case ChannelType.openAICompatible:
      return (
        <TextInput
          required
          label={t('channels.form.baseUrlCustom')}
          placeholder={t('channels.form.baseUrlCompatiblePlaceholder')}
          {...form.getInputProps('base_url')}
        />
      )
    case ChannelType.xunfei:
      return (
        <TextInput
          label={t('channels.form.modelVersion')}
          placeholder={t('channels.form.modelVersionPlaceholder')}
          {...form.getInputProps('other')}
        />
      )
    case 21:
      return (
        <TextInput
          label={t('channels.form.knowledgeBase')}
          placeholder={t('channels.form.knowledgeBasePlaceholder')}
          {...form.getInputProps('other')}
        />
      )
    case 17:
      return (
        <TextInput
          label={t('channels.form.plugin')}
          placeholder={t('channels.form.pluginPlaceholder')}
          {...form.getInputProps('other')}
        />
      )
    case ChannelType.coze:
      return (
        <>
          <Alert color="blue">{t('channels.form.cozeNotice')}</Alert>
          <TextInput
            label={t('channels.form.userId')}
            placeholder={t('channels.form.userIdPlaceholder')}
            {...form.getInputProps('config.user_id')}
          />
        </>
      )
    case ChannelType.doubao:
      return <Alert color="blue">{t('channels.form.doubaoNotice')}</Alert>
    case ChannelType.aws:
      return (
        <>
          <TextInput
            label={t('channels.form.region')}
            placeholder={t('channels.form.regionPlaceholder')}
            {...form.getInputProps('config.region')}
          />
          <TextInput label={t('channels.form.ak')} {...form.getInputProps('config.ak')} />
          <TextInput
            label={t('channels.form.sk')}
            placeholder={creating ? undefined : t('channels.form.skEditPlaceholder')}
            {...form.getInputProps('config.sk')}
          />
        </>
      )
    case ChannelType.vertexAi:
      return (
        <>
          <TextInput
            label={t('channels.form.vertexRegion')}
            placeholder={t('channels.form.vertexRegionPlaceholder')}
            {...form.getInputProps('config.region')}
          />
          <TextInput
            label={t('channels.form.projectId')}
            {...form.getInputProps('config.vertex_ai_project_id')}
          />
          <Textarea
            label={t('channels.form.adc')}
            placeholder={creating ? t('channels.form.adcPlaceholder') : t('channels.form.skEditPlaceholder')}
            autosize
            minRows={3}
            {...form.getInputProps('config.vertex_ai_adc')}
          />
        </>
      )
    case ChannelType.gemini:
      return (
        <TextInput
          label={t('channels.form.geminiVersion')}
          placeholder={t('channels.form.geminiVersionPlaceholder')}
          {...form.getInputProps('config.api_version')}
        />
      )
    case ChannelType.cloudflare:
      return (
        <TextInput
          label={t('channels.form.accountId')}
          placeholder={t('channels.form.accountIdPlaceholder')}
          {...form.getInputProps('config.user_id')}
        />
      )
    case 35: // Cohere
      return (
        <TextInput
          label={t('channels.form.inputType')}
          placeholder={t('channels.form.inputTypePlaceholder')}
          {...form.getInputProps('config.input_type')}
        />
      )
    case ChannelType.ollama:
      return (
        <NumberInput
          label={t('channels.form.numCtx')}
          placeholder={t('channels.form.numCtxPlaceholder')}
          min={1}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('config.num_ctx')}
        />
      )
    case ChannelType.fastGpt:
      return (
        <TextInput
          label={t('channels.form.privateDeployment')}
          placeholder={t('channels.form.privateDeploymentPlaceholder')}
          {...form.getInputProps('base_url')}
        />
      )
    case ChannelType.proxy:
      return <Alert color="blue">{t('channels.form.proxyNotice')}</Alert>
    default:
      return null
  }
}

/** Types whose base URL field is one of their own fields above; the others get the optional proxy URL. */
export const OWN_BASE_URL_TYPES: readonly number[] = [
  ChannelType.azure,
  ChannelType.custom,
  ChannelType.fastGpt,
  ChannelType.openAICompatible,
]
