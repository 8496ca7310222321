import { Role } from '@one-api/contracts'
import { z } from 'zod'
import type { AppContext } from '../../app-context.ts'
import { parseEmail } from '../../auth/email-address.ts'
import { AppError } from '../../http/errors.ts'
import { ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { sendMail, smtpConfigured } from '../../platform/mailer.ts'

const testMailInputSchema = z.object({ email: z.string({ error: 'email is required' }) })

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/**
 * `POST /api/option/test_mail` `{email}` (root): sends one mail through the saved SMTP options, so
 * the administrator learns at once whether they work. A failure answers the SMTP server's own reason
 * (a refused login, an unreachable host); the SMTP password never appears in it.
 */
export function testMailRoutes(context: AppContext): RouteDefinition[] {
  const { options } = context
  return [
    {
      method: 'POST',
      url: '/api/option/test_mail',
      access: Role.Root,
      handler: async (request) => {
        const email = parseEmail(parseInput(testMailInputSchema, request.body).email)
        if (!smtpConfigured(options)) {
          throw new AppError('service_unavailable', 'SMTP is not configured: set the SMTP server first')
        }
        const system = options.get('SystemName')
        try {
          await sendMail(
            options,
            email,
            `${system} test mail`,
            `<p>This is a test mail from ${escapeHtml(system)}: the SMTP settings work.</p>`,
          )
        } catch (error) {
          const reason = (error instanceof Error ? error.message : String(error)).replaceAll(
            options.get('SMTPToken') || '\u0000',
            '***',
          )
          throw new AppError('service_unavailable', `The test mail could not be sent: ${reason}`)
        }
        return ok(undefined, `A test mail has been sent to ${email}`)
      },
    },
  ]
}
