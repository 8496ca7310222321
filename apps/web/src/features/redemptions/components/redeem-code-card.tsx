import { Button, Card, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { redeemCodeInputSchema } from '@one-api/contracts/user-admin'
import { IconExternalLink, IconTicket } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { schemaValidator } from '@/lib/form-validation.ts'
import { notifySuccess } from '@/lib/notify.ts'
import { renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'
import { useBalance } from '../api/get-balance.ts'
import { useRedeemCode } from '../api/redeem-code.ts'

const validateCode = schemaValidator(redeemCodeInputSchema, (values: { key: string }) => values, {
  fallbackField: 'key',
})

/**
 * The user's balance, a field to redeem a code (the new balance shows as soon as it is credited),
 * and, when the site sells codes, the link to buy one (the TopUpLink option).
 */
export function RedeemCodeCard() {
  const { t } = useTranslation()
  const status = useStatus()
  const balance = useBalance()
  const redeem = useRedeemCode()
  const form = useForm({ mode: 'controlled', initialValues: { key: '' }, validate: validateCode })
  const quota = (value: number) => renderQuota(value, status.displayInCurrency, status.quotaPerUnit)
  const topUpLink = status.top_up_link ?? ''
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="redeem-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Title order={3} size="h4" id="redeem-title">
            {t('redemptions.redeem.title')}
          </Title>
          {topUpLink && (
            <Button
              component="a"
              href={topUpLink}
              target="_blank"
              rel="noreferrer"
              variant="light"
              rightSection={<IconExternalLink size={16} aria-hidden />}
            >
              {t('redemptions.redeem.buy')}
            </Button>
          )}
        </Group>
        <Group gap="xs" aria-live="polite">
          <Text>{t('redemptions.redeem.balance')}</Text>
          {balance.data ? (
            <Text fw={700} data-testid="balance">
              {quota(balance.data.quota)}
            </Text>
          ) : (
            <Skeleton h={20} w={80} visible={balance.isPending} />
          )}
        </Group>
        <form
          noValidate
          onSubmit={form.onSubmit(({ key }) =>
            redeem.mutate(
              { key: key.trim() },
              {
                onSuccess: (amount) => {
                  notifySuccess(t('redemptions.redeem.success', { amount: quota(amount) }))
                  form.reset()
                },
              },
            ),
          )}
        >
          <Group gap="sm" align="flex-start">
            <TextInput
              style={{ flex: 1, minWidth: 220 }}
              label={t('redemptions.redeem.code')}
              placeholder={t('redemptions.redeem.placeholder')}
              autoComplete="off"
              key={form.key('key')}
              {...form.getInputProps('key')}
            />
            <Button type="submit" mt={25} loading={redeem.isPending} leftSection={<IconTicket size={16} />}>
              {t('redemptions.redeem.submit')}
            </Button>
          </Group>
        </form>
        {!topUpLink && <Text size="sm">{t('redemptions.redeem.noLink')}</Text>}
      </Stack>
    </Card>
  )
}
